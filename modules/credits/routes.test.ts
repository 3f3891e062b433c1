import { beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, testWorld, type TestWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { addDaysIso } from '../core'
import { companies } from '../companies'
import { saveSettings } from '../settings'
import { creditConsumptions, credits } from './schema'

/** A test world where the administrador has given Rafael Rep `rep` credits, then Sara Rep `rep2` (R$ 50 each). */
async function withCredits(rep: number, rep2: number) {
	const w = await testWorld()
	await w.addCreditsVia(CNPJ.rep, rep)
	await w.addCreditsVia(CNPJ.rep2, rep2)
	return w
}

const ledger = async (w: TestWorld) => await w.db.select().from(credits)
const snapshot = async (w: TestWorld) =>
	JSON.stringify({ c: await ledger(w), k: await w.db.select().from(creditConsumptions), a: await w.db.select().from(activities) })

describe('POST /api/credits (add credits)', () => {
	it('lets an administrador add a batch with its unit value and logs it', async () => {
		const w = await testWorld()
		const res = await w.call('POST', '/api/credits', {
			cookie: w.cookies.admin,
			body: { representanteId: '45.997.418/0001-53', amount: 10, unitValue: 47.5 }
		})
		expect(res.status).toBe(201)
		expect(res.json).toMatchObject({ amount: 10, unitValue: 47.5, representanteId: CNPJ.rep, disponivel: 10 })
		const [row] = await ledger(w)
		expect(row).toMatchObject({
			valor: 10,
			valor_original: 10,
			representante_id: CNPJ.rep,
			fk_empresa: null,
			ativo: 1,
			data_uso: null,
			valor_unitario_centavos: 4750,
			origem: 'admin',
			data_compra: '2026-11-20'
		})
		const [act] = await w.db.select().from(activities)
		expect(act).toMatchObject({
			event: 'credits.added',
			type: 'success',
			icon: 'Coins',
			representante_cnpj: CNPJ.rep,
			user_nome: 'Ana Admin',
			entity: 'credito',
			entity_id: String(row.id)
		})
	})

	it('refuses gerente, representante and anonymous callers, and changes nothing', async () => {
		const w = await testWorld()
		const body = { representanteId: CNPJ.rep, amount: 10, unitValue: 50 }
		const before = await snapshot(w)
		expect((await w.call('POST', '/api/credits', { cookie: w.cookies.gerente, body })).status).toBe(403)
		expect((await w.call('POST', '/api/credits', { cookie: w.cookies.rep, body })).status).toBe(403)
		expect((await w.call('POST', '/api/credits', { body })).status).toBe(401)
		expect(await snapshot(w)).toBe(before)
	})

	it('refuses bad input with 400 and the messages of the add-credits form', async () => {
		const w = await testWorld()
		const cases: [unknown, number, string][] = [
			[{ amount: 10, unitValue: 50 }, 400, 'Selecione um representante'],
			[{ representanteId: '', amount: 10, unitValue: 50 }, 400, 'Selecione um representante'],
			[{ representanteId: '11222333000182', amount: 10, unitValue: 50 }, 400, 'CNPJ inválido'],
			[{ representanteId: CNPJ.alnum, amount: 10, unitValue: 50 }, 404, 'Representante não encontrado'],
			[{ representanteId: CNPJ.rep, amount: 0, unitValue: 50 }, 400, 'maior que zero'],
			[{ representanteId: CNPJ.rep, amount: -3, unitValue: 50 }, 400, 'maior que zero'],
			[{ representanteId: CNPJ.rep, amount: 1.5, unitValue: 50 }, 400, 'inteiro'],
			[{ representanteId: CNPJ.rep, amount: '10', unitValue: 50 }, 400, 'maior que zero'],
			[{ representanteId: CNPJ.rep, amount: 100_001, unitValue: 50 }, 400, 'No máximo'],
			[{ representanteId: CNPJ.rep, amount: 10 }, 400, 'valor unitário'],
			[{ representanteId: CNPJ.rep, amount: 10, unitValue: 0 }, 400, 'valor unitário do crédito deve ser maior que zero'],
			[{ representanteId: CNPJ.rep, amount: 10, unitValue: -1 }, 400, 'maior que zero'],
			[{ representanteId: CNPJ.rep, amount: 10, unitValue: 1.234 }, 400, '2 casas decimais'],
			[{ representanteId: CNPJ.rep, amount: 10, unitValue: 10_000 }, 400, 'máximo'],
			['not json', 400, '']
		]
		for (const [body, status, message] of cases) {
			const res = await w.call('POST', '/api/credits', { cookie: w.cookies.admin, body })
			expect({ body, status: res.status }).toEqual({ body, status })
			expect(res.json?.message ?? '').toContain(message)
		}
		expect(await ledger(w)).toHaveLength(0)
	})
})

describe('GET /api/credits/available', () => {
	// Rafael Rep holds 10 credits, Sara Rep 4 (only Rafael is the gerente's). The world is only read: one for all rows.
	let w: TestWorld
	beforeAll(async () => {
		w = await withCredits(10, 4)
	})
	it.each([
		['a representante their own total', 'rep', '', 200, { total: 10 }],
		['a representante their own total, whatever CNPJ they ask for', 'rep', `?representanteCnpj=${CNPJ.rep2}`, 200, { total: 10 }],
		['another representante their own total', 'rep2', '', 200, { total: 4 }],
		['an administrador everyone’s total', 'admin', '', 200, { total: 14 }],
		['an administrador any representative’s total', 'admin', `?representanteCnpj=${CNPJ.rep2}`, 200, { total: 4 }],
		['a gerente their representatives’ total', 'gerente', '', 200, { total: 10 }],
		['a gerente their representative’s total', 'gerente', `?representanteCnpj=${CNPJ.rep}`, 200, { total: 10 }],
		['a gerente no representative out of their scope', 'gerente', `?representanteCnpj=${CNPJ.rep2}`, 404, null],
		['an administrador no invalid CNPJ', 'admin', '?representanteCnpj=123', 400, null],
		['nobody signed out', null, '', 401, null]
	] as const)('gives %s', async (_, who, query, status, json) => {
		const res = await w.call('GET', `/api/credits/available${query}`, { cookie: who ? w.cookies[who] : undefined })
		expect(res.status).toBe(status)
		if (json) expect(res.json).toEqual(json)
	})
})

/** Both representatives hold 5 credits and a company each (licence until 2026-12-01): Rafael's `razaoRep`, Sara's `razaoRep2`. */
async function bothWithCredits(razaoRep: string, razaoRep2: string) {
	const w = await withCredits(5, 5)
	const ofRep = await w.company(CNPJ.rep, razaoRep, { validade_licenca: '2026-12-01' })
	const ofRep2 = await w.company(CNPJ.rep2, razaoRep2, { validade_licenca: '2026-12-01' })
	return { w, ofRep, ofRep2 }
}

describe('POST /api/credits/transfer-to-company', () => {
	it('spends the oldest batches first, splits the last, extends the licence and logs it', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 2, 40)
		w.clock.advance(86_400_000)
		w.cookies.admin = await w.login(CNPJ.admin)
		w.cookies.rep = await w.login(CNPJ.rep)
		await w.addCreditsVia(CNPJ.rep, 5, 50)
		const c = await w.company(CNPJ.rep, 'Padaria Pão Nosso', { validade_licenca: '2026-12-01' })
		const res = await w.transferVia(w.cookies.rep, c.codigo, 3, 'K-PDV', CNPJ.rep)
		expect(res.status).toBe(200)
		expect(res.json).toMatchObject({
			creditos: 3,
			dias: 99,
			validade_anterior: '2026-12-01',
			validade_licenca: '2027-03-10',
			disponivel: 4
		})
		expect(res.json.message).toContain('3 créditos transferidos')
		expect(await w.licence(c.codigo)).toBe('2027-03-10')
		const rows = await ledger(w)
		expect(rows[0]).toMatchObject({ valor: 0, valor_original: 2, data_uso: '2026-11-21' })
		expect(rows[1]).toMatchObject({ valor: 4, valor_original: 5, data_uso: null })
		expect(rows[2]).toMatchObject({
			valor: 3,
			origem: 'transferencia',
			fk_empresa: c.codigo,
			empresa_razao: 'Padaria Pão Nosso',
			sistema: 'K-PDV',
			data_uso: '2026-11-21',
			valor_unitario_centavos: 4333
		})
		const parts = await w.db.select().from(creditConsumptions)
		expect(parts.map((p) => [p.batch_id, p.quantidade, p.valor_unitario_centavos])).toEqual([
			[rows[0].id, 2, 4000],
			[rows[1].id, 1, 5000]
		])
		const act = (await w.db.select().from(activities).where(eq(activities.entity, 'empresa')))[0]
		expect(act).toMatchObject({
			event: 'credits.transferred',
			type: 'success',
			icon: 'Coins',
			representante_cnpj: CNPJ.rep,
			entity_id: String(c.codigo)
		})
		expect(act?.title).toContain('3 créditos transferidos para Padaria Pão Nosso')
		expect((await w.call('GET', '/api/credits/available', { cookie: w.cookies.rep })).json).toEqual({ total: 4 })
	})

	it('counts from today when the company has no licence date, and uses app.valor_credito_dia', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 5)
		await saveSettings(w.db, w.clock, w.ctx.secrets, [{ chave: 'app.valor_credito_dia', valor: '30' }])
		const c = await w.company(CNPJ.rep, 'Sem Licença Ltda', { validade_licenca: null })
		const res = await w.transferVia(w.cookies.rep, c.codigo, 2, 'K-RETA')
		expect(res.status).toBe(200)
		expect(res.json).toMatchObject({ dias: 60, validade_anterior: null, validade_licenca: '2027-01-19' })
	})

	it('lets a representante transfer only to their own companies and from their own pool', async () => {
		const { w, ofRep: mine, ofRep2: other } = await bothWithCredits('Minha Ltda', 'Outra Ltda')
		const before = await snapshot(w)
		const foreign = await w.transferVia(w.cookies.rep, other.codigo, 1)
		expect(foreign.status).toBe(404)
		expect(foreign.json.message).toBe('Empresa não encontrada.')
		const otherPool = await w.transferVia(w.cookies.rep, mine.codigo, 1, 'K-PDV', CNPJ.rep2)
		expect(otherPool.status).toBe(403)
		const missing = await w.transferVia(w.cookies.rep, 99999, 1)
		expect(missing.status).toBe(404)
		expect(await snapshot(w)).toBe(before)
		expect(await w.licence(other.codigo)).toBe('2026-12-01')
	})

	it('lets a gerente transfer for their representatives only, from the company’s representative pool', async () => {
		const { w, ofRep: managed, ofRep2: unmanaged } = await bothWithCredits('Gerida Ltda', 'Não Gerida Ltda')
		const ok = await w.transferVia(w.cookies.gerente, managed.codigo, 2, 'K-CHEF', CNPJ.rep)
		expect(ok.status).toBe(200)
		expect(ok.json.disponivel).toBe(3)
		const before = await snapshot(w)
		const no = await w.transferVia(w.cookies.gerente, unmanaged.codigo, 1, 'K-CHEF')
		expect(no.status).toBe(404)
		expect(await snapshot(w)).toBe(before)
		const act = (await w.db.select().from(activities).where(eq(activities.entity, 'empresa')))[0]
		expect(act?.user_nome).toBe('Gabriel Gerente')
	})

	it('lets an administrador transfer for any representative, refusing a CNPJ that does not own the company', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep2, 5)
		const c = await w.company(CNPJ.rep2, 'Qualquer Ltda', { validade_licenca: '2026-12-01' })
		const wrong = await w.transferVia(w.cookies.admin, c.codigo, 1, 'K-ATELIE', CNPJ.rep)
		expect(wrong.status).toBe(422)
		expect(wrong.json.message).toBe('A empresa não pertence a este representante.')
		const ok = await w.transferVia(w.cookies.admin, c.codigo, 5, 'K-PRE VENDA', CNPJ.rep2)
		expect(ok.status).toBe(200)
		expect(ok.json.disponivel).toBe(0)
		expect((await w.transferVia(undefined, c.codigo, 1)).status).toBe(401)
	})

	it('refuses more than the balance with the dialog’s message, and changes nothing', async () => {
		const w = await testWorld()
		const c = await w.company(CNPJ.rep, 'Pobre Ltda', { validade_licenca: '2026-12-01' })
		const none = await w.transferVia(w.cookies.rep, c.codigo, 1)
		expect(none.status).toBe(422)
		expect(none.json.message).toContain('não possui créditos disponíveis')
		await w.addCreditsVia(CNPJ.rep, 2)
		const before = await snapshot(w)
		const over = await w.transferVia(w.cookies.rep, c.codigo, 3)
		expect(over.status).toBe(422)
		expect(over.json.message).toBe('Você possui apenas 2 créditos disponíveis.')
		expect(await snapshot(w)).toBe(before)
		expect(await w.licence(c.codigo)).toBe('2026-12-01')
	})

	it('refuses bad input with 400 and changes nothing', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 5)
		const c = await w.company(CNPJ.rep, 'Válida Ltda', { validade_licenca: '2026-12-01' })
		const before = await snapshot(w)
		const cases: [unknown, string][] = [
			[{ sistema: 'K-PDV', creditos: 1 }, 'Selecione a empresa'],
			[{ empresaCodigo: 0, sistema: 'K-PDV', creditos: 1 }, 'Selecione a empresa'],
			[{ empresaCodigo: 'abc', sistema: 'K-PDV', creditos: 1 }, 'empresa'],
			[{ empresaCodigo: c.codigo, creditos: 1 }, 'Selecione o sistema'],
			[{ empresaCodigo: c.codigo, sistema: 'K-XYZ', creditos: 1 }, 'Sistema inválido'],
			[{ empresaCodigo: c.codigo, sistema: 'K-PDV' }, 'maior que zero'],
			[{ empresaCodigo: c.codigo, sistema: 'K-PDV', creditos: 0 }, 'maior que zero'],
			[{ empresaCodigo: c.codigo, sistema: 'K-PDV', creditos: -2 }, 'maior que zero'],
			[{ empresaCodigo: c.codigo, sistema: 'K-PDV', creditos: 1.5 }, 'inteiro'],
			[{ empresaCodigo: c.codigo, sistema: 'K-PDV', creditos: 1, representanteCnpj: '123' }, 'CNPJ inválido']
		]
		for (const [body, message] of cases) {
			const res = await w.call('POST', '/api/credits/transfer-to-company', { cookie: w.cookies.rep, body })
			expect({ body, status: res.status }).toEqual({ body, status: 400 })
			expect(res.json.message.toLowerCase()).toContain(message.toLowerCase())
		}
		expect(await snapshot(w)).toBe(before)
	})

	it('never spends a credit twice: 50 concurrent transfers of 1 against a balance of 10', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 4)
		await w.addCreditsVia(CNPJ.rep, 6)
		const c = await w.company(CNPJ.rep, 'Concorrida Ltda', { validade_licenca: '2026-12-01' })
		const results = await Promise.all(
			Array.from({ length: 50 }, (_, i) => w.transferVia(i % 2 ? w.cookies.rep : w.cookies.admin, c.codigo, 1))
		)
		const statuses = results.map((r) => r.status)
		expect(statuses.filter((s) => s === 200)).toHaveLength(10)
		expect(statuses.filter((s) => s === 422)).toHaveLength(40)
		const rows = await ledger(w)
		const pool = rows.filter((r) => r.origem !== 'transferencia')
		const transfers = rows.filter((r) => r.origem === 'transferencia')
		expect(pool.every((r) => r.valor === 0 && r.data_uso !== null)).toBe(true)
		expect(transfers.reduce((s, r) => s + r.valor, 0)).toBe(10)
		const parts = await w.db.select().from(creditConsumptions)
		expect(parts.reduce((s, p) => s + p.quantidade, 0)).toBe(10)
		expect(await w.licence(c.codigo)).toBe(addDaysIso('2026-12-01', 330))
		expect((await w.call('GET', '/api/credits/available', { cookie: w.cookies.rep })).json).toEqual({ total: 0 })
	}, 30_000)
})

