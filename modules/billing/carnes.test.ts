import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { ASAAS_KEYS, CNPJ, type TestWorld, billingWorld, carneBody, settleAsaas, testWorld, saveGateway } from '../../apps/server/testing'
import { activities } from '../activity'
import { asaasAccount, asaasClient } from './accounts'
import type { InboxEvent } from './inbox'
import { carnePaymentHandler, reconcileCarnes } from './sync'
import { asaasAccounts, carneParcelas, carnes, historicoPagamentos } from './schema'

const KEY = ASAAS_KEYS.rep
const KEY2 = ASAAS_KEYS.rep2

const create = (w: TestWorld, body: Record<string, unknown>, cookie = w.cookies.rep) => w.call('POST', '/api/carnes', { cookie, body })
const parcels = async (w: TestWorld, id: number, cookie = w.cookies.rep) =>
	(await w.call('GET', `/api/carnes/${id}/parcelas`, { cookie })).json as { id: number; numero: number; status: string; valor: number }[]
const paymentIdOf = async (w: TestWorld, parcelId: number) =>
	(await w.db.select().from(carneParcelas).where(eq(carneParcelas.id, parcelId)))[0]!.asaas_payment_id
const history = async (w: TestWorld) => await w.db.select().from(historicoPagamentos)
const plansAt = (w: TestWorld, key = KEY) => [...(w.asaas.accounts.get(key)?.installments.values() ?? [])]

describe('a carnê’s whole life', () => {
	it('is created at Asaas, paid by webhook (one pagamento), cancelled keeping the paid parcel', async () => {
		const { w, empresa } = await billingWorld()
		const created = await create(w, carneBody(empresa.codigo))
		expect(created.status).toBe(201)
		expect(created.json.message).toBe('Carnê criado com sucesso!')
		const carne = created.json.carne
		expect(carne).toMatchObject({ valor_total: 300, valor_parcela: 100, numero_parcelas: 3, status: 'ativo', tipo_cobranca: 'BOLETO' })
		expect(carne.empresa?.razao).toBe('Padaria Pão Quente')
		// At Asaas: one customer by the company's CNPJ with its code, one plan of 3.
		const account = w.asaas.accounts.get(KEY)!
		const [customer] = [...account.customers.values()]
		expect(customer).toMatchObject({ cpfCnpj: empresa.cnpj, externalReference: String(empresa.codigo), name: 'Padaria Pão Quente' })
		expect(plansAt(w)).toHaveLength(1)
		expect(carne.asaas_installment_id).toBe(plansAt(w)[0].id)

		let list = await parcels(w, carne.id)
		expect(list.map((p) => [p.numero, p.valor, p.status])).toEqual([
			[1, 100, 'PENDING'],
			[2, 100, 'PENDING'],
			[3, 100, 'PENDING']
		])
		const stored = await w.db.select().from(carneParcelas)
		expect(stored[0].linha_digitavel).toMatch(/^\d{47}$/)
		expect(stored[0].pix_copia_cola).toStartWith('000201')
		expect(stored[0].boleto_url).toContain('/b/pdf/')

		// The client pays parcel 1 (a boleto: CONFIRMED, then RECEIVED).
		w.asaas.confirm(await paymentIdOf(w, list[0].id))
		await settleAsaas(w)
		list = await parcels(w, carne.id)
		expect(list[0].status).toBe('RECEIVED')
		expect((await history(w)).map((e) => [e.tipo_evento, e.valor_centavos, e.boleto_id])).toEqual([
			['pagamento', 10000, await paymentIdOf(w, list[0].id)]
		])
		const events = await w.call('GET', '/api/historico-pagamentos', { cookie: w.cookies.rep })
		expect(events.json.resumo).toEqual({ total: 1, pagamentos: 1, cancelamentos: 0, valorTotal: 100 })
		expect(events.json.eventos[0]).toMatchObject({ tipo_evento: 'pagamento', valor: 100, empresa: { razao: 'Padaria Pão Quente' } })

		const cancelled = await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })
		expect(cancelled.json).toEqual({ message: 'Carnê cancelado com sucesso!' })
		await settleAsaas(w)
		const atAsaas = [...account.payments.values()].sort((a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0))
		expect(atAsaas.map((p) => [p.installmentNumber, p.status, p.deleted])).toEqual([
			[1, 'RECEIVED', false],
			[2, 'PENDING', true],
			[3, 'PENDING', true]
		])
		expect((await parcels(w, carne.id)).map((p) => p.status)).toEqual(['RECEIVED', 'CANCELED', 'CANCELED'])
		expect((await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })).json.carnes[0]).toMatchObject({
			status: 'cancelado',
			parcelas_pagas: 1
		})
		expect((await history(w)).map((e) => e.tipo_evento)).toEqual(['pagamento', 'cancelamento', 'cancelamento'])
		// Cancelling twice is refused.
		expect((await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })).status).toBe(422)
		const log = (await w.db.select().from(activities)).map((a) => a.event)
		expect(log).toContain('billing.carne-created')
		expect(log).toContain('billing.carne-cancelled')
		// Admin Financeiro counts it, and of its value only the paid parcel (issue 34, point 9).
		expect((await w.call('GET', '/api/admin/financial-stats', { cookie: w.cookies.admin })).json).toMatchObject({
			carnesGerados: 1,
			valorTotalCarnes: 100
		})
	})

	it('becomes quitado when every parcel is paid', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo, { numero_parcelas: 2, valor_total: 20.01, tipo_cobranca: 'PIX' }))).json
		const list = await parcels(w, carne.id)
		expect(list.map((p) => p.valor)).toEqual([10, 10.01])
		for (const p of list) w.asaas.confirm(await paymentIdOf(w, p.id))
		await settleAsaas(w)
		expect((await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })).json.carnes[0].status).toBe('quitado')
	})
})

