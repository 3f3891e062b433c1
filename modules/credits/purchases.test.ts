import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { TEST_ORIGIN, type TestWorld, createTestApp, settleAsaas, testWorld, runPortalJob } from '../../apps/server/testing'
import { activities } from '../activity'
import { createAsaasClient } from '../asaas'
import { asaasEvents } from '../billing'
import { MINUTE } from '../core'
import { openSetting, saveSettings } from '../settings'
import { checkPendingPurchases, purchaseReference, recoverUnfinishedPurchases, refreshPurchase } from './purchases'
import { creditPurchases, credits } from './schema'

const KEY = '$aact_hmlg_000000000000000000000000000000cafe'

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
	const end = Date.now() + ms
	while (!(await check())) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
		await Bun.sleep(10)
	}
}

/** A representante's purchase of credits (`quantidade`, paid by `metodoPagamento`) as `cookie`'s user. */
const autoPurchase = (w: TestWorld, quantidade: unknown, metodoPagamento = 'PIX', cookie = w.cookies.rep) =>
	w.call('POST', '/api/credits/auto-purchase', { cookie, body: { quantidade, metodoPagamento } })

/** A portal whose vendor account points at the stand-in, with its webhook registered there. */
async function shop(options: Parameters<typeof testWorld>[0] = {}) {
	const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN }, ...options })
	const saved = await w.call('PUT', '/api/admin/asaas-vendor', {
		cookie: w.cookies.admin,
		body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
	})
	expect(saved.status).toBe(200)
	w.asaas.registerPixKey(KEY)
	const token = await openSetting(w.db, w.ctx.secrets, 'app.asaas_webhook_token')
	/** The vendor's account at the stand-in, as the administrador would use it at Asaas. */
	const vendor = createAsaasClient({ baseUrl: w.ctx.config.asaasUrls.sandbox, apiKey: KEY, fetch: w.ctx.gateways.asaas })
	const buy = (quantidade: unknown, cookie = w.cookies.rep) => autoPurchase(w, quantidade, 'PIX', cookie)
	const status = async (chargeId: string, cookie = w.cookies.rep) =>
		(await w.call('GET', `/api/credits/payment-status/${chargeId}`, { cookie })).json?.status
	const available = async (cookie = w.cookies.rep) => (await w.call('GET', '/api/credits/available', { cookie })).json.total as number
	const deliver = (body: unknown) =>
		w.call('POST', '/api/asaas/webhook/fornecedor', { body, headers: { origin: '', 'asaas-access-token': token } })
	const purchase = async (chargeId: string) =>
		(await w.db.select().from(creditPurchases).where(eq(creditPurchases.charge_id, chargeId)))[0]!
	const batchesOf = async (chargeId: string) => {
		const p = await purchase(chargeId)
		return (await w.db.select().from(credits).where(eq(credits.origem, 'compra'))).filter((c) => c.representante_id === p.representante_id)
	}
	const activity = async (event: string) => await w.db.select().from(activities).where(eq(activities.event, event))
	return { w, token, vendor, buy, status, available, deliver, purchase, batchesOf, activity }
}

const paidEvent = (id: string, paymentId: string, value: number, type = 'PAYMENT_RECEIVED') => ({
	id,
	event: type,
	dateCreated: '2026-11-20 09:00:00',
	payment: { object: 'payment', id: paymentId, status: 'RECEIVED', value, billingType: 'PIX' }
})

