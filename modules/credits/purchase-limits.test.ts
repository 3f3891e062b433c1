import { describe, expect, it } from 'bun:test'
import { CNPJ, TEST_ORIGIN, type TestWorld, testWorld } from '../../apps/server/testing'
import { HOUR, PURCHASE_LIMITS } from '../core'
import { refreshPurchase } from './purchases'

const KEY = '$aact_hmlg_000000000000000000000000000000cafe'

const configureVendor = async (w: TestWorld) => {
	const saved = await w.call('PUT', '/api/admin/asaas-vendor', {
		cookie: w.cookies.admin,
		body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
	})
	expect(saved.status).toBe(200)
}

/** A portal whose vendor account points at the stand-in; `buy` is a representante's purchase, `pay` pays one at Asaas. */
async function shop(options: { vendor?: boolean } = {}) {
	const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
	if (options.vendor !== false) await configureVendor(w)
	const buy = (quantidade: number, cookie = w.cookies.rep) =>
		w.call('POST', '/api/credits/auto-purchase', { cookie, body: { quantidade, metodoPagamento: 'PIX' } })
	const charges = () => w.asaas.accounts.get(KEY)?.payments.size ?? 0
	async function pay(chargeId: string) {
		w.asaas.confirm(chargeId)
		expect(await refreshPurchase(w.ctx, chargeId)).toBe('paga')
	}
	return { w, buy, charges, pay }
}

const L = PURCHASE_LIMITS

describe('credit self-purchases are limited (issue 33.7)', () => {
	it('an open purchase of the same quantity is answered again instead of a new charge', async () => {
		const { buy, charges, pay } = await shop()
		const first = await buy(3)
		expect(first.status).toBe(201)
		const again = await buy(3)
		expect(again.status).toBe(201)
		expect(again.json).toMatchObject({
			chargeId: first.json.chargeId,
			quantidade: 3,
			valor: 150,
			vencimento: first.json.vencimento,
			pixCopyPaste: first.json.pixCopyPaste,
			message: 'Você já tem esta compra em aberto: pague o PIX abaixo para receber os créditos.'
		})
		expect(charges()).toBe(1)
		// Another quantity is another purchase; once the first is paid, the same quantity is a new one.
		expect((await buy(4)).json.chargeId).not.toBe(first.json.chargeId)
		await pay(first.json.chargeId)
		expect((await buy(3)).json.chargeId).not.toBe(first.json.chargeId)
		expect(charges()).toBe(3)
	})

	it('a burst of thirty purchases makes at most three charges; thirty clicks on one quantity make one', async () => {
		const { w, buy, charges } = await shop()
		const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => buy(i + 1)))
		expect(burst.filter((r) => r.status === 201)).toHaveLength(L.maxOpen)
		const refused = burst.filter((r) => r.status === 429)
		expect(refused).toHaveLength(30 - L.maxOpen)
		// The purchases stay open until the end of their due day in Brazil (midnight is 03:00Z): 15 hours away.
		expect(refused[0].json.message).toBe(
			'Você já tem 3 compras em aberto (no máximo 3): pague uma delas ou aguarde o vencimento. Tente novamente em 15 horas.'
		)
		expect(refused[0].headers.get('retry-after')).toBe(String(15 * 3600))
		expect(charges()).toBe(L.maxOpen)

		// Sara clicks thirty times on one quantity: one charge, the clicks answered with it or told to wait for it.
		const clicks = await Promise.all(Array.from({ length: 30 }, () => buy(2, w.cookies.rep2)))
		expect(new Set(clicks.map((r) => r.status))).toEqual(new Set([201, 409]))
		expect(new Set(clicks.filter((r) => r.status === 201).map((r) => r.json.chargeId)).size).toBe(1)
		expect(clicks.find((r) => r.status === 409)!.json.message).toBe(
			'Uma compra igual está sendo criada: aguarde alguns segundos e tente novamente.'
		)
		expect(charges()).toBe(L.maxOpen + 1)
	})

	it(`makes at most ${L.perHour} purchases an hour and ${L.perDay} a day per representante; a refused one does not count`, async () => {
		const { w, buy, charges, pay } = await shop({ vendor: false })
		// Without the vendor's account nothing is charged, and nothing is counted either.
		for (let i = 0; i < 2 * L.perHour; i++) expect((await buy(1)).status).toBe(422)
		await configureVendor(w)
		let quantity = 0
		const buyAndPay = async (cookie = w.cookies.rep) => {
			const res = await buy(++quantity, cookie)
			expect(res.status).toBe(201)
			await pay(res.json.chargeId)
		}
		for (let i = 0; i < L.perHour; i++) await buyAndPay()
		const hourly = await buy(++quantity)
		expect(hourly.status).toBe(429)
		expect(hourly.json.message).toBe('Limite de compras de créditos atingido (no máximo 5 por hora). Tente novamente em 1 hora.')
		expect(hourly.headers.get('retry-after')).toBe('3600')
		// Sara is not held back by Rafael's purchases.
		await buyAndPay(w.cookies.rep2)

		w.clock.advance(HOUR)
		const rep = await w.login(CNPJ.rep)
		for (let i = 0; i < L.perDay - L.perHour; i++) await buyAndPay(rep)
		const daily = await buy(++quantity, rep)
		expect(daily.status).toBe(429)
		expect(daily.json.message).toBe('Limite de compras de créditos atingido (no máximo 10 por dia). Tente novamente em 23 horas.')
		expect(daily.headers.get('retry-after')).toBe(String(23 * 3600))
		expect(charges()).toBe(L.perDay + 1)
	})
})