describe('issuing a carnê', () => {
	it('refuses every invalid field with a pt-BR message, sending nothing to Asaas', async () => {
		const { w, empresa } = await billingWorld()
		const cases: [Record<string, unknown>, RegExp][] = [
			[{ numero_parcelas: 1 }, /Mínimo de 2 parcelas/],
			[{ numero_parcelas: 13 }, /Máximo de 12 parcelas/],
			[{ numero_parcelas: '' }, /Número de parcelas é obrigatório/],
			[{ data_primeiro_vencimento: '2026-11-19' }, /não pode ser antes de hoje/],
			[{ data_primeiro_vencimento: '' }, /Data é obrigatória/],
			[{ data_primeiro_vencimento: '10/12/2026' }, /AAAA-MM-DD/],
			[{ valor_total: 0 }, /maior que zero/],
			[{ valor_total: 100.001 }, /2 casas decimais/],
			[{ valor_total: 9.99, numero_parcelas: 2 }, /pelo menos R\$ 5,00 \(mínimo do Asaas\)/],
			[{ tipo_cobranca: 'DINHEIRO' }, /Boleto, PIX ou Cartão/],
			[{ empresa_codigo: 0 }, /Selecione uma empresa/]
		]
		for (const [fields, message] of cases) {
			const res = await create(w, carneBody(empresa.codigo, fields))
			expect([res.status, res.json.message]).toEqual([400, expect.stringMatching(message)])
		}
		// Today (Brazil time) is allowed; R$ 10,00 in 2 is exactly the minimum.
		expect(
			(await create(w, carneBody(empresa.codigo, { data_primeiro_vencimento: '2026-11-20', valor_total: 10, numero_parcelas: 2 }))).status
		).toBe(201)
		expect(plansAt(w)).toHaveLength(1)
	})

	it('answers 422 when the representative’s integration is off or has no key, and sends nothing', async () => {
		const w = await testWorld()
		const empresa = await w.company(CNPJ.rep, 'Sem Asaas')
		const res = await create(w, carneBody(empresa.codigo))
		expect(res.status).toBe(422)
		expect(res.json.message).toContain('integração com o Asaas do representante Rafael Rep está desativada ou sem chave')
		await w.call('PUT', '/api/representantes/asaas-config', {
			cookie: w.cookies.rep,
			body: { ativar_api_asaas: 'N', asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
		})
		expect((await create(w, carneBody(empresa.codigo))).status).toBe(422)
		expect(w.asaas.accounts.size).toBe(0)
	})

	it('sends each role to the page it can open to switch the integration on', async () => {
		const w = await testWorld()
		const empresa = await w.company(CNPJ.rep, 'Sem Asaas')
		const messageFor = async (cookie: string) => {
			const res = await create(w, carneBody(empresa.codigo), cookie)
			expect(res.status).toBe(422)
			return res.json.message as string
		}
		const admin = await messageFor(w.cookies.admin)
		expect(admin).toContain('Admin Financeiro')
		expect(admin).not.toContain('Configurações Financeiras')
		expect(await messageFor(w.cookies.rep)).toContain('informe a chave em Configurações Financeiras')
		const gerente = await messageFor(w.cookies.gerente)
		expect(gerente).toContain('peça a Rafael Rep')
		expect(gerente).not.toContain('Admin Financeiro')
		expect(await w.db.select().from(carnes)).toHaveLength(0)
	})

	it('does not make a second plan when Asaas created it but the answer was lost', async () => {
		const { w, empresa } = await billingWorld()
		w.asaas.failNext({ method: 'POST', path: '/installments', mode: 'drop-after-apply' })
		const res = await create(w, carneBody(empresa.codigo))
		expect(res.status).toBe(201)
		expect(plansAt(w)).toHaveLength(1)
		expect(res.json.carne.asaas_installment_id).toBe(plansAt(w)[0].id)
		expect(await w.db.select().from(carneParcelas)).toHaveLength(3)
	})

	it('reuses the company’s Asaas customer found by CNPJ', async () => {
		const { w, empresa } = await billingWorld()
		await create(w, carneBody(empresa.codigo))
		await create(w, carneBody(empresa.codigo))
		expect(w.asaas.accounts.get(KEY)!.customers.size).toBe(1)
		expect(plansAt(w)).toHaveLength(2)
	})
})

describe('the carnês list', () => {
	it('is paged in SQL, newest first, with the whole scope counted', async () => {
		const { w, empresa } = await billingWorld()
		for (let i = 0; i < 3; i++) expect((await create(w, carneBody(empresa.codigo))).status).toBe(201)
		const get = async (q: string) => (await w.call('GET', `/api/carnes?${q}`, { cookie: w.cookies.rep })).json
		const ids = (await w.db.select().from(carnes)).map((c) => c.id).sort((a, b) => b - a)
		const first = await get('limit=2')
		expect(first.carnes.map((c: { id: number }) => c.id)).toEqual(ids.slice(0, 2))
		expect(first.pagination).toMatchObject({ page: 1, limit: 2, total: 3, hasNext: true })
		const second = await get('limit=2&page=2')
		expect(second.carnes.map((c: { id: number }) => c.id)).toEqual(ids.slice(2))
		expect(second.pagination).toMatchObject({ page: 2, total: 3, hasNext: false })
		expect((await get('')).pagination).toMatchObject({ limit: 20, total: 3 })
		expect((await w.call('GET', '/api/carnes?limit=5000', { cookie: w.cookies.rep })).status).toBe(400)
		expect((await w.call('GET', '/api/carnes', { cookie: w.cookies.rep2 })).json.pagination.total).toBe(0)
	})

	it('is searched and filtered by company and status, and names each carnê’s representative (issue 34, point 16)', async () => {
		const { w, empresa } = await billingWorld()
		const outra = await w.company(CNPJ.rep, 'Mercado Boa Vista')
		const sara = await w.company(CNPJ.rep2, 'Loja da Sara')
		const padaria = (await create(w, carneBody(empresa.codigo))).json.carne
		const mercado = (await create(w, carneBody(outra.codigo, { descricao: 'Aluguel do sistema' }))).json.carne
		const loja = (await create(w, carneBody(sara.codigo), w.cookies.admin)).json.carne
		expect((await w.call('DELETE', `/api/carnes/${padaria.id}`, { cookie: w.cookies.rep })).status).toBe(200)
		const ids = async (q: string, cookie = w.cookies.admin) => {
			const res = await w.call('GET', `/api/carnes?${q}`, { cookie })
			expect(res.status).toBe(200)
			expect(res.json.pagination.total).toBe(res.json.carnes.length)
			return (res.json.carnes as { id: number }[]).map((c) => c.id)
		}
		expect(await ids('search=padaria')).toEqual([padaria.id])
		expect(await ids(`search=${outra.cnpj}`)).toEqual([mercado.id])
		expect(await ids('search=aluguel')).toEqual([mercado.id])
		expect(await ids(`search=${loja.asaas_installment_id}`)).toEqual([loja.id])
		expect(await ids('search=Sara Rep')).toEqual([loja.id])
		expect(await ids('search=nada disso')).toEqual([])
		expect(await ids('status=cancelado')).toEqual([padaria.id])
		expect(await ids('status=ativo')).toEqual([loja.id, mercado.id])
		expect(await ids('status=todos')).toEqual([loja.id, mercado.id, padaria.id])
		expect(await ids(`empresa=${outra.codigo}`)).toEqual([mercado.id])
		expect(await ids(`empresa=${outra.codigo}&status=cancelado`)).toEqual([])
		// The representative's scope holds under the search: Rafael finds nothing of Sara's.
		expect(await ids('search=sara', w.cookies.rep)).toEqual([])
		expect(await ids(`empresa=${sara.codigo}`, w.cookies.gerente)).toEqual([])

		const bad = await w.call('GET', '/api/carnes?status=pago', { cookie: w.cookies.admin })
		expect(bad.status).toBe(400)
		expect(bad.json.message).toContain('Status inválido: escolha Em criação, Ativo, Quitado ou Cancelado.')
		expect((await w.call('GET', '/api/carnes?empresa=abc', { cookie: w.cookies.admin })).status).toBe(400)

		const listed = (await w.call('GET', '/api/carnes', { cookie: w.cookies.admin })).json.carnes as {
			id: number
			representante: { cnpj: string; nome: string } | null
		}[]
		expect(listed.map((c) => [c.id, c.representante])).toEqual([
			[loja.id, { cnpj: CNPJ.rep2, nome: 'Sara Rep' }],
			[mercado.id, { cnpj: CNPJ.rep, nome: 'Rafael Rep' }],
			[padaria.id, { cnpj: CNPJ.rep, nome: 'Rafael Rep' }]
		])
	})
})

describe('who sees and acts on carnês', () => {
	it('a representative only their own (another’s is a 404), a gerente their representatives’, an administrador all', async () => {
		const { w, empresa } = await billingWorld()
		const other = await w.company(CNPJ.rep2, 'Loja da Sara')
		const mine = (await create(w, carneBody(empresa.codigo))).json.carne
		// The administrador issues for Sara's company, through Sara's account.
		const hers = (await create(w, carneBody(other.codigo), w.cookies.admin)).json.carne
		expect(plansAt(w, KEY2).map((p) => p.id)).toEqual([hers.asaas_installment_id!])
		const ids = async (cookie: string) =>
			((await w.call('GET', '/api/carnes', { cookie })).json.carnes as { id: number }[]).map((c) => c.id).sort()
		expect(await ids(w.cookies.rep)).toEqual([mine.id])
		expect(await ids(w.cookies.rep2)).toEqual([hers.id])
		expect(await ids(w.cookies.gerente)).toEqual([mine.id])
		expect(await ids(w.cookies.admin)).toEqual([mine.id, hers.id].sort())

		const herParcel = (await parcels(w, hers.id, w.cookies.rep2))[0].id
		for (const cookie of [w.cookies.rep, w.cookies.gerente]) {
			expect((await w.call('GET', `/api/carnes/${hers.id}/parcelas`, { cookie })).status).toBe(404)
			expect((await w.call('DELETE', `/api/carnes/${hers.id}`, { cookie })).status).toBe(404)
			expect((await w.call('GET', `/api/carnes/${hers.id}/download-completo`, { cookie })).status).toBe(404)
			expect((await w.call('POST', `/api/carnes/${hers.id}/enviar-whatsapp`, { cookie, body: { telefone: '5585999990001' } })).status).toBe(
				404
			)
			expect((await w.call('DELETE', `/api/carnes/pagamentos/${herParcel}`, { cookie })).status).toBe(404)
			expect(
				(await w.call('POST', `/api/carnes/pagamentos/${herParcel}/whatsapp`, { cookie, body: { phone: '5585999990001' } })).status
			).toBe(404)
			expect((await create(w, carneBody(other.codigo), cookie)).status).toBe(404)
		}
		const monitor = async (cookie: string) => (await w.call('GET', '/api/carnes/pagamentos', { cookie })).json
		expect((await monitor(w.cookies.rep)).resumo.total).toBe(3)
		expect((await monitor(w.cookies.admin)).resumo.total).toBe(6)
		expect((await monitor(w.cookies.rep2)).parcelas.every((p: { empresa: { razao: string } }) => p.empresa.razao === 'Loja da Sara')).toBe(
			true
		)
		expect((await w.call('GET', '/api/carnes')).status).toBe(401)
	})
})

describe('the webhook keeps parcels in step', () => {
	const tokenOf = async (w: TestWorld) =>
		w.ctx.secrets.open((await w.db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, CNPJ.rep)))[0]!.webhook_token!)
	const deliver = (w: TestWorld, token: string, body: unknown) =>
		w.call('POST', `/api/asaas/webhook/${CNPJ.rep}`, { headers: { 'asaas-access-token': token }, body })

	it('believes only what Asaas answers: forged, repeated, late and out-of-order events change nothing', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo))).json
		await settleAsaas(w)
		const [first] = await parcels(w, carne.id)
		const paymentId = await paymentIdOf(w, first.id)
		const payment = w.asaas.accounts.get(KEY)!.payments.get(paymentId)!
		const claim = {
			id: 'evt_forjado_1',
			event: 'PAYMENT_RECEIVED',
			dateCreated: '2026-11-20 09:00:00',
			payment: { ...payment, status: 'RECEIVED' }
		}
		// Wrong token: refused, nothing stored.
		expect((await deliver(w, 'token-errado-token-errado-token-errado', claim)).status).toBe(401)
		// Right token but Asaas says PENDING: nothing changes.
		expect((await deliver(w, await tokenOf(w), claim)).status).toBe(200)
		await settleAsaas(w)
		expect((await parcels(w, carne.id))[0].status).toBe('PENDING')
		expect(await history(w)).toEqual([])

		w.asaas.confirm(paymentId)
		await settleAsaas(w)
		expect((await parcels(w, carne.id))[0].status).toBe('RECEIVED')
		// The same event again, and a late PAYMENT_CREATED and CONFIRMED: still paid, still one pagamento.
		const delivered = w.asaas.deliveries.filter((d) => d.paymentId === paymentId && d.event === 'PAYMENT_RECEIVED')[0]
		await deliver(w, await tokenOf(w), { id: delivered.eventId, event: 'PAYMENT_RECEIVED', dateCreated: '', payment: { id: paymentId } })
		await deliver(w, await tokenOf(w), { id: 'evt_tardio_created', event: 'PAYMENT_CREATED', dateCreated: '', payment: { id: paymentId } })
		await deliver(w, await tokenOf(w), {
			id: 'evt_tardio_confirmed',
			event: 'PAYMENT_CONFIRMED',
			dateCreated: '',
			payment: { id: paymentId }
		})
		await settleAsaas(w)
		expect((await parcels(w, carne.id))[0].status).toBe('RECEIVED')
		expect((await history(w)).map((e) => e.tipo_evento)).toEqual(['pagamento'])
		// Even when a read answers an older state (a lagging replica, a stale list), a paid parcel is not reopened.
		payment.status = 'PENDING'
		await deliver(w, await tokenOf(w), { id: 'evt_leitura_antiga', event: 'PAYMENT_UPDATED', dateCreated: '', payment: { id: paymentId } })
		await settleAsaas(w)
		expect((await parcels(w, carne.id))[0].status).toBe('RECEIVED')
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ corrigidas: 0 })
		expect((await parcels(w, carne.id))[0].status).toBe('RECEIVED')
	})

	it('records overdue as vencimento and a chargeback as estorno', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo))).json
		const [p1, p2] = await parcels(w, carne.id)
		w.asaas.overdue(await paymentIdOf(w, p1.id))
		w.asaas.confirm(await paymentIdOf(w, p2.id))
		await settleAsaas(w)
		w.asaas.chargeback(await paymentIdOf(w, p2.id))
		await settleAsaas(w)
		const list = await parcels(w, carne.id)
		expect(list.slice(0, 2).map((p) => p.status)).toEqual(['OVERDUE', 'CHARGEBACK_REQUESTED'])
		expect((await history(w)).map((e) => e.tipo_evento).sort()).toEqual(['estorno', 'pagamento', 'vencimento'])
		const estornos = await w.call('GET', '/api/historico-pagamentos?tipo=estorno', { cookie: w.cookies.rep })
		expect(estornos.json.eventos).toHaveLength(1)
	})

	it('the reconciliation repairs a parcel paid while webhooks were down, and the late webhook adds nothing', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo))).json
		await settleAsaas(w)
		w.asaas.pauseDeliveries()
		const [, second] = await parcels(w, carne.id)
		w.asaas.confirm(await paymentIdOf(w, second.id))
		expect((await parcels(w, carne.id))[1].status).toBe('PENDING')
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 1, corrigidas: 1 })
		expect((await parcels(w, carne.id))[1].status).toBe('RECEIVED')
		w.asaas.resumeDeliveries()
		await settleAsaas(w)
		expect((await history(w)).map((e) => e.tipo_evento)).toEqual(['pagamento'])
		// The Sincronizar button: nothing left to fix.
		const sync = await w.call('POST', '/api/carnes/sincronizar', { cookie: w.cookies.rep })
		expect(sync.json).toMatchObject({ verificadas: 1, corrigidas: 0 })
	})

	it('a plan deleted at Asaas while webhooks were down: the reconciliation cancels its open parcels and the carnê, once', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo))).json
		const [p1] = await parcels(w, carne.id)
		w.asaas.confirm(await paymentIdOf(w, p1.id))
		await settleAsaas(w)
		w.asaas.pauseDeliveries()
		// Someone deletes the plan in Asaas' own screens: its open parcels go, the paid one stays.
		const removed = await asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!).deleteInstallmentPendingPayments(
			carne.asaas_installment_id!
		)
		expect(removed.deletedPayments).toHaveLength(2)
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 1, corrigidas: 2 })
		const snapshot = async () => ({
			parcels: (await parcels(w, carne.id)).map((p) => p.status),
			carne: (await w.db.select().from(carnes).where(eq(carnes.id, carne.id)))[0]!.status,
			history: (await history(w)).map((e) => [e.tipo_evento, e.boleto_id]),
			log: (await w.db.select().from(activities))
				.filter((a) => a.event === 'billing.carne-closed-at-asaas')
				.map((a) => [a.entity_id, a.subtitle])
		})
		const after = await snapshot()
		expect(after.parcels).toEqual(['RECEIVED', 'CANCELED', 'CANCELED'])
		expect(after.carne).toBe('cancelado')
		expect(after.history).toEqual([
			['pagamento', await paymentIdOf(w, p1.id)],
			...removed.deletedPayments.map((p) => ['cancelamento', p.id])
		])
		expect(after.log).toHaveLength(1)
		expect(after.log[0][0]).toBe(String(carne.id))
		expect(after.log[0][1]).toContain('2 parcelas canceladas')
		// Twice: nothing changes; the late webhooks add nothing either.
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 0, corrigidas: 0 })
		w.asaas.resumeDeliveries()
		await settleAsaas(w)
		expect(await snapshot()).toEqual(after)
	})

	it('a plan Asaas no longer knows (404) cancels every open parcel; a webhook deleting the last open parcel closes the carnê', async () => {
		const { w, empresa } = await billingWorld()
		const gone = (await create(w, carneBody(empresa.codigo))).json.carne
		const other = (await create(w, carneBody(empresa.codigo, { numero_parcelas: 2 }))).json.carne
		await settleAsaas(w)
		// The plan and its parcels gone from the account (deleted in Asaas' screens): the plan's list comes back empty.
		const account = w.asaas.accounts.get(KEY)!
		account.installments.delete(gone.asaas_installment_id!)
		for (const p of [...account.payments.values()]) if (p.installment === gone.asaas_installment_id) account.payments.delete(p.id)
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 2, corrigidas: 3 })
		expect((await parcels(w, gone.id)).map((p) => p.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED'])
		expect((await w.db.select().from(carnes).where(eq(carnes.id, gone.id)))[0]!.status).toBe('cancelado')
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 1, corrigidas: 0 })

		// The other plan: parcel 1 paid, parcel 2 deleted at Asaas; its webhook leaves nothing open, the carnê is closed.
		const [o1, o2] = await parcels(w, other.id)
		w.asaas.confirm(await paymentIdOf(w, o1.id))
		await settleAsaas(w)
		await asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!).deletePayment(await paymentIdOf(w, o2.id))
		await settleAsaas(w)
		expect((await parcels(w, other.id)).map((p) => p.status)).toEqual(['RECEIVED', 'CANCELED'])
		expect((await w.db.select().from(carnes).where(eq(carnes.id, other.id)))[0]!.status).toBe('cancelado')
		expect((await history(w)).filter((e) => e.carne_id === other.id).map((e) => e.tipo_evento)).toEqual(['pagamento', 'cancelamento'])
		expect((await w.db.select().from(activities)).filter((a) => a.event === 'billing.carne-closed-at-asaas')).toHaveLength(2)
	})

	it('a carnê closed at Asaas is only ever cancelado: a fully paid one was quitado before any deletion is read', async () => {
		const { w, empresa } = await billingWorld()
		const at = async (id: number) => (await w.db.select().from(carnes).where(eq(carnes.id, id)))[0]!.status
		const closedAtAsaas = async () =>
			(await w.db.select().from(activities)).filter((a) => a.event === 'billing.carne-closed-at-asaas').map((a) => [a.entity_id, a.title])
		const standinPayment = async (parcelId: number) => w.asaas.accounts.get(KEY)!.payments.get(await paymentIdOf(w, parcelId))!

		// The last open parcel is paid and deleted at Asaas while webhooks are down; its late webhook reads it back deleted.
		const last = (await create(w, carneBody(empresa.codigo, { tipo_cobranca: 'PIX' }))).json.carne
		const [l1, l2, l3] = await parcels(w, last.id)
		w.asaas.confirm(await paymentIdOf(w, l1.id))
		w.asaas.confirm(await paymentIdOf(w, l2.id))
		await settleAsaas(w)
		w.asaas.pauseDeliveries()
		w.asaas.confirm(await paymentIdOf(w, l3.id))
		const deleted = await standinPayment(l3.id)
		deleted.deleted = true
		w.asaas.resumeDeliveries()
		await settleAsaas(w)
		expect((await parcels(w, last.id)).map((p) => p.status)).toEqual(['RECEIVED', 'RECEIVED', 'CANCELED'])
		expect(await at(last.id)).toBe('cancelado')
		expect(await closedAtAsaas()).toEqual([[String(last.id), 'Carnê cancelado no Asaas']])

		// The reconciliation reads parcel 2 paid and parcel 3 paid but gone from the plan, in one pass: cancelado.
		const mixed = (await create(w, carneBody(empresa.codigo, { tipo_cobranca: 'PIX' }))).json.carne
		const [m1, m2, m3] = await parcels(w, mixed.id)
		w.asaas.confirm(await paymentIdOf(w, m1.id))
		await settleAsaas(w)
		w.asaas.pauseDeliveries()
		w.asaas.confirm(await paymentIdOf(w, m2.id))
		w.asaas.confirm(await paymentIdOf(w, m3.id))
		const removed = await standinPayment(m3.id)
		removed.deleted = true
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 1, corrigidas: 2 })
		expect((await parcels(w, mixed.id)).map((p) => p.status)).toEqual(['RECEIVED', 'RECEIVED', 'CANCELED'])
		expect(await at(mixed.id)).toBe('cancelado')
		expect(await closedAtAsaas()).toHaveLength(2)
		w.asaas.resumeDeliveries()
		await settleAsaas(w)

		// Every parcel paid: the payment itself settles the carnê as quitado; a paid parcel read back as deleted
		// afterwards (Asaas removes only open charges) stays paid, the carnê quitado, and no closing is logged.
		const paid = (await create(w, carneBody(empresa.codigo, { tipo_cobranca: 'PIX' }))).json.carne
		const all = await parcels(w, paid.id)
		for (const p of all) w.asaas.confirm(await paymentIdOf(w, p.id))
		await settleAsaas(w)
		expect(await at(paid.id)).toBe('quitado')
		const afterwards = await standinPayment(all[0].id)
		afterwards.deleted = true
		await carnePaymentHandler(w.ctx).handle({
			id: 0,
			eventId: 'evt_deleted_after_paid',
			account: CNPJ.rep,
			event: 'PAYMENT_DELETED',
			paymentId: await paymentIdOf(w, all[0].id),
			payload: {} as InboxEvent['payload']
		})
		expect((await parcels(w, paid.id)).map((p) => p.status)).toEqual(['RECEIVED', 'RECEIVED', 'RECEIVED'])
		expect(await at(paid.id)).toBe('quitado')
		expect(await closedAtAsaas()).toHaveLength(2)
	})

	it('the reconciliation backs off an account that answers 429', async () => {
		const { w, empresa } = await billingWorld()
		await create(w, carneBody(empresa.codigo))
		await create(w, carneBody(empresa.codigo))
		w.asaas.failNext({ method: 'GET', path: '/payments', mode: 'rate-limit', resetSeconds: 3600 })
		expect(await reconcileCarnes(w.ctx, { all: true })).toMatchObject({ verificadas: 0, corrigidas: 0 })
		expect(w.logs.map((l) => l.event)).toContain('billing.reconcile_rate_limited')
	})
})

