import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { ASAAS_KEYS, CNPJ, TEST_ORIGIN, type TestWorld, billingWorld, carneBody, settleAsaas, testWorld } from '../../apps/server/testing'
import { createAsaasClient, type StandinModes } from '../asaas'
import { MINUTE } from '../core'
import { checkPendingPurchases, creditPurchases } from '../credits'
import { representatives } from '../resellers'
import { asaasAccount, asaasClient } from './accounts'
import { parcelStatusLabel } from './labels'
import { carneParcelas, carnes, historicoPagamentos } from './schema'

/**
 * The portal against Asaas' awkward realities, each played by a switch of the stand-in (StandinModes): which amount
 * field POST /installments wants, the webhook e-mail, a deleted charge's 404, and the moves back of a parcel.
 */

const KEY = ASAAS_KEYS.rep
const KEY2 = ASAAS_KEYS.rep2
const VENDOR_KEY = '$aact_hmlg_000000000000000000000000000000cafe'

/** Reality's modes, set before anything is registered, so a change of the stand-in's defaults does not move these tests. */
const REALITY: Partial<StandinModes> = { webhookRepeats: 1, deletedPayment: 'not-found', webhookEmail: 'required' }

const create = (w: TestWorld, body: Record<string, unknown>) => w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body })
const plansAt = (w: TestWorld, key = KEY) => [...(w.asaas.accounts.get(key)?.installments.values() ?? [])]
const parcelRows = async (w: TestWorld, carneId: number) =>
	(await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carneId))).sort((a, b) => a.numero - b.numero)
const carneStatus = async (w: TestWorld, carneId: number) => (await w.db.select().from(carnes).where(eq(carnes.id, carneId)))[0]?.status
/** The history lines of one payment, oldest first: [kind, ciclo]. */
const linesOf = async (w: TestWorld, paymentId: string) =>
	(await w.db.select().from(historicoPagamentos).where(eq(historicoPagamentos.boleto_id, paymentId)))
		.sort((a, b) => a.id - b.id)
		.map((e) => [e.tipo_evento, e.ciclo])
/** Rafael's account as he would use it in Asaas' own screens. */
const repClient = async (w: TestWorld) => asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!)
/** A /v3 call the portal's client does not make (undoReceivedInCash, restore), on Rafael's account. */
async function asaasPost(w: TestWorld, path: string) {
	const res = await w.asaas.handle(
		new Request(`http://asaas.test/v3${path}`, { method: 'POST', headers: { access_token: KEY, 'user-agent': 'teste' } })
	)
	expect(res.status).toBe(200)
}

describe('POST /v3/installments wants value or totalValue, by account', () => {
	for (const amount of ['value', 'totalValue', 'either'] as const) {
		it(`a carnê is created when the account wants ${amount}: its parcels and total as asked`, async () => {
			const { w, empresa } = await billingWorld({ ...REALITY, installmentAmount: amount })
			const res = await create(w, carneBody(empresa.codigo))
			expect(res.status).toBe(201)
			expect(res.json.carne).toMatchObject({ valor_total: 300, valor_parcela: 100, numero_parcelas: 3, status: 'ativo' })
			expect(plansAt(w)).toHaveLength(1)
			expect(plansAt(w)[0]).toMatchObject({ value: 300, installmentCount: 3 })
			expect((await parcelRows(w, res.json.carne.id)).map((p) => [p.numero, p.valor_centavos, p.status])).toEqual([
				[1, 10000, 'PENDING'],
				[2, 10000, 'PENDING'],
				[3, 10000, 'PENDING']
			])
		})
	}

	it('R$ 100,00 in 3 on an account that wants value is refused naming the field, leaving no carnê and no plan', async () => {
		const { w, empresa } = await billingWorld({ ...REALITY, installmentAmount: 'value' })
		const res = await create(w, carneBody(empresa.codigo, { valor_total: 100 }))
		// Asaas refused it: a 4xx of the portal's own or a 502 naming what Asaas said.
		expect(res.status === 502 || (res.status >= 400 && res.status < 500)).toBe(true)
		expect(res.json.message).toMatch(/\bvalue\b/)
		expect(res.json.message).toContain('R$ 100,00')
		expect(await w.db.select().from(carnes)).toEqual([])
		expect(await w.db.select().from(carneParcelas)).toEqual([])
		expect(plansAt(w)).toEqual([])
		expect([...(w.asaas.accounts.get(KEY)?.payments.values() ?? [])]).toEqual([])
	})
})

