import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, type TestWorld, billingWorld, carneBody, settleAsaas } from '../../apps/server/testing'
import { asaasAccount, asaasClient } from './accounts'
import { reconcileCarnes } from './sync'
import { asaasAccounts, carneParcelas } from './schema'

const parcelsOf = async (w: TestWorld, carneId: number) =>
	(await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carneId))).sort((a, b) => a.numero - b.numero)
const bell = async (w: TestWorld, cookie: string) =>
	((await w.call('GET', '/api/notifications', { cookie })).json as { title: string; message: string; type: string }[])
		.filter((n) => n.title.startsWith('Parcela'))
		.map((n) => [n.title, n.message, n.type])
const tokenOf = async (w: TestWorld) =>
	w.ctx.secrets.open((await w.db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, CNPJ.rep)))[0]!.webhook_token!)

describe('the representative is told in the top bar when Asaas changes a parcel', () => {
	it('a paid parcel notifies its representative once, however often Asaas delivers or the reconciliation reads it', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (
			await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo, { valor_total: 3750 }) })
		).json
		await settleAsaas(w)
		expect(await bell(w, w.cookies.rep)).toEqual([])
		const second = (await parcelsOf(w, carne.id))[1]
		// A boleto: CONFIRMED, then RECEIVED (two events, one payment).
		w.asaas.confirm(second.asaas_payment_id)
		await settleAsaas(w)
		const paid = [['Parcela paga', 'Parcela 2/3 de Padaria Pão Quente paga — R$ 1.250,00', 'success']]
		expect(await bell(w, w.cookies.rep)).toEqual(paid)
		// The same event delivered again, a late CONFIRMED, and the reconciliation: still one notification.
		const delivered = w.asaas.deliveries.filter((d) => d.paymentId === second.asaas_payment_id)
		expect(delivered.length).toBeGreaterThan(0)
		for (const d of delivered)
			await w.call('POST', `/api/asaas/webhook/${CNPJ.rep}`, {
				headers: { 'asaas-access-token': await tokenOf(w) },
				body: { id: d.eventId, event: d.event, dateCreated: '', payment: { id: second.asaas_payment_id } }
			})
		await w.call('POST', `/api/asaas/webhook/${CNPJ.rep}`, {
			headers: { 'asaas-access-token': await tokenOf(w) },
			body: { id: 'evt_tardio', event: 'PAYMENT_CONFIRMED', dateCreated: '', payment: { id: second.asaas_payment_id } }
		})
		await settleAsaas(w)
		await reconcileCarnes(w.ctx, { all: true })
		expect(await bell(w, w.cookies.rep)).toEqual(paid)
		// Only the carnê's representative is told.
		expect(await bell(w, w.cookies.rep2)).toEqual([])
	})

	it('parcels removed at Asaas notify once each; a carnê the representative cancels in the portal tells nobody', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo) })).json
		await settleAsaas(w)
		// Someone deletes the plan in Asaas' own screens.
		await asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!).deleteInstallmentPendingPayments(
			carne.asaas_installment_id!
		)
		await settleAsaas(w)
		await reconcileCarnes(w.ctx, { all: true })
		const removed = (n: number) => [
			'Parcela removida no Asaas',
			`Parcela ${n}/3 de Padaria Pão Quente removida no Asaas — R$ 100,00`,
			'warning'
		]
		expect((await bell(w, w.cookies.rep)).sort()).toEqual([removed(1), removed(2), removed(3)])

		const other = (await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo) })).json.carne
		await settleAsaas(w)
		expect((await w.call('DELETE', `/api/carnes/${other.id}`, { cookie: w.cookies.rep })).status).toBe(200)
		await settleAsaas(w)
		expect(await bell(w, w.cookies.rep)).toHaveLength(3)
	})
})
