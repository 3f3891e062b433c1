import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, billingWorld, carneBody, settleAsaas } from '../../apps/server/testing'
import { asaasAccount, asaasClient } from './accounts'
import { carneParcelas } from './schema'

/** Histórico's Valor Total and Admin Financeiro's Valor total count money a representative has or is owed (issue 34, point 9). */
describe('the billing totals leave out refunded payments and cancelled carnês', () => {
	it('a refunded payment leaves Histórico’s Valor Total, and a cancelled carnê’s removed parcels leave Admin Financeiro’s', async () => {
		const { w, empresa } = await billingWorld({ webhookRepeats: 1 })
		const issue = async () =>
			(
				await w.call('POST', '/api/carnes', {
					cookie: w.cookies.rep,
					body: carneBody(empresa.codigo, { valor_total: 300, numero_parcelas: 3 })
				})
			).json.carne as { id: number }
		const paymentIds = async (carneId: number) =>
			(await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carneId)))
				.sort((a, b) => a.numero - b.numero)
				.map((p) => p.asaas_payment_id)
		const kept = await issue()
		const [p1, p2] = await paymentIds(kept.id)
		w.asaas.confirm(p1)
		w.asaas.confirm(p2)
		await settleAsaas(w)
		await asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!).refundPayment(p2)
		await settleAsaas(w)

		const history = (await w.call('GET', '/api/historico-pagamentos', { cookie: w.cookies.rep })).json
		expect(history.eventos.map((e: { tipo_evento: string }) => e.tipo_evento).sort()).toEqual(['estorno', 'pagamento', 'pagamento'])
		// Two payments of R$ 100,00, one of them refunded: R$ 100,00 received.
		expect(history.resumo).toMatchObject({ pagamentos: 2, valorTotal: 100 })

		const cancelled = await issue()
		w.asaas.confirm((await paymentIds(cancelled.id))[0])
		await settleAsaas(w)
		expect((await w.call('DELETE', `/api/carnes/${cancelled.id}`, { cookie: w.cookies.rep })).status).toBe(200)
		await settleAsaas(w)
		// Kept: one paid parcel and one open (the refunded one is out); cancelled: its paid parcel only.
		expect((await w.call('GET', '/api/admin/financial-stats', { cookie: w.cookies.admin })).json).toMatchObject({
			carnesGerados: 2,
			valorTotalCarnes: 300
		})
	})
})