describe('the carnê and its parcels outside the portal', () => {
	it('streams the paymentBook PDF and sends it as a WhatsApp document; a parcel goes with its codes', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo))).json
		const pdf = await w.call('GET', `/api/carnes/${carne.id}/download-completo`, { cookie: w.cookies.rep })
		expect(pdf.status).toBe(200)
		expect(pdf.headers.get('content-type')).toBe('application/pdf')
		expect(pdf.text).toStartWith('%PDF')

		const unconfigured = await w.call('POST', `/api/carnes/${carne.id}/enviar-whatsapp`, {
			cookie: w.cookies.rep,
			body: { telefone: '5585999990001' }
		})
		expect(unconfigured.status).toBe(422)
		await saveGateway(w)
		const badPhone = await w.call('POST', `/api/carnes/${carne.id}/enviar-whatsapp`, { cookie: w.cookies.rep, body: { telefone: '85999' } })
		expect(badPhone.status).toBe(400)
		expect(badPhone.json.message).toContain('Telefone inválido: informe DDD e número')
		const sent = await w.call('POST', `/api/carnes/${carne.id}/enviar-whatsapp`, {
			cookie: w.cookies.rep,
			body: { telefone: '5585999990001' }
		})
		expect(sent.json).toEqual({ message: 'Carnê enviado via WhatsApp com sucesso!' })
		expect(w.evolution.sent[0]).toMatchObject({
			type: 'document',
			number: '5585999990001',
			mimetype: 'application/pdf',
			fileName: `Carnê nº ${carne.id}.pdf`
		})
		expect(w.evolution.sent[0].caption).toContain('3 parcelas de R$ 100,00')

		const [first] = await parcels(w, carne.id)
		const stored = (await w.db.select().from(carneParcelas).where(eq(carneParcelas.id, first.id)))[0]!
		const one = await w.call('POST', `/api/carnes/pagamentos/${first.id}/whatsapp`, {
			cookie: w.cookies.rep,
			body: { phone: '5585999990001' }
		})
		expect(one.json).toEqual({ message: 'Carnê enviado via WhatsApp com sucesso' })
		const text = w.evolution.sent[1].text!
		expect(text).toContain('Valor: R$ 100,00')
		expect(text).toContain('Vencimento: 10/12/2026')
		expect(text).toContain(`Linha digitável: ${stored.linha_digitavel}`)
		expect(text).toContain(`PIX copia e cola: ${stored.pix_copia_cola}`)
		expect(text).toContain(`Boleto: ${stored.boleto_url}`)
		// Each part is what Asaas answers for the payment: the digitable line is its identificationField.
		const asaas = asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!)
		const { identificationField } = await asaas.getIdentificationField(stored.asaas_payment_id)
		const { payload } = await asaas.getPixQrCode(stored.asaas_payment_id)
		expect(text.split('\n')).toEqual([
			`Olá, Padaria Pão Quente! Segue a parcela 1/3 do seu Carnê nº ${carne.id}.`,
			'Valor: R$ 100,00',
			'Vencimento: 10/12/2026',
			`Boleto: ${(await asaas.getPayment(stored.asaas_payment_id)).bankSlipUrl}`,
			`Linha digitável: ${identificationField}`,
			`PIX copia e cola: ${payload}`
		])
		// Codes Asaas did not give at creation (or only one of them) are asked again at the send.
		const [, second] = await parcels(w, carne.id)
		await w.db.update(carneParcelas).set({ pix_copia_cola: null }).where(eq(carneParcelas.id, second.id))
		await w.call('POST', `/api/carnes/pagamentos/${second.id}/whatsapp`, { cookie: w.cookies.rep, body: { phone: '5585999990001' } })
		const secondPayment = await paymentIdOf(w, second.id)
		expect(w.evolution.sent[2].text).toContain(`PIX copia e cola: ${(await asaas.getPixQrCode(secondPayment)).payload}`)
		expect(w.evolution.sent[2].text).toContain(
			`Linha digitável: ${(await asaas.getIdentificationField(secondPayment)).identificationField}`
		)
		const log = await w.db.select().from(activities)
		expect(log.map((a) => a.event)).toEqual(expect.arrayContaining(['billing.carne-sent', 'billing.parcel-sent']))
		expect(JSON.stringify(log)).toContain('5585999990001')
	})

	it('removes a pending parcel at Asaas, and refuses a paid one', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, carneBody(empresa.codigo))).json
		const [p1, p2] = await parcels(w, carne.id)
		w.asaas.confirm(await paymentIdOf(w, p1.id))
		await settleAsaas(w)
		expect((await w.call('DELETE', `/api/carnes/pagamentos/${p1.id}`, { cookie: w.cookies.rep })).status).toBe(422)
		const removed = await w.call('DELETE', `/api/carnes/pagamentos/${p2.id}`, { cookie: w.cookies.rep })
		expect(removed.json).toEqual({ message: 'Parcela removida com sucesso' })
		expect(w.asaas.accounts.get(KEY)!.payments.get(await paymentIdOf(w, p2.id))!.deleted).toBe(true)
		await settleAsaas(w)
		expect((await parcels(w, carne.id)).map((p) => p.status)).toEqual(['RECEIVED', 'CANCELED', 'PENDING'])
		expect((await w.db.select().from(activities)).map((a) => a.event)).toContain('billing.parcel-removed')
	})

	it('filters the monitor by status, company and due dates, and the history by type, company, search and dates', async () => {
		const { w, empresa } = await billingWorld()
		const outra = await w.company(CNPJ.rep, 'Outra Empresa')
		const a = (await create(w, carneBody(empresa.codigo))).json.carne
		await create(w, carneBody(outra.codigo, { numero_parcelas: 2, valor_total: 50 }))
		const [p1] = await parcels(w, a.id)
		w.asaas.confirm(await paymentIdOf(w, p1.id))
		await settleAsaas(w)
		const get = async (q: string) => (await w.call('GET', `/api/carnes/pagamentos?${q}`, { cookie: w.cookies.rep })).json
		expect((await get('')).resumo).toEqual({ total: 5, valorTotal: 350, pagas: 1, valorRecebido: 100, pendentes: 4, vencidas: 0 })
		expect((await get('status=RECEIVED')).parcelas.map((p: { id: number }) => p.id)).toEqual([p1.id])
		expect((await get('status=all')).resumo.total).toBe(5)
		expect((await get(`empresa=${outra.codigo}`)).resumo.total).toBe(2)
		expect(
			(await get('dataInicio=2027-01-01&dataFim=2027-01-31')).parcelas.map((p: { dataVencimento: string }) => p.dataVencimento)
		).toEqual(['2027-01-10', '2027-01-10'])
		expect((await get('limit=2&page=2')).parcelas).toHaveLength(2)
		expect((await w.call('GET', '/api/carnes/pagamentos?status=XYZ', { cookie: w.cookies.rep })).status).toBe(400)

		const hist = async (q: string) => (await w.call('GET', `/api/historico-pagamentos?${q}`, { cookie: w.cookies.rep })).json
		expect((await hist('tipo=todos&empresa=todas')).resumo.total).toBe(1)
		expect((await hist(`empresa=${outra.codigo}`)).resumo.total).toBe(0)
		expect((await hist(`search=${await paymentIdOf(w, p1.id)}`)).eventos).toHaveLength(1)
		expect((await hist('search=paga')).eventos).toHaveLength(1)
		expect((await hist('search=nada-disso')).eventos).toHaveLength(0)
		expect((await hist('dataInicio=2026-11-20&dataFim=2026-11-20')).resumo.total).toBe(1)
		expect((await hist('dataInicio=2026-11-21')).resumo.total).toBe(0)
		expect(await w.db.select().from(carnes)).toHaveLength(2)
	})

	it('refuses an inverted period on both lists, saying so (issue 34, point 16)', async () => {
		const { w } = await billingWorld()
		for (const path of ['/api/carnes/pagamentos', '/api/historico-pagamentos']) {
			const res = await w.call('GET', `${path}?dataInicio=2026-12-31&dataFim=2026-12-01`, { cookie: w.cookies.rep })
			expect([res.status, res.json.message]).toEqual([400, 'A Data Início é posterior à Data Fim: corrija o período para ver a lista.'])
			// One day is a period.
			expect((await w.call('GET', `${path}?dataInicio=2026-12-01&dataFim=2026-12-01`, { cookie: w.cookies.rep })).status).toBe(200)
		}
	})
})

