import { describe, expect, it } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq } from 'drizzle-orm'
import { HOUR, completeCnpj } from '../core'
import { companies } from '../companies'
import { terminals } from '../terminals'
import { markCompaniesOffline } from './check'
import { signingKeys } from './schema'
import { type AnswerAt, TEST_IMAGES, testWorld } from '../../apps/server/testing'

type Fixture = Awaited<ReturnType<typeof testWorld>>

/** A desktop system asking: no cookie and no Origin, as a program calls. */
async function ask(t: Fixture, body: Record<string, unknown>, headers: Record<string, string> = {}) {
	const res = await t.app.handle(
		new Request('http://localhost/api/licenca/verificar', {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(body)
		})
	)
	return { status: res.status, json: (await res.json()) as AnswerAt<'POST', '/api/licenca/verificar'>, headers: res.headers }
}

function machine(company: { cnpj: string; serial: string }, n = 1, extra: Record<string, unknown> = {}) {
	return {
		cnpj: company.cnpj,
		chave: company.serial,
		sistema: 'K-PDV',
		mac: `AA:BB:CC:00:00:${String(n).padStart(2, '0')}`,
		nome_computador: `CAIXA-${n}`,
		...extra
	}
}

function verifyToken(token: string, pem: string) {
	const [header, payload, signature] = token.split('.')
	const ok = verify(null, Buffer.from(`${header}.${payload}`), createPublicKey(pem), Buffer.from(signature, 'base64url'))
	return {
		ok,
		header: JSON.parse(Buffer.from(header, 'base64url').toString()),
		payload: JSON.parse(Buffer.from(payload, 'base64url').toString())
	}
}