describe('the webhook carries an e-mail when Asaas requires one', () => {
	it('the representative’s e-mail when set, else the administrador’s', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		w.asaas.setModes({ webhookEmail: 'required' })
		await w.db.update(representatives).set({ email: 'rafael@example.com' }).where(eq(representatives.cnpj, CNPJ.rep))
		await w.db.update(representatives).set({ email: null }).where(eq(representatives.cnpj, CNPJ.rep2))
		for (const [cookie, key] of [
			[w.cookies.rep, KEY],
			[w.cookies.rep2, KEY2]
		]) {
			const saved = await w.call('PUT', '/api/representantes/asaas-config', {
				cookie,
				body: { ativar_api_asaas: 'S', asaas_api_key: key, asaas_ambiente: 'sandbox' }
			})
			expect(saved.status).toBe(200)
			expect(saved.json.message).toContain('Webhook do portal registrado no Asaas.')
		}
		const emails = (key: string) => [...(w.asaas.accounts.get(key)?.webhooks.values() ?? [])].map((h) => h.config.email)
		expect(emails(KEY)).toEqual(['rafael@example.com'])
		expect(emails(KEY2)).toEqual(['ana.admin@example.com'])
	})
})

describe('a credit purchase whose charge was deleted at Asaas (404)', () => {
	it('ends cancelled through the checker instead of being polled for ever', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		w.asaas.setModes({ ...REALITY, pixKeyRequired: false })
		const saved = await w.call('PUT', '/api/admin/asaas-vendor', {
			cookie: w.cookies.admin,
			body: { asaas_api_key: VENDOR_KEY, asaas_ambiente: 'sandbox' }
		})
		expect(saved.status).toBe(200)
		const bought = await w.call('POST', '/api/credits/auto-purchase', {
			cookie: w.cookies.rep,
			body: { quantidade: 2, metodoPagamento: 'PIX' }
		})
		expect(bought.status).toBe(201)
		const { chargeId } = bought.json
		// The webhook of the deletion never comes: only the checker can see it.
		w.asaas.pauseDeliveries()
		const vendor = createAsaasClient({ baseUrl: w.ctx.config.asaasUrls.sandbox, apiKey: VENDOR_KEY, fetch: w.ctx.gateways.asaas })
		await vendor.deletePayment(chargeId)
		const answer = await w.asaas.handle(
			new Request(`http://asaas.test/v3/payments/${chargeId}`, { headers: { access_token: VENDOR_KEY, 'user-agent': 'teste' } })
		)
		expect(answer.status).toBe(404)
		const purchase = async () => (await w.db.select().from(creditPurchases).where(eq(creditPurchases.charge_id, chargeId)))[0]!
		expect((await purchase()).status).toBe('pendente')
		w.clock.advance(10 * MINUTE)
		expect(await checkPendingPurchases(w.ctx)).toBe(1)
		expect(await purchase()).toMatchObject({ status: 'cancelada', next_check_at: null })
		expect((await w.call('GET', `/api/credits/payment-status/${chargeId}`, { cookie: w.cookies.rep })).json.status).toBe('CANCELLED')
		// Nothing is left to poll.
		w.clock.advance(60 * MINUTE)
		expect(await checkPendingPurchases(w.ctx)).toBe(0)
		w.asaas.resumeDeliveries()
	})
})

