import { describe, expect, it } from 'bun:test'
import { CNPJ, testWorld } from '../../apps/server/testing'
import { representatives } from '../resellers'
import type { CreditListResponse, CreditSummaryResponse } from './model'
import { CREDIT_SORTS, SUMMARY_SORTS } from './reads'
import { credits } from './schema'
import { rebuildCreditBalances } from './service'

/**
 * Each column the credit lists sort by, and each field of a line, comes from its own column (issue 38, point 3): the
 * rows below put every sort in a different order, so a list that read a renamed or wrong column would not match.
 */
async function ledgerWorld() {
	const w = await testWorld()
	const tiago = CNPJ.alnum
	await w.db.insert(representatives).values({ nome: 'Tiago Rep', cnpj: tiago, data: '2026-01-01' })
	const client = await w.company(CNPJ.rep, 'Cliente Atual')
	const row = async (representante_id: string, valor: number, values: Partial<typeof credits.$inferInsert> = {}) =>
		(
			await w.db
				.insert(credits)
				.values({ representante_id, valor, data_compra: '2026-01-01', valor_unitario_centavos: 5000, ...values })
				.returning({ id: credits.id })
		)[0].id
	const transfer = (representante_id: string, valor: number, day: string, values: Partial<typeof credits.$inferInsert> = {}) =>
		row(representante_id, valor, {
			origem: 'transferencia',
			fk_empresa: client.codigo,
			sistema: 'K-PDV',
			data_compra: day,
			data_uso: day,
			...values
		})
	// Rafael: available 5 + 7, a batch used up (2 left over from before valor_original), 9 transferred.
	const rafael = [
		await row(CNPJ.rep, 5, { valor_original: 6, data_compra: '2026-03-01' }),
		await row(CNPJ.rep, 2, { data_compra: '2026-01-15', data_uso: '2026-02-01' }),
		await transfer(CNPJ.rep, 9, '2026-02-10', { empresa_razao: 'Nome Antigo', valor_unitario_centavos: 4550 }),
		await row(CNPJ.rep, 7, { data_compra: '2026-04-20' })
	]
	// Sara: 20 available, 10 switched off, 2 transferred. Tiago: 5 available, 8 switched off, 11 transferred.
	await row(CNPJ.rep2, 20)
	await row(CNPJ.rep2, 10, { ativo: 0 })
	await transfer(CNPJ.rep2, 2, '2026-02-01')
	await row(tiago, 5)
	await row(tiago, 8, { ativo: 0 })
	await transfer(tiago, 11, '2026-02-01')
	await rebuildCreditBalances(w.db)
	return { w, rafael, client }
}

describe('the credit lists name their columns through the schema (issue 38, point 3)', () => {
	it('sorts a representative’s credits by each of their columns, both ways', async () => {
		const { w, rafael } = await ledgerWorld()
		const [a, b, c, d] = rafael
		const expected: Record<(typeof CREDIT_SORTS)[number], number[]> = {
			id: [a, b, c, d],
			valor: [b, a, d, c],
			data_compra: [b, c, a, d],
			// No date of use sorts first, as SQLite sorts null; the id breaks the tie.
			data_uso: [a, d, b, c]
		}
		for (const sort of CREDIT_SORTS) {
			for (const order of ['asc', 'desc'] as const) {
				const res = await w.call('GET', `/api/credits?sort=${sort}&order=${order}`, { cookie: w.cookies.rep })
				expect(res.status).toBe(200)
				const ids = (res.json as CreditListResponse).credits.map((line) => line.id)
				expect({ sort, order, ids }).toEqual({ sort, order, ids: order === 'asc' ? expected[sort] : [...expected[sort]].reverse() })
			}
		}
	})

	it('fills every field of a line from its column', async () => {
		const { w, rafael, client } = await ledgerWorld()
		const res = await w.call('GET', '/api/credits?search=antigo', { cookie: w.cookies.rep })
		expect((res.json as CreditListResponse).credits).toEqual([
			{
				id: rafael[2],
				valor: 9,
				valor_original: 9,
				representante_id: CNPJ.rep,
				fk_empresa: client.codigo,
				sistema: 'K-PDV',
				ativo: 1,
				data_compra: '2026-02-10',
				data_uso: '2026-02-10',
				origem: 'transferencia',
				valor_unitario: 45.5,
				representante: { nome: 'Rafael Rep', cnpj: CNPJ.rep },
				// The company's name today, not the one written on the transfer.
				empresa: { razao: 'Cliente Atual' }
			}
		])
		const batch = await w.call('GET', '/api/credits?sort=id&order=asc&kind=pool', { cookie: w.cookies.rep })
		expect((batch.json as CreditListResponse).credits[0]).toMatchObject({ valor: 5, valor_original: 6, empresa: null })
		expect((batch.json as CreditListResponse).totals).toEqual({ total: 21, disponivel: 12, utilizado: 9 })
	})

	it('sorts the summary by each of its figures, both ways, from the balances', async () => {
		const { w } = await ledgerWorld()
		const expected: Record<(typeof SUMMARY_SORTS)[number], string[]> = {
			disponivel: ['Tiago Rep', 'Rafael Rep', 'Sara Rep'],
			nome: ['Rafael Rep', 'Sara Rep', 'Tiago Rep'],
			cnpj: ['Sara Rep', 'Tiago Rep', 'Rafael Rep'],
			utilizado: ['Sara Rep', 'Rafael Rep', 'Tiago Rep'],
			total: ['Rafael Rep', 'Tiago Rep', 'Sara Rep']
		}
		for (const sort of SUMMARY_SORTS) {
			for (const order of ['asc', 'desc'] as const) {
				const res = await w.call('GET', `/api/credits/summary?sort=${sort}&order=${order}`, { cookie: w.cookies.admin })
				expect(res.status).toBe(200)
				const names = (res.json as CreditSummaryResponse).representatives.map((r) => r.nome)
				expect({ sort, order, names }).toEqual({ sort, order, names: order === 'asc' ? expected[sort] : [...expected[sort]].reverse() })
			}
		}
		const all = await w.call('GET', '/api/credits/summary?sort=nome&order=asc', { cookie: w.cookies.admin })
		expect((all.json as CreditSummaryResponse).representatives).toEqual([
			{ nome: 'Rafael Rep', cnpj: CNPJ.rep, disponivel: 12, utilizado: 9, total: 21 },
			{ nome: 'Sara Rep', cnpj: CNPJ.rep2, disponivel: 20, utilizado: 2, total: 32 },
			{ nome: 'Tiago Rep', cnpj: CNPJ.alnum, disponivel: 5, utilizado: 11, total: 24 }
		])
		expect((all.json as CreditSummaryResponse).totals).toEqual({ total: 77, disponivel: 37, utilizado: 22, representantesAtivos: 3 })
	})
})