describe('POST /api/credits/auto-purchase', () => {
	it('charges the total by PIX on the vendor’s account, due today, carrying the purchase, and answers the copy-and-paste code', async () => {
		const { w, buy, status, available } = await shop()
		const res = await buy(3)
		expect(res.status).toBe(201)
		expect(res.json).toMatchObject({ quantidade: 3, valor: 150, metodoPagamento: 'PIX', vencimento: '2026-11-20' })
		expect(res.json.pixCopyPaste).toMatch(/^000201/)
		expect(res.json.pixQrCode).toBeTruthy()
		const account = w.asaas.accounts.get(KEY)!
		const charge = account.payments.get(res.json.chargeId)!
		const row = (await w.db.select().from(creditPurchases))[0]!
		expect(charge).toMatchObject({ billingType: 'PIX', value: 150, dueDate: '2026-11-20', externalReference: `autocompra-${row.id}` })
		expect(charge.description).toContain('3 créditos')
		expect([...account.customers.values()].map((c) => [c.cpfCnpj, c.name])).toEqual([[w.cnpj.rep, 'Rafael Rep']])
		expect(row).toMatchObject({ status: 'pendente', quantidade: 3, valor_unitario_centavos: 5000, valor_total_centavos: 15000 })
		expect(await status(res.json.chargeId)).toBe('PENDING')
		expect(await available()).toBe(0)
		// The second purchase finds the customer instead of creating another; the price is the one of its moment.
		await saveSettings(w.db, w.clock, w.ctx.secrets, [{ chave: 'app.valor_credito_individual', valor: '45.50' }])
		const second = await buy(2)
		expect(second.json.valor).toBe(91)
		expect(account.customers.size).toBe(1)
		const pix = await w.call('GET', `/api/credits/pix-qrcode/${second.json.chargeId}`, { cookie: w.cookies.rep })
		expect(pix.json).toEqual({ success: true, pixCopyPaste: second.json.pixCopyPaste, pixQrCode: second.json.pixQrCode })
	})

	it('without the vendor’s account says the system is not configured and creates nothing', async () => {
		const w = await testWorld()
		const res = await autoPurchase(w, 1)
		expect(res.status).toBe(422)
		expect(res.json.message).toBe('Sistema não configurado - Entre em contato com o administrador para habilitar a autocompra')
		expect(await w.db.select().from(creditPurchases)).toEqual([])
		expect(w.asaas.accounts.size).toBe(0)
	})

	it('refuses quantities 0, 1001, 2.5, "abc", none and a method other than PIX, and keeps nothing', async () => {
		const { w, buy } = await shop()
		for (const q of [0, 1001, 2.5, 'abc', undefined, -1]) {
			const res = await buy(q)
			expect(res.status).toBe(400)
			expect(res.json.message).toContain('quantidade')
		}
		const boleto = await autoPurchase(w, 1, 'BOLETO')
		expect(boleto.status).toBe(400)
		expect(boleto.json.message).toContain('apenas PIX')
		expect(await w.db.select().from(creditPurchases)).toEqual([])
		expect(w.asaas.accounts.get(KEY)?.payments.size ?? 0).toBe(0)
	})

	it('is the representante’s alone: a gerente or an administrador gets 403 on every call', async () => {
		const { w, buy } = await shop()
		const mine = (await buy(1)).json.chargeId
		for (const cookie of [w.cookies.gerente, w.cookies.admin]) {
			expect((await buy(1, cookie)).status).toBe(403)
			expect((await w.call('GET', `/api/credits/payment-status/${mine}`, { cookie })).status).toBe(403)
			expect((await w.call('GET', `/api/credits/pix-qrcode/${mine}`, { cookie })).status).toBe(403)
		}
		expect(await w.db.select().from(creditPurchases)).toHaveLength(1)
	})

	it('answers another representative’s chargeId, or an unknown one, with 404', async () => {
		const { w, buy } = await shop()
		const mine = (await buy(1)).json.chargeId
		for (const id of [mine, 'pay_inexistente']) {
			for (const path of [`/api/credits/payment-status/${id}`, `/api/credits/pix-qrcode/${id}`]) {
				const res = await w.call('GET', path, { cookie: w.cookies.rep2 })
				expect(res.status).toBe(404)
				expect(res.json.message).toBe('Compra não encontrada.')
			}
		}
	})
})