describe('a parcel moves back through webhooks, each move with its own history line', () => {
	it('received in cash then undone goes back to PENDING (pagamento_desfeito); a later payment is a second pagamento', async () => {
		const { w, empresa } = await billingWorld(REALITY)
		const { carne } = (await create(w, carneBody(empresa.codigo, { valor_total: 200, numero_parcelas: 2 }))).json
		const [first] = await parcelRows(w, carne.id)
		const id = first.asaas_payment_id
		await (await repClient(w)).receiveInCash(id, { value: 100 })
		await settleAsaas(w)
		expect((await parcelRows(w, carne.id))[0].status).toBe('RECEIVED_IN_CASH')
		expect(await linesOf(w, id)).toEqual([['pagamento', 0]])

		await asaasPost(w, `/payments/${id}/undoReceivedInCash`)
		await settleAsaas(w)
		const undone = (await parcelRows(w, carne.id))[0]
		expect(undone).toMatchObject({ status: 'PENDING', data_pagamento: null })
		expect(parcelStatusLabel(undone.status, 'carne')).toBe('Pendente')
		expect(await linesOf(w, id)).toEqual([
			['pagamento', 0],
			['pagamento_desfeito', 1]
		])

		w.asaas.confirm(id)
		await settleAsaas(w)
		expect((await parcelRows(w, carne.id))[0].status).toBe('RECEIVED')
		expect(await linesOf(w, id)).toEqual([
			['pagamento', 0],
			['pagamento_desfeito', 1],
			['pagamento', 1]
		])
		// Repeated deliveries (webhookRepeats) added nothing.
		expect(await carneStatus(w, carne.id)).toBe('ativo')
	})

	it('a chargeback then a dispute won ends Pago (disputa_vencida) and the carnê quitado once every parcel is paid', async () => {
		const { w, empresa } = await billingWorld(REALITY)
		const { carne } = (await create(w, carneBody(empresa.codigo, { valor_total: 200, numero_parcelas: 2 }))).json
		const [p1, p2] = (await parcelRows(w, carne.id)).map((p) => p.asaas_payment_id)
		w.asaas.confirm(p1)
		await settleAsaas(w)
		w.asaas.chargeback(p1)
		await settleAsaas(w)
		expect((await parcelRows(w, carne.id))[0].status).toBe('CHARGEBACK_REQUESTED')
		w.asaas.confirm(p2)
		await settleAsaas(w)
		// Parcel 1 is disputed: the carnê is not yet quitado.
		expect(await carneStatus(w, carne.id)).toBe('ativo')

		w.asaas.chargebackWon(p1)
		await settleAsaas(w)
		const won = (await parcelRows(w, carne.id))[0]
		expect(won.status).toBe('AWAITING_CHARGEBACK_REVERSAL')
		expect(parcelStatusLabel(won.status, 'carne')).toBe('Pago')
		expect((await linesOf(w, p1)).map(([kind]) => kind)).toEqual(['pagamento', 'estorno', 'disputa_vencida'])
		expect(await carneStatus(w, carne.id)).toBe('quitado')
		const listed = (await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })).json.carnes[0]
		expect(listed).toMatchObject({ status: 'quitado', parcelas_pagas: 2 })
	})

	it('a deleted parcel restored goes back to PENDING (restauracao) and its carnê is ativo again', async () => {
		const { w, empresa } = await billingWorld(REALITY)
		const { carne } = (await create(w, carneBody(empresa.codigo, { valor_total: 200, numero_parcelas: 2 }))).json
		const [p1, p2] = (await parcelRows(w, carne.id)).map((p) => p.asaas_payment_id)
		w.asaas.confirm(p1)
		await settleAsaas(w)
		// Parcel 2 removed in Asaas' screens: nothing is left open, the carnê is closed.
		await (await repClient(w)).deletePayment(p2)
		await settleAsaas(w)
		expect((await parcelRows(w, carne.id))[1].status).toBe('CANCELED')
		expect(await carneStatus(w, carne.id)).toBe('cancelado')

		await asaasPost(w, `/payments/${p2}/restore`)
		await settleAsaas(w)
		const restored = (await parcelRows(w, carne.id))[1]
		expect(restored.status).toBe('PENDING')
		expect(await linesOf(w, p2)).toEqual([
			['cancelamento', 0],
			['restauracao', 1]
		])
		expect(await carneStatus(w, carne.id)).toBe('ativo')
		expect((await parcelRows(w, carne.id))[0].status).toBe('RECEIVED')
	})
})