describe('GET /api/credits', () => {
	it('lists a representante’s own batches and transfers with names and totals', async () => {
		const w = await withCredits(10, 7)
		const c = await w.company(CNPJ.rep, 'Cliente Ltda', { validade_licenca: '2026-12-01' })
		await w.transferVia(w.cookies.rep, c.codigo, 3)
		const all = await w.call('GET', '/api/credits?page=1&limit=200', { cookie: w.cookies.rep })
		expect(all.status).toBe(200)
		expect(all.json).toMatchObject({ total: 2, totalPages: 1, totals: { total: 10, disponivel: 7, utilizado: 3 } })
		expect(all.json.credits[0]).toMatchObject({
			valor: 3,
			fk_empresa: c.codigo,
			data_uso: '2026-11-20',
			representante: { nome: 'Rafael Rep', cnpj: CNPJ.rep },
			empresa: { razao: 'Cliente Ltda' },
			sistema: 'K-PDV'
		})
		expect(all.json.credits[1]).toMatchObject({
			valor: 7,
			valor_original: 10,
			fk_empresa: null,
			ativo: 1,
			data_uso: null,
			empresa: null,
			valor_unitario: 50
		})
		const pool = await w.call('GET', '/api/credits?kind=pool', { cookie: w.cookies.rep })
		expect(pool.json.credits.map((r: { valor: number }) => r.valor)).toEqual([7])
		const transfers = await w.call('GET', '/api/credits?kind=transfer', { cookie: w.cookies.rep })
		expect(transfers.json.credits.map((r: { valor: number }) => r.valor)).toEqual([3])
	})

	it('scopes the list for gerente and administrador, pages it and refuses bad paging', async () => {
		const w = await testWorld()
		for (let i = 0; i < 3; i++) await w.addCreditsVia(CNPJ.rep, 1 + i)
		await w.addCreditsVia(CNPJ.rep2, 7)
		const ger = await w.call('GET', '/api/credits', { cookie: w.cookies.gerente })
		expect(ger.json.total).toBe(3)
		expect(ger.json.totals).toEqual({ total: 6, disponivel: 6, utilizado: 0 })
		const adm = await w.call('GET', '/api/credits?page=2&limit=3', { cookie: w.cookies.admin })
		expect(adm.json).toMatchObject({ total: 4, totalPages: 2, page: 2 })
		expect(adm.json.credits).toHaveLength(1)
		expect(adm.json.totals).toEqual({ total: 13, disponivel: 13, utilizado: 0 })
		const byName = await w.call('GET', '/api/credits?search=sara', { cookie: w.cookies.admin })
		expect(byName.json.total).toBe(1)
		expect((await w.call('GET', '/api/credits?limit=0', { cookie: w.cookies.admin })).status).toBe(400)
		expect((await w.call('GET', '/api/credits?page=x', { cookie: w.cookies.admin })).status).toBe(400)
		expect((await w.call('GET', '/api/credits?kind=other', { cookie: w.cookies.admin })).status).toBe(400)
		expect((await w.call('GET', '/api/credits')).status).toBe(401)
	})
})

