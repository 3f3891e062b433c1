import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, type TestWorld, testWorld } from '../../apps/server/testing'
import { writeTransaction } from '../core/server'
import { blockForNonPayment, liftNonPaymentBlock } from './payment-block'
import { companies } from './schema'
import { licenceBadge } from './status'

const row = async (w: TestWorld, codigo: number) => (await w.db.select().from(companies).where(eq(companies.codigo, codigo)))[0]!
const flagsOf = (c: typeof companies.$inferSelect) => [
	c.bloqueado,
	c.bloqueadopdv,
	c.bloqueado_kchef,
	c.bloqueado_katelie,
	c.bloqueado_kprevenda
]
const block = (w: TestWorld, codigo: number) =>
	writeTransaction(w.db, (tx) => blockForNonPayment(tx, w.clock, codigo, 'parcela 1/3 vencida em 10/12/2026 (10 dias de atraso)'))
const lift = (w: TestWorld, codigo: number) => writeTransaction(w.db, (tx) => liftNonPaymentBlock(tx, w.clock, codigo, 'parcela 1 paga'))

describe('a block for non-payment', () => {
	it('blocks only the systems still running, once; lifts only those; leaves a company blocked by hand alone', async () => {
		const w = await testWorld()
		const a = await w.company(CNPJ.rep, 'Padaria', { bloqueadopdv: 'S' })
		expect(await block(w, a.codigo)).not.toBeNull()
		expect(await block(w, a.codigo)).toBeNull()
		const blocked = await row(w, a.codigo)
		expect(flagsOf(blocked)).toEqual(['S', 'S', 'S', 'S', 'S'])
		expect(blocked.bloqueio_inadimplencia).toBe('bloqueado,bloqueado_kchef,bloqueado_katelie,bloqueado_kprevenda')
		expect(licenceBadge(blocked, '2026-11-20', w.clock.now()).label).toBe('Bloqueada por falta de pagamento')
		expect(await lift(w, a.codigo)).not.toBeNull()
		expect(await lift(w, a.codigo)).toBeNull()
		const lifted = await row(w, a.codigo)
		expect([...flagsOf(lifted), lifted.bloqueio_inadimplencia]).toEqual(['N', 'S', 'N', 'N', 'N', null])
		expect(licenceBadge(lifted, '2026-11-20', w.clock.now()).label).not.toContain('Bloqueada')
		// Every system already blocked by hand: nothing to block, and the block stays a person's.
		const byHand = await w.company(CNPJ.rep, 'Mercado', {
			bloqueado: 'S',
			bloqueadopdv: 'S',
			bloqueado_kchef: 'S',
			bloqueado_katelie: 'S',
			bloqueado_kprevenda: 'S'
		})
		expect(await block(w, byHand.codigo)).toBeNull()
		expect((await row(w, byHand.codigo)).bloqueio_inadimplencia).toBeNull()
		expect(licenceBadge(await row(w, byHand.codigo), '2026-11-20', w.clock.now()).label).toBe('Bloqueada')
		const titles = await w.activityTitles()
		expect(titles.filter((t) => t === 'Sistemas bloqueados por falta de pagamento')).toHaveLength(1)
		expect(titles.filter((t) => t === 'Sistemas desbloqueados: pagamento em dia')).toHaveLength(1)
	})

	it('becomes a block by hand when a person sets the flags (a system, all of them in bulk, the company form): a payment lifts nothing then', async () => {
		const w = await testWorld()
		const [one, bulk, bulkOff, form, formSame] = [
			await w.companyVia({ razao: 'Um' }),
			await w.companyVia({ razao: 'Lote' }),
			await w.companyVia({ razao: 'Lote desbloqueado' }),
			await w.companyVia({ razao: 'Formulário' }),
			await w.companyVia({ razao: 'Formulário igual' })
		]
		for (const c of [one, bulk, bulkOff, form, formSame]) await block(w, c.codigo)
		// One system unblocked by hand: the rest stays blocked, as the person's.
		expect((await w.call('PATCH', `/api/companies/${one.codigo}`, { cookie: w.cookies.rep, body: { bloqueadopdv: 'N' } })).status).toBe(200)
		// Blocking in bulk a company blocked for non-payment changes it: the block is now the person's.
		const blockedInBulk = await w.call('POST', '/api/companies/bulk', {
			cookie: w.cookies.admin,
			body: { acao: 'bloquear', ids: [bulk.codigo] }
		})
		expect(blockedInBulk.json).toMatchObject({ alteradas: 1, inalteradas: 0 })
		await w.call('POST', '/api/companies/bulk', { cookie: w.cookies.admin, body: { acao: 'desbloquear', ids: [bulkOff.codigo] } })
		// The company form saved with a flag changed makes it theirs; saved with the flags as they are keeps the block.
		const put = async (c: typeof form, changes: Record<string, unknown>) => {
			const current = await row(w, c.codigo)
			const res = await w.call('PUT', `/api/companies/${c.codigo}`, {
				cookie: w.cookies.admin,
				body: {
					razao: current.razao,
					cnpj: current.cnpj,
					cnpj_representante: current.cnpj_representante,
					nterminais: current.nterminais,
					bloqueado: current.bloqueado,
					bloqueadopdv: current.bloqueadopdv,
					bloqueado_kchef: current.bloqueado_kchef,
					bloqueado_katelie: current.bloqueado_katelie,
					bloqueado_kprevenda: current.bloqueado_kprevenda,
					...changes
				}
			})
			expect(res.status).toBe(200)
		}
		await put(form, { bloqueado_kchef: 'N' })
		await put(formSame, { obs: 'Cliente avisado por telefone.' })
		for (const c of [one, bulk, bulkOff, form]) {
			expect((await row(w, c.codigo)).bloqueio_inadimplencia).toBeNull()
			expect(await lift(w, c.codigo)).toBeNull()
		}
		expect(flagsOf(await row(w, one.codigo))).toEqual(['S', 'N', 'S', 'S', 'S'])
		expect(flagsOf(await row(w, bulk.codigo))).toEqual(['S', 'S', 'S', 'S', 'S'])
		expect(flagsOf(await row(w, form.codigo))).toEqual(['S', 'S', 'N', 'S', 'S'])
		expect((await row(w, formSame.codigo)).bloqueio_inadimplencia).not.toBeNull()
		expect(await lift(w, formSame.codigo)).not.toBeNull()
	})
})