describe('crediting a paid purchase', () => {
	it('the webhook credits it: CONFIRMED, a pool batch of origem compra at the unit value paid, revenue and Meus Créditos show it', async () => {
		const { w, buy, status, available, batchesOf, activity } = await shop()
		const { chargeId } = (await buy(2)).json
		w.asaas.confirm(chargeId)
		await until(async () => (await status(chargeId)) === 'CONFIRMED', 'the webhook')
		expect(await available()).toBe(2)
		expect((await batchesOf(chargeId)).map((b) => [b.valor, b.valor_original, b.valor_unitario_centavos, b.data_compra])).toEqual([
			[2, 2, 5000, '2026-11-20']
		])
		expect((await activity('credits.purchased')).map((a) => [a.title, a.subtitle, a.representante_cnpj])).toEqual([
			['2 créditos comprados por PIX', 'Rafael Rep · R$ 100,00 pagos', w.cnpj.rep]
		])
		const mine = await w.call('GET', '/api/credits?kind=pool', { cookie: w.cookies.rep })
		expect(mine.json.credits.map((c: { origem: string; data_compra: string }) => [c.origem, c.data_compra])).toEqual([
			['compra', '2026-11-20']
		])
		const report = await w.call('GET', '/api/reports', { cookie: w.cookies.admin })
		expect(report.json).toMatchObject({ revenue: 100, revenueThisMonth: 100, totalCredits: 2 })
	})

	it('tells its buyer in the top bar when it is credited, once, even after they left the purchase for a new one', async () => {
		const { w, buy, status, deliver } = await shop()
		const bell = async () =>
			((await w.call('GET', '/api/notifications', { cookie: w.cookies.rep })).json as { title: string; message: string; type: string }[])
				.filter((n) => n.title === 'Compra de créditos confirmada')
				.map((n) => [n.message, n.type])
		const { chargeId } = (await buy(2)).json
		// "Fazer Nova Compra": a second PIX is made before the first is paid.
		expect((await buy(1)).status).toBe(201)
		expect(await bell()).toEqual([])
		w.asaas.confirm(chargeId)
		await until(async () => (await status(chargeId)) === 'CONFIRMED', 'the webhook')
		const told = [['PIX de R$ 100,00 recebido: 2 créditos adicionados ao seu saldo.', 'success']]
		expect(await bell()).toEqual(told)
		// The same payment delivered again, and the checker: no second notification.
		await deliver(paidEvent('evt_de_novo', chargeId, 100))
		await refreshPurchase(w.ctx, chargeId)
		await w.asaas.settled()
		await until(async () => (await w.db.select().from(asaasEvents)).every((e) => e.status !== 'pendente'), 'the inbox')
		expect(await bell()).toEqual(told)
		// Nobody else is told.
		const others = await w.call('GET', '/api/notifications', { cookie: w.cookies.rep2 })
		expect(others.json.filter((n: { title: string }) => n.title === 'Compra de créditos confirmada')).toEqual([])
	})

	it('also credits a payment marked received in cash at Asaas (RECEIVED_IN_CASH)', async () => {
		const { vendor, buy, status, available } = await shop()
		const { chargeId } = (await buy(1)).json
		await vendor.receiveInCash(chargeId, { value: 50 })
		await until(async () => (await status(chargeId)) === 'CONFIRMED', 'the webhook')
		expect(await available()).toBe(1)
	})

	it('adds the credits exactly once under 50 concurrent confirmations: webhook replays and checker runs, from two processes', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-purchase-')), 'portal.sqlite')
		const a = await shop({ dbFile })
		const { chargeId } = (await a.buy(4)).json
		// A second portal process on the same database, talking to the same Asaas.
		const b = await createTestApp({ dbFile })
		b.ctx.gateways.asaas = a.w.ctx.gateways.asaas
		a.w.asaas.pauseDeliveries()
		a.w.asaas.confirm(chargeId)
		a.w.clock.advance(MINUTE)
		b.clock.advance(MINUTE)
		const deliverTo = (app: typeof a.w | typeof b, body: unknown) =>
			app.call('POST', '/api/asaas/webhook/fornecedor', { body, headers: { origin: '', 'asaas-access-token': a.token } })
		const attempts = Array.from({ length: 50 }, (_, i) => {
			const app = i % 2 === 0 ? a.w : b
			switch (i % 5) {
				case 0:
					return deliverTo(app, paidEvent(`evt_new_${i}`, chargeId, 200))
				case 1:
					return deliverTo(app, paidEvent('evt_replayed', chargeId, 200))
				case 2:
					return checkPendingPurchases(app.ctx)
				default:
					return refreshPurchase(app.ctx, chargeId)
			}
		})
		await Promise.all(attempts)
		a.w.asaas.resumeDeliveries()
		await a.w.asaas.settled()
		const inbox = async () => await a.w.db.select().from(asaasEvents)
		await until(async () => (await inbox()).every((e) => e.status !== 'pendente'), 'the inbox')
		expect(await a.status(chargeId)).toBe('CONFIRMED')
		expect(await a.batchesOf(chargeId)).toHaveLength(1)
		expect(await a.available()).toBe(4)
		expect(await a.activity('credits.purchased')).toHaveLength(1)
		expect((await a.purchase(chargeId)).batch_id).toBe((await a.batchesOf(chargeId))[0].id)
	})

	it('believes no webhook: a forged one with the right token while Asaas says PENDING adds nothing', async () => {
		const { w, buy, status, available, deliver } = await shop()
		const { chargeId } = (await buy(2)).json
		expect((await deliver(paidEvent('evt_forged', chargeId, 100))).status).toBe(200)
		await until(async () => (await w.db.select().from(asaasEvents)).every((e) => e.status !== 'pendente'), 'the inbox')
		expect((await w.db.select().from(asaasEvents)).find((e) => e.event_id === 'evt_forged')?.status).toBe('processado')
		expect(await status(chargeId)).toBe('PENDING')
		expect(await available()).toBe(0)
	})

	it('a payment of another amount credits nothing and warns the administrador in the activity log', async () => {
		const { w, vendor, buy, status, available, activity, purchase } = await shop()
		const { chargeId } = (await buy(2)).json
		await vendor.updatePayment(chargeId, { value: 1 })
		w.asaas.confirm(chargeId)
		await until(async () => (await purchase(chargeId)).status === 'divergente', 'the webhook')
		expect(await status(chargeId)).toBe('CANCELLED')
		expect(await available()).toBe(0)
		expect((await purchase(chargeId)).valor_pago_centavos).toBe(100)
		const warning = await activity('credits.purchase-amount-mismatch')
		expect(warning.map((a) => [a.type, a.representante_cnpj, a.subtitle])).toEqual([
			['warning', null, 'Rafael Rep · pagou R$ 1,00, o total era R$ 100,00']
		])
		const adminSees = await w.call('GET', '/api/activities/recent', { cookie: w.cookies.admin })
		expect(JSON.stringify(adminSees.json)).toContain('paga com valor diferente')
	})

	it('a refund after crediting deactivates the purchase’s unused credits and logs what was already transferred', async () => {
		const { w, vendor, buy, status, available, activity, purchase } = await shop()
		const { chargeId } = (await buy(5)).json
		w.asaas.confirm(chargeId)
		await until(async () => (await status(chargeId)) === 'CONFIRMED', 'the crediting')
		const company = await w.company(w.cnpj.rep, 'Padaria Central')
		const transfer = await w.transferVia(w.cookies.rep, company.codigo, 2)
		expect(transfer.status).toBe(200)
		await vendor.refundPayment(chargeId)
		await until(async () => (await purchase(chargeId)).status === 'estornada', 'the refund')
		expect(await status(chargeId)).toBe('CANCELLED')
		expect(await available()).toBe(0)
		const summary = await w.call('GET', '/api/credits/summary', { cookie: w.cookies.admin })
		expect(summary.json.totals).toMatchObject({ total: 5, disponivel: 0, utilizado: 2 })
		expect((await activity('credits.purchase-reversed')).map((a) => [a.title, a.subtitle])).toEqual([
			[`Compra de créditos nº ${(await purchase(chargeId)).id} estornada`, 'Rafael Rep · 3 créditos desativados · 2 já transferidos']
		])
		// A refunded purchase is no longer revenue.
		expect((await w.call('GET', '/api/reports', { cookie: w.cookies.admin })).json.revenue).toBe(0)
	})

	it('a chargeback after crediting deactivates the unused credits too', async () => {
		const { w, buy, status, available, activity } = await shop()
		const { chargeId } = (await buy(3)).json
		w.asaas.confirm(chargeId)
		await until(async () => (await status(chargeId)) === 'CONFIRMED', 'the crediting')
		w.asaas.chargeback(chargeId)
		await until(async () => (await available()) === 0, 'the chargeback')
		expect((await activity('credits.purchase-reversed'))[0].title).toContain('contestada (chargeback)')
	})

	it('a charge removed at Asaas cancels the purchase', async () => {
		const { vendor, buy, status } = await shop()
		const { chargeId } = (await buy(1)).json
		await vendor.deletePayment(chargeId)
		await until(async () => (await status(chargeId)) === 'CANCELLED', 'the webhook')
	})

	it('still credits a payment that arrives after the purchase expired', async () => {
		const { w, buy, status, available } = await shop()
		const { chargeId } = (await buy(2)).json
		// Bought at 09:00 in Brazil: open until midnight.
		w.clock.set('2026-11-21T03:00:00.000Z')
		expect(await checkPendingPurchases(w.ctx)).toBe(1)
		// The night went by: a new session.
		const cookie = await w.login(w.cnpj.rep)
		expect(await status(chargeId, cookie)).toBe('EXPIRED')
		w.asaas.confirm(chargeId)
		await until(async () => (await status(chargeId, cookie)) === 'CONFIRMED', 'the late payment')
		expect(await available(cookie)).toBe(2)
	})

	it('a restart between the payment and its processing still credits once', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-purchase-')), 'portal.sqlite')
		const before = await shop({ dbFile })
		const { chargeId } = (await before.buy(3)).json
		before.w.asaas.pauseDeliveries()
		before.w.asaas.confirm(chargeId)
		// The first process stores the webhook's event and answers, then dies before handling it.
		expect(
			await before.w.services.asaasInbox.receive('fornecedor', before.token, paidEvent('evt_before_crash', chargeId, 150))
		).not.toBeNull()
		const after = await createTestApp({ dbFile })
		after.ctx.gateways.asaas = before.w.ctx.gateways.asaas
		after.clock.advance(MINUTE)
		await Promise.all([after.services.asaasInbox.processDue(), checkPendingPurchases(after.ctx)])
		await Promise.all([after.services.asaasInbox.processDue(), checkPendingPurchases(after.ctx)])
		expect((await before.purchase(chargeId)).status).toBe('paga')
		expect(await before.batchesOf(chargeId)).toHaveLength(1)
		expect(await before.available()).toBe(3)
	})
})