describe('GET /api/credits/summary', () => {
	it('gives the administrador one line per representative, with totals, searchable by name, CNPJ or company', async () => {
		const w = await withCredits(10, 4)
		const c = await w.company(CNPJ.rep2, 'Ateliê Linha Fina', { validade_licenca: '2026-12-01' })
		await w.transferVia(w.cookies.admin, c.codigo, 4, 'K-ATELIE')
		const res = await w.call('GET', '/api/credits/summary', { cookie: w.cookies.admin })
		expect(res.status).toBe(200)
		expect(res.json.representatives).toEqual([
			{ nome: 'Rafael Rep', cnpj: CNPJ.rep, disponivel: 10, utilizado: 0, total: 10 },
			{ nome: 'Sara Rep', cnpj: CNPJ.rep2, disponivel: 0, utilizado: 4, total: 4 }
		])
		expect(res.json.totals).toEqual({ total: 14, disponivel: 10, utilizado: 4, representantesAtivos: 1 })
		expect(res.json.matched).toBe(2)
		const byCompany = await w.call('GET', '/api/credits/summary?search=linha%20fina', { cookie: w.cookies.admin })
		expect(byCompany.json.representatives.map((r: { nome: string }) => r.nome)).toEqual(['Sara Rep'])
		const byCnpj = await w.call('GET', '/api/credits/summary?search=45.997.418', { cookie: w.cookies.admin })
		expect(byCnpj.json.representatives.map((r: { nome: string }) => r.nome)).toEqual(['Rafael Rep'])
		const byName = await w.call('GET', '/api/credits/summary?search=rafa', { cookie: w.cookies.admin })
		expect(byName.json.representatives).toHaveLength(1)
		const wildcard = await w.call('GET', '/api/credits/summary?search=%25', { cookie: w.cookies.admin })
		expect(wildcard.json.representatives).toHaveLength(0)
	})

	it('scopes a gerente to their representatives and refuses representantes', async () => {
		const w = await withCredits(10, 4)
		const ger = await w.call('GET', '/api/credits/summary', { cookie: w.cookies.gerente })
		expect(ger.json.representatives.map((r: { cnpj: string }) => r.cnpj)).toEqual([CNPJ.rep])
		expect(ger.json.totals.disponivel).toBe(10)
		expect((await w.call('GET', '/api/credits/summary', { cookie: w.cookies.rep })).status).toBe(403)
		expect((await w.call('GET', '/api/credits/summary')).status).toBe(401)
		expect((await w.call('GET', '/api/credits/summary?limit=5000', { cookie: w.cookies.admin })).status).toBe(400)
	})
})

describe('ledger guards', () => {
	it('keeps a transfer’s company name after the company is deleted, and the database refuses negative credits', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 5)
		const c = await w.company(CNPJ.rep, 'Apagada Ltda', { validade_licenca: '2026-12-01' })
		await w.transferVia(w.cookies.rep, c.codigo, 2)
		await w.db.delete(companies).where(eq(companies.codigo, c.codigo))
		const list = await w.call('GET', '/api/credits?kind=transfer', { cookie: w.cookies.rep })
		expect(list.json.credits[0]).toMatchObject({ fk_empresa: null, valor: 2, empresa: { razao: 'Apagada Ltda' } })
		expect(list.json.totals).toEqual({ total: 5, disponivel: 3, utilizado: 2 })
		// A query builder is only thenable: run it inside an async function to get the promise to expect.
		const run = async (query: PromiseLike<unknown>) => await query
		await expect(run(w.db.update(credits).set({ valor: -1 }).where(eq(credits.origem, 'admin')))).rejects.toThrow()
		await expect(
			run(w.db.insert(credits).values({ valor: 0, representante_id: CNPJ.rep, origem: 'transferencia', data_compra: '2026-11-20' }))
		).rejects.toThrow()
	})
})