describe('POST /api/licenca/verificar', () => {
	it('answers each licence state of the asking system', async () => {
		const t = await testWorld()
		const active = await t.companyVia({ validade_licenca: '2027-01-10', validade_certificado: '2026-12-20', nterminais: 5 })
		const blockedPdv = await t.companyVia({ validade_licenca: '2027-01-10', bloqueadopdv: 'S' })
		const expired = await t.companyVia({ validade_licenca: '2026-11-20' })
		const none = await t.companyVia()
		const maintenance = await t.companyVia({ validade_licenca: '2027-01-10', manutencao: 'S' })
		const released = await t.companyVia({ validade_licenca: '2026-11-01' })
		await t.call('POST', `/api/companies/${released.codigo}/liberar-confianca`, { cookie: t.cookies.rep })

		const a = await ask(t, machine(active))
		expect(a.status).toBe(200)
		expect(a.json).toMatchObject({
			status: 'ativa',
			permitido: true,
			sistema: 'K-PDV',
			empresa: { razao: active.razao, cnpj: active.cnpj },
			licenca: { validade: '2027-01-10', dias_restantes: 51, certificado_validade: '2026-12-20', certificado_dias_restantes: 30 },
			terminal: { registrado: true, usados: 1, permitidos: 5 }
		})
		expect((await ask(t, machine(blockedPdv))).json.status).toBe('bloqueada')
		expect((await ask(t, machine(blockedPdv, 1, { sistema: 'K-RETA' }))).json.status).toBe('ativa')
		expect((await ask(t, machine(expired))).json).toMatchObject({ status: 'expirada', permitido: false, licenca: { dias_restantes: 0 } })
		expect((await ask(t, machine(none))).json.status).toBe('expirada')
		expect((await ask(t, machine(maintenance))).json).toMatchObject({ status: 'manutencao', permitido: true })
		expect((await ask(t, machine(released))).json).toMatchObject({
			status: 'liberada_confianca',
			permitido: true,
			liberacao_confianca_expira: '2026-11-21T12:00:00.000Z'
		})
		// A blocked or expired system does not register the machine.
		expect((await t.db.select({ n: count() }).from(terminals).where(eq(terminals.fk_empresa, expired.codigo)))[0]!.n).toBe(0)
	})

	it('counts days left from the date in Brazil, which turns at 03:00 UTC, also when the clock is moved back', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2026-11-22', nterminais: 5 })
		const daysLeft = async (at: string) => {
			t.clock.set(at)
			const res = await ask(t, machine(c))
			return [res.json.status, res.json.licenca?.dias_restantes]
		}
		expect(await daysLeft('2026-11-21T02:59:59.000Z')).toEqual(['ativa', 2])
		expect(await daysLeft('2026-11-21T03:00:00.000Z')).toEqual(['ativa', 1])
		expect(await daysLeft('2026-11-22T02:59:30.000Z')).toEqual(['ativa', 1])
		expect(await daysLeft('2026-11-22T03:00:00.000Z')).toEqual(['expirada', 0])
		expect(await daysLeft('2026-11-21T12:00:00.000Z')).toEqual(['ativa', 1])
	})

	it('answers each of many checks that arrive together for its own company and machine', async () => {
		// On PostgreSQL the checks that find every connection busy go to the database together, in one statement.
		const t = await testWorld()
		const active = await Promise.all(Array.from({ length: 8 }, () => t.companyVia({ validade_licenca: '2027-01-10', nterminais: 2 })))
		const expired = await t.companyVia({ validade_licenca: '2026-11-01' })
		const blocked = await t.companyVia({ validade_licenca: '2027-01-10', bloqueadopdv: 'S' })
		for (const c of active) expect((await ask(t, machine(c, 1))).json.terminal).toEqual({ registrado: true, usados: 1, permitidos: 2 })

		const asks = [
			...active.flatMap((c) => [
				{ body: machine(c, 1), cnpj: c.cnpj, status: 'ativa', registrado: true },
				{ body: machine(c, 1, { nonce: 'outra' }), cnpj: c.cnpj, status: 'ativa', registrado: true },
				{ body: machine({ cnpj: c.cnpj, serial: 'chave-errada' }, 1), cnpj: null, status: 'chave_invalida', registrado: null }
			]),
			...active.slice(0, 4).map((c) => ({ body: machine(c, 2), cnpj: c.cnpj, status: 'ativa', registrado: true })),
			{ body: machine(expired, 3), cnpj: expired.cnpj, status: 'expirada', registrado: null },
			{ body: machine(blocked, 4), cnpj: blocked.cnpj, status: 'bloqueada', registrado: null },
			{ body: machine({ cnpj: completeCnpj('777777777777'), serial: 'chave' }, 5), cnpj: null, status: 'chave_invalida', registrado: null }
		]
		const answers = await Promise.all(asks.map((a) => ask(t, a.body)))
		answers.forEach((answer, i) => {
			const expected = asks[i]
			expect(answer.status).toBe(200)
			expect(answer.json.status).toBe(expected.status as never)
			expect(answer.json.empresa?.cnpj ?? null).toBe(expected.cnpj)
			expect(answer.json.terminal?.registrado ?? null).toBe(expected.registrado)
			expect(answer.json.nonce).toBe((expected.body as { nonce?: string }).nonce ?? null)
		})
		// The second machines were registered, each once, beside the first.
		for (const [i, c] of active.entries())
			expect((await t.db.select({ n: count() }).from(terminals).where(eq(terminals.fk_empresa, c.codigo)))[0]!.n).toBe(i < 4 ? 2 : 1)
	})

	it('gives the same answer for an unknown CNPJ and a wrong key', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		const wrongKey = await ask(t, machine({ cnpj: c.cnpj, serial: 'chave-errada' }))
		const unknown = await ask(t, machine({ cnpj: completeCnpj('777777777777'), serial: 'chave-errada' }))
		expect(wrongKey.status).toBe(200)
		expect(wrongKey.json).toEqual(unknown.json)
		expect(wrongKey.json).toMatchObject({ status: 'chave_invalida', permitido: false })
		expect(JSON.stringify(wrongKey.json)).not.toContain(c.razao)
	})

	it('signs a token with Ed25519 that carries the nonce, the machine and the server time, verifiable with the published key', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2026-11-23' })
		const res = await ask(t, machine(c, 1, { nonce: 'n-123' }))
		const key = (await t.call('GET', '/api/licenca/chave-publica')).json
		expect(key).toMatchObject({ alg: 'EdDSA', crv: 'Ed25519' })
		const token = verifyToken(res.json.token!, key.pem)
		expect(token.ok).toBe(true)
		// The private half is sealed at rest: whoever holds the database (or a backup of it) cannot mint tokens.
		const stored = (await t.db.select().from(signingKeys))[0]!
		expect(stored.private_key).toStartWith('enc:v1:')
		expect(stored.private_key).not.toContain('PRIVATE KEY')
		expect(token.header).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: key.kid })
		expect(token.payload).toMatchObject({
			sub: c.cnpj,
			sistema: 'K-PDV',
			status: 'ativa',
			permitido: true,
			mac: 'AABBCC000001',
			nonce: 'n-123',
			iat: Date.parse('2026-11-20T12:00:00Z') / 1000
		})
		// Offline use lasts until the licence ends (midnight of its date in Brazil), within the 7-day grace.
		expect(token.payload.exp).toBe(Date.parse('2026-11-23T03:00:00Z') / 1000)
		expect(res.json.nonce).toBe('n-123')

		const [h, p, s] = res.json.token!.split('.')
		const forged = Buffer.from(JSON.stringify({ ...token.payload, mac: 'FFFFFFFFFFFF' })).toString('base64url')
		expect(verifyToken(`${h}.${forged}.${s}`, key.pem).ok).toBe(false)
		expect(verifyToken(`${h}.${p}.${s}`, key.pem).ok).toBe(true)
	})

	it('stops the old key at once when an administrador regenerates it', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		expect((await ask(t, machine(c))).json.status).toBe('ativa')
		const { serial } = (await t.call('POST', `/api/companies/${c.codigo}/regenerar-chave`, { cookie: t.cookies.admin })).json
		expect((await ask(t, machine(c))).json.status).toBe('chave_invalida')
		expect((await ask(t, machine({ cnpj: c.cnpj, serial }))).json.status).toBe('ativa')
	})

	it('registers at most the allowed terminals under 20 simultaneous checks from new machines', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-10', nterminais: 3 })
		const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(t, machine(c, i + 1))))
		const statuses = answers.map((a) => a.json.status)
		expect(statuses.filter((s) => s === 'ativa')).toHaveLength(3)
		expect(statuses.filter((s) => s === 'terminal_excedido')).toHaveLength(17)
		expect((await t.db.select({ n: count() }).from(terminals))[0]!.n).toBe(3)
		expect((await t.db.select({ n: companies.terminal_count }).from(companies))[0]!.n).toBe(3)
		// A registered machine keeps working; a fourth one is still refused and not registered.
		const first = answers.findIndex((a) => a.json.status === 'ativa')
		expect((await ask(t, machine(c, first + 1))).json.status).toBe('ativa')
		expect((await t.db.select({ n: count() }).from(terminals))[0]!.n).toBe(3)
	})

	it('writes last use in batches, not on every check', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		const later = await t.companyVia({ validade_licenca: '2027-01-10' })
		await ask(t, machine(c))
		const row = async () => (await t.db.select().from(companies).where(eq(companies.codigo, c.codigo)))[0]!
		expect((await row()).data_ultima_utilizacao).toBeNull()
		t.clock.advance(61_000)
		await ask(t, machine(c))
		expect(await row()).toMatchObject({ on_line: 'S', data_ultima_utilizacao: '2026-11-20', hora_ultima_utilizacao: '09:01:01' })
		// Checked again: written with the next batch, a minute after the last one.
		t.clock.advance(30_000)
		await ask(t, machine(c))
		expect((await row()).hora_ultima_utilizacao).toBe('09:01:01')
		t.clock.advance(31_000)
		await ask(t, machine(c))
		expect((await row()).hora_ultima_utilizacao).toBe('09:02:02')
		t.clock.advance(HOUR)
		await ask(t, machine(later))
		// Off line is the job's to say, from the times every instance wrote: an hour without a check.
		expect(await markCompaniesOffline(t.db, t.clock)).toBe(1)
		expect((await row()).on_line).toBe('N')
	})

	it('rate-limits per company and refuses bad input with 400', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		const other = await t.companyVia({ validade_licenca: '2027-01-10' })
		let limited = 0
		for (let i = 0; i < 125; i++) if ((await ask(t, machine(c))).status === 429) limited++
		expect(limited).toBe(5)
		expect((await ask(t, machine(other))).status).toBe(200)
		const bad = await ask(t, { cnpj: c.cnpj, chave: c.serial, sistema: 'K-NADA', mac: 'AABBCCDDEEFF' })
		expect(bad.status).toBe(400)
		expect(bad.json.message).toContain('sistema')
		expect((await ask(t, { ...machine(other), mac: '12' })).status).toBe(400)
		// Each field says what is wrong with it, in Brazilian Portuguese.
		const messages = await Promise.all([
			ask(t, { ...machine(other), chave: 'x'.repeat(201) }),
			ask(t, { ...machine(other), nome_computador: 'x'.repeat(101) }),
			ask(t, { ...machine(other), versao: 7 }),
			ask(t, { ...machine(other), mac: 'ghij-00-11-22-33-44-55' })
		])
		expect(messages.map((m) => [m.status, m.json.message])).toEqual([
			[400, 'Dados inválidos em "chave": no máximo 200 caracteres.'],
			[400, 'Dados inválidos em "nome_computador": no máximo 100 caracteres.'],
			[400, 'Dados inválidos em "versao": valor inválido: envie texto.'],
			[400, 'Endereço MAC inválido: use 12 dígitos hexadecimais (ex.: 00:1A:2B:3C:4D:5E).']
		])
	})

	it('slows down an address that keeps sending wrong keys, without locking out the right key', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		for (let i = 0; i < 30; i++) expect((await ask(t, machine({ cnpj: c.cnpj, serial: `tentativa-${i}` }))).status).toBe(200)
		const wrong = await ask(t, machine({ cnpj: c.cnpj, serial: 'mais-uma' }))
		expect(wrong.status).toBe(429)
		expect(wrong.headers.get('retry-after')).toBe('900')
		expect((await ask(t, machine(c))).json.status).toBe('ativa')
	})

	it('counts wrong keys per address: behind a trusted proxy, another address is not slowed down', async () => {
		const t = await testWorld({ config: { trustProxy: true } })
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		const from = (ip: string) => ({ 'x-forwarded-for': `10.0.0.9, ${ip}` })
		for (let i = 0; i < 30; i++) await ask(t, machine({ cnpj: c.cnpj, serial: `tentativa-${i}` }), from('203.0.113.7'))
		expect((await ask(t, machine({ cnpj: c.cnpj, serial: 'mais-uma' }), from('203.0.113.7'))).status).toBe(429)
		const elsewhere = await ask(t, machine({ cnpj: c.cnpj, serial: 'outra' }), from('198.51.100.20'))
		expect([elsewhere.status, elsewhere.json.status]).toEqual([200, 'chave_invalida'])
	})

	it('shows the company notice and the representative’s promo image', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kportal-check-'))
		const t = await testWorld({ config: { dataDir } })
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		await t.call('POST', '/api/representantes/avisos', {
			cookie: t.cookies.rep,
			body: { titulo: 'Feriado', texto: 'Suporte fechado dia 25.', empresas: [c.codigo] }
		})
		const png = TEST_IMAGES.png.toString('base64')
		await t.call('POST', '/api/representantes/promo-image', {
			cookie: t.cookies.rep,
			body: { imageBase64: `data:image/png;base64,${png}` }
		})
		const res = await ask(t, machine(c))
		expect(res.json.aviso).toEqual({ titulo: 'Feriado', texto: 'Suporte fechado dia 25.' })
		// Notice display switched on for a company without a notice: nothing to show.
		const silent = await t.companyVia({ validade_licenca: '2027-01-10' })
		expect((await t.call('PATCH', `/api/companies/${silent.codigo}`, { cookie: t.cookies.rep, body: { exibir_aviso: 'S' } })).status).toBe(
			200
		)
		expect((await ask(t, machine(silent))).json.aviso).toBeNull()
		expect(res.json.promo_url).toMatch(/^\/api\/public\/promo\/[A-Za-z0-9_-]+\.png$/)
	})
})