describe('a purchase a crash left half made', () => {
	it('goes on as pending when Asaas has its charge, and goes away when Asaas has none, after five minutes', async () => {
		const { w, vendor, status } = await shop()
		const unfinished = async () =>
			(
				await w.db
					.insert(creditPurchases)
					.values({
						representante_id: w.cnpj.rep,
						quantidade: 2,
						valor_unitario_centavos: 5000,
						valor_total_centavos: 10000,
						status: 'criando',
						vencimento: '2026-11-20',
						created_at: w.clock.now().toISOString(),
						expires_at: new Date(w.clock.now().getTime() + 60 * MINUTE).toISOString(),
						updated_at: w.clock.now().toISOString()
					})
					.returning()
			)[0]
		const charged = await unfinished()
		const customer = await vendor.createCustomer({ name: 'Rafael Rep', cpfCnpj: w.cnpj.rep })
		const charge = await vendor.createPayment({
			customer: customer.id,
			billingType: 'PIX',
			value: 100,
			dueDate: '2026-11-20',
			externalReference: purchaseReference(charged.id)
		})
		const neverCharged = await unfinished()
		// A create may still be under way: too early to judge.
		expect(await recoverUnfinishedPurchases(w.ctx)).toBe(0)
		w.clock.advance(6 * MINUTE)
		expect(await recoverUnfinishedPurchases(w.ctx)).toBe(2)
		expect((await w.db.select().from(creditPurchases).where(eq(creditPurchases.id, charged.id)))[0]).toMatchObject({
			status: 'pendente',
			charge_id: charge.id
		})
		expect((await w.db.select().from(creditPurchases).where(eq(creditPurchases.id, neverCharged.id)))[0]).toBeUndefined()
		expect(await status(charge.id)).toBe('PENDING')
		expect(await recoverUnfinishedPurchases(w.ctx)).toBe(0)
	})
})

