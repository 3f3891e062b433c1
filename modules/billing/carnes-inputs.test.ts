import { describe, expect, it } from 'bun:test'
import { ASAAS_KEYS, billingWorld, carneBody } from '../../apps/server/testing'
import { carnes } from './schema'

const KEY = ASAAS_KEYS.rep

/** Rafael's Asaas account on, one company of his to bill, and how to issue a carnê for it. */
async function world() {
	const { w, empresa } = await billingWorld()
	const create = (fields: Record<string, unknown>) =>
		w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo, fields) })
	const plans = () => [...(w.asaas.accounts.get(KEY)?.installments.values() ?? [])]
	return { w, empresa, create, plans }
}

describe('POST /api/carnes numbers (issue 33, point 10)', () => {
	it('refuses what is not a number or a plain decimal in every numeric field, making no plan', async () => {
		const { w, create, plans, empresa } = await world()
		const hostile: unknown[] = ['1e3', [100], true, ' 300', '0x12C', '300abc', 'Infinity', '-300', '3.000,00', {}]
		// Each field is named in words, not by its key (issue 34, point 7).
		const named = {
			empresa_codigo: 'Selecione uma empresa',
			valor_total: 'Valor total inválido',
			numero_parcelas: 'Número de parcelas inválido'
		}
		for (const [field, words] of Object.entries(named))
			for (const value of hostile) {
				const res = await create({ [field]: value })
				expect({ field, value, status: res.status }).toEqual({ field, value, status: 400 })
				expect(res.json.message).toStartWith(words)
			}
		// "1e3" was a total of R$ 1.000,00 and [3] three parcels; the company code was read from ["1"] too.
		expect((await create({ valor_total: '1e3' })).json.message).toContain('Valor total inválido')
		expect((await create({ empresa_codigo: [String(empresa.codigo)] })).status).toBe(400)
		expect(plans()).toHaveLength(0)
		expect(await w.db.select().from(carnes)).toHaveLength(0)
	})

	it('takes JSON numbers and the plain decimals a form sends', async () => {
		const { create, plans } = await world()
		const fromForm = await create({ valor_total: '300,50', numero_parcelas: '3' })
		expect(fromForm.status).toBe(201)
		expect(fromForm.json.carne).toMatchObject({ valor_total: 300.5, numero_parcelas: 3 })
		expect((await create({ valor_total: '150.25', numero_parcelas: 2 })).status).toBe(201)
		expect(plans()).toHaveLength(2)
	})
})

describe('POST /api/carnes first due date (issue 33, point 11)', () => {
	it('is at most one year after today, São Paulo’s date, with the last day in the message; later makes no plan', async () => {
		// 01:00 UTC on the 21st is still the 20th in São Paulo: the last day allowed is 20/11/2027.
		const { w, empresa } = await billingWorld({}, { now: '2026-11-21T01:00:00.000Z' })
		const create = (data_primeiro_vencimento: string) =>
			w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo, { data_primeiro_vencimento }) })
		for (const date of ['9999-12-31', '2027-11-21', '2030-01-10']) {
			const res = await create(date)
			expect({ date, status: res.status }).toEqual({ date, status: 400 })
			expect(res.json.message).toBe('O primeiro vencimento deve ser em até 1 ano, até 20/11/2027.')
		}
		expect([...(w.asaas.accounts.get(KEY)?.installments.values() ?? [])]).toHaveLength(0)
		expect(await w.db.select().from(carnes)).toHaveLength(0)
		expect((await create('2026-11-19')).json.message).toBe('O primeiro vencimento não pode ser antes de hoje.')
		expect((await create('2027-11-20')).status).toBe(201)
		expect((await create('2026-11-20')).status).toBe(201)
	})
})