describe('a parcel’s payment codes on the portal’s screens (issue 34, point 15)', () => {
	it('gives a PIX parcel its copy-and-paste code and a boleto parcel its line, link and code, in the carnê and the monitor', async () => {
		const { w, empresa } = await billingWorld()
		const outra = await w.company(CNPJ.rep, 'Outra Empresa')
		const pix = (await create(w, carneBody(empresa.codigo, { numero_parcelas: 2, valor_total: 50, tipo_cobranca: 'PIX' }))).json.carne
		const boleto = (await create(w, carneBody(outra.codigo, { numero_parcelas: 2, valor_total: 50 }))).json.carne
		const stored = async (carneId: number) =>
			(await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carneId))).sort((a, b) => a.numero - b.numero)
		const [pix1, pix2] = await stored(pix.id)
		expect(pix1.pix_copia_cola).toStartWith('000201')
		expect(pix1.linha_digitavel).toBeNull()
		const codes = (p: { pix_copia_cola: string | null; linha_digitavel: string | null; boleto_url: string | null }) => ({
			pixCopiaCola: p.pix_copia_cola,
			linhaDigitavel: p.linha_digitavel,
			urlBoleto: p.boleto_url
		})
		expect(await parcels(w, pix.id)).toMatchObject([codes(pix1), codes(pix2)])
		const boletoRows = await stored(boleto.id)
		expect(boletoRows[0].linha_digitavel).toMatch(/^\d{47}$/)
		expect(await parcels(w, boleto.id)).toMatchObject(boletoRows.map(codes))

		const monitor = (await w.call('GET', '/api/carnes/pagamentos', { cookie: w.cookies.rep })).json.parcelas as { id: number }[]
		const byId = new Map(monitor.map((p) => [p.id, p]))
		for (const row of [pix1, pix2, ...boletoRows]) expect(byId.get(row.id)).toMatchObject(codes(row))
	})
})
