import { eq } from 'drizzle-orm'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { hashPassword, users } from '../auth'
import { completeCnpj } from '../core'
import { companies } from '../licensing'
import { representatives } from '../resellers'

let companySeq = 0
let sharedHash: string | null = null

/**
 * A portal with an administrador, a gerente managing `rep` (not `rep2`), two representatives with a
 * user each, and companies for both. Returns their cookies and ids.
 */
export async function creditWorld(options: { now?: string } = {}) {
	const t = createTestApp({ now: options.now })
	// One password hash for every test of the file: argon2 is slow on purpose, and these tests are about credits.
	sharedHash ??= await hashPassword('senha-forte-123')
	const now = t.clock.now().toISOString()
	const user = (cnpj: string, tipo: 'administrador' | 'gerente' | 'representante', nome: string) =>
		t.db.insert(users).values({ cnpj, nome, tipo, email: null, senha_hash: sharedHash!, ativo: true, created_at: now, updated_at: now }).returning().get()
	const admin = user(CNPJ.admin, 'administrador', 'Ana Admin')
	const gerente = user(CNPJ.gerente, 'gerente', 'Gabriel Gerente')
	user(CNPJ.rep, 'representante', 'Rafael Rep')
	user(CNPJ.rep2, 'representante', 'Sara Rep')
	t.db.insert(representatives).values({ nome: 'Rafael Rep', cnpj: CNPJ.rep, gerente_id: gerente.id, data: '2026-01-01' }).run()
	t.db.insert(representatives).values({ nome: 'Sara Rep', cnpj: CNPJ.rep2, gerente_id: null, data: '2026-01-01' }).run()
	const company = (rep: string, razao: string, values: Partial<typeof companies.$inferInsert> = {}) =>
		t.db
			.insert(companies)
			.values({
				razao,
				cnpj: completeCnpj(String(770000000000 + ++companySeq)),
				cnpj_representante: rep,
				serial: `serial-${companySeq}-${Math.random()}`,
				data: '2026-01-01',
				...values
			})
			.returning()
			.get()
	const cookies = {
		admin: await t.login(CNPJ.admin),
		gerente: await t.login(CNPJ.gerente),
		rep: await t.login(CNPJ.rep),
		rep2: await t.login(CNPJ.rep2)
	}
	const licence = (codigo: number) => t.db.select().from(companies).where(eq(companies.codigo, codigo)).get()?.validade_licenca ?? null
	return { t, admin, gerente, cookies, company, licence }
}

/** An administrador adds credits through the API. */
export async function addVia(w: Awaited<ReturnType<typeof creditWorld>>, rep: string, amount: number, unitValue = 50) {
	const res = await w.t.call('POST', '/api/credits', { cookie: w.cookies.admin, body: { representanteId: rep, amount, unitValue } })
	if (res.status !== 201) throw new Error(`add failed ${res.status} ${res.text}`)
	return res.json
}