describe('the checker', () => {
	it('asks Asaas 10 s after the purchase, then at doubling intervals up to every 5 minutes, until it expires; the polling never reaches Asaas', async () => {
		const { w, buy, status } = await shop()
		let asked = 0
		const gateway = w.ctx.gateways.asaas
		w.ctx.gateways.asaas = (url, init) => {
			asked++
			return gateway(url, init)
		}
		const { chargeId } = (await buy(1)).json
		// The charge's own webhooks are read back once; what follows is the polling alone.
		await settleAsaas(w)
		asked = 0
		for (let i = 0; i < 20; i++) expect(await status(chargeId)).toBe('PENDING')
		expect(asked).toBe(0)
		const checksAt: number[] = []
		const start = w.clock.now().getTime()
		for (let second = 1; second <= 30 * 60; second++) {
			w.clock.advance(1000)
			if ((await checkPendingPurchases(w.ctx)) > 0) checksAt.push(second)
		}
		expect(checksAt.slice(0, 7)).toEqual([10, 30, 70, 150, 310, 610, 910])
		expect(new Set(checksAt.slice(5).map((s, i, all) => (i === 0 ? 300 : s - all[i - 1])))).toEqual(new Set([300]))
		expect(asked).toBe(checksAt.length)
		// Midnight in Brazil: the next check finds it expired, and nothing asks again.
		w.clock.set(new Date(start + 16 * 60 * MINUTE).toISOString())
		await runPortalJob(w, 'credits.purchase-check')
		expect(await status(chargeId, await w.login(w.cnpj.rep))).toBe('EXPIRED')
		const before = asked
		w.clock.advance(10 * MINUTE)
		expect(await checkPendingPurchases(w.ctx)).toBe(0)
		expect(asked).toBe(before)
	})

	it('catches a payment whose webhook never came', async () => {
		const { w, buy, status, available } = await shop()
		const { chargeId } = (await buy(2)).json
		w.asaas.pauseDeliveries()
		w.asaas.confirm(chargeId)
		w.clock.advance(10_000)
		expect(await checkPendingPurchases(w.ctx)).toBe(1)
		expect(await status(chargeId)).toBe('CONFIRMED')
		expect(await available()).toBe(2)
	})
})
