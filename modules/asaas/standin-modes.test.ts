import { afterAll, describe, expect, it } from 'bun:test'
import { type AsaasError, createAsaasClient } from './client'
import { sample } from './samples'
import { type AsaasStandinOptions, createAsaasStandin, startAsaasStandin } from './standin'
import type { AsaasEvent } from './types'

const CNPJ = '11222333000181'
const KEY = '$aact_hmlg_modos'
const stops: (() => unknown)[] = []
afterAll(async () => {
	for (const stop of stops) await stop()
})

/** An in-process stand-in on a movable clock, its client, and every event it delivers to one webhook. */
function setup(options: AsaasStandinOptions = {}) {
	let t = new Date('2031-01-10T12:00:00Z').getTime()
	const clock = { now: () => new Date(t), advanceDays: (days: number) => (t += days * 86_400_000) }
	const got: AsaasEvent[] = []
	const standin = createAsaasStandin({
		now: clock.now,
		webhookRetryDelaysMs: [5],
		fetch: async (_url, init) => {
			got.push(JSON.parse(String(init.body)))
			return new Response('ok')
		},
		...options,
		// One delivery per event unless a test asks for repeats.
		modes: { webhookRepeats: 0, ...options.modes }
	})
	stops.push(standin.close)
	const asaas = createAsaasClient({
		baseUrl: 'http://asaas.local/v3',
		apiKey: KEY,
		timeoutMs: 200,
		maxRetries: 0,
		fetch: (url, init) => standin.handle(new Request(url, init))
	})
	const raw = (method: string, path: string, body?: unknown) =>
		standin.handle(
			new Request(`http://asaas.local/v3${path}`, {
				method,
				headers: { access_token: KEY, 'user-agent': 'teste', 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body)
			})
		)
	const customer = async () => (await asaas.createCustomer({ name: 'Padaria Pão Quente', cpfCnpj: CNPJ })).id
	const hook = (
		sendType: 'SEQUENTIALLY' | 'NON_SEQUENTIALLY' = 'SEQUENTIALLY',
		events = ['PAYMENT_CREATED', 'PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED', 'PAYMENT_OVERDUE']
	) => asaas.createWebhook({ name: 'Portal', url: 'http://portal.invalid/hook', email: 'fin@example.com', sendType, events })
	return { standin, asaas, raw, customer, hook, got, clock }
}

describe('webhook delivery as Asaas really does it', () => {
	it('at-least-once: every delivered event comes again with the same id, after what was queued meanwhile', async () => {
		const { standin, asaas, customer, hook, got } = setup({ modes: { webhookRepeats: 1 } })
		await hook()
		await asaas.createInstallment({
			customer: await customer(),
			billingType: 'BOLETO',
			installmentCount: 2,
			totalValue: 20,
			dueDate: '2031-02-01'
		})
		await standin.settled()
		expect(got.map((e) => e.payment.installmentNumber)).toEqual([1, 2, 1, 2])
		expect(got[2].id).toBe(got[0].id)
		expect(standin.deliveries.map((d) => d.repeat)).toEqual([0, 0, 1, 1])
	})

	it('a repeat can come later (webhookRepeatDelayMs) and settled() waits for it', async () => {
		const { standin, asaas, customer, hook, got } = setup({
			modes: { webhookRepeats: 1, webhookRepeatDelayMs: 30, pixConfirmedFirst: false }
		})
		await hook()
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 5, dueDate: '2031-02-01' })
		standin.confirm(p.id)
		await standin.settled()
		expect(got.map((e) => e.event)).toEqual(['PAYMENT_CREATED', 'PAYMENT_RECEIVED', 'PAYMENT_CREATED', 'PAYMENT_RECEIVED'])
	})

	it('NON_SEQUENTIALLY delivers what was emitted together out of order; SEQUENTIALLY in order', async () => {
		for (const [sendType, order] of [
			['NON_SEQUENTIALLY', [3, 2, 1]],
			['SEQUENTIALLY', [1, 2, 3]]
		] as const) {
			const { standin, asaas, customer, hook, got } = setup()
			await hook(sendType)
			await asaas.createInstallment({
				customer: await customer(),
				billingType: 'BOLETO',
				installmentCount: 3,
				totalValue: 30,
				dueDate: '2031-02-01'
			})
			await standin.settled()
			expect(got.map((e) => e.payment.installmentNumber)).toEqual([...order])
		}
	})

	it('NON_SEQUENTIALLY: a failing event does not hold back the others, and is retried', async () => {
		let first = true
		const got: string[] = []
		const { standin, asaas, customer, hook } = setup({
			fetch: async (_url, init) => {
				const e = JSON.parse(String(init.body)) as AsaasEvent
				if (e.event === 'PAYMENT_CONFIRMED' && first) {
					first = false
					return new Response('falhou', { status: 500 })
				}
				got.push(e.event)
				return new Response('ok')
			}
		})
		await hook('NON_SEQUENTIALLY')
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'BOLETO', value: 5, dueDate: '2031-02-01' })
		standin.confirm(p.id)
		await standin.settled()
		// Emitted together, sent newest first; the refused CONFIRMED comes last, on its retry.
		expect(got).toEqual(['PAYMENT_RECEIVED', 'PAYMENT_CREATED', 'PAYMENT_CONFIRMED'])
	})

	it('PIX paid: CONFIRMED then RECEIVED (two events) with pixConfirmedFirst, straight RECEIVED without', async () => {
		for (const [pixConfirmedFirst, events] of [
			[true, ['PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED']],
			[false, ['PAYMENT_RECEIVED']]
		] as const) {
			const { standin, asaas, customer, hook, got } = setup({ modes: { pixConfirmedFirst } })
			await hook('SEQUENTIALLY', ['PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED'])
			const p = await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 5, dueDate: '2031-02-01' })
			standin.confirm(p.id)
			await standin.settled()
			expect(got.map((e) => e.event)).toEqual([...events])
			expect(got[0].payment.status).toBe(pixConfirmedFirst ? 'CONFIRMED' : 'RECEIVED')
		}
	})

	it('OVERDUE comes by itself the day after the due date (status and PAYMENT_OVERDUE), by the stand-in’s clock', async () => {
		const { standin, asaas, customer, hook, got, clock } = setup({ modes: { overdueByItself: true } })
		await hook('SEQUENTIALLY', ['PAYMENT_OVERDUE'])
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'BOLETO', value: 5, dueDate: '2031-01-11' })
		clock.advanceDays(1)
		expect((await asaas.getPayment(p.id)).status).toBe('PENDING')
		clock.advanceDays(1)
		expect((await asaas.getPayment(p.id)).status).toBe('OVERDUE')
		await standin.settled()
		expect(got.map((e) => [e.event, e.payment.id])).toEqual([['PAYMENT_OVERDUE', p.id]])

		const manual = setup({ modes: { overdueByItself: false } })
		const q = await manual.asaas.createPayment({
			customer: await manual.customer(),
			billingType: 'BOLETO',
			value: 5,
			dueDate: '2031-01-11'
		})
		manual.clock.advanceDays(5)
		expect((await manual.asaas.getPayment(q.id)).status).toBe('PENDING')
	})

	it('webhook e-mail: required refuses a config without one (Asaas’ error shape, naming the field); optional takes it', async () => {
		const { asaas, standin } = setup({ modes: { webhookEmail: 'required' } })
		const input = { name: 'Portal', url: 'http://portal.invalid/hook', sendType: 'SEQUENTIALLY' as const, events: ['PAYMENT_RECEIVED'] }
		const e = await asaas.createWebhook(input).catch((x: AsaasError) => x)
		expect(e).toMatchObject({
			upstreamStatus: 400,
			code: 'invalid_email',
			message: 'Informe o e-mail que receberá os avisos de falha do webhook.'
		})
		expect((await asaas.createWebhook({ ...input, email: 'fin@example.com' })).email).toBe('fin@example.com')
		standin.setModes({ webhookEmail: 'optional' })
		expect((await asaas.createWebhook(input)).email).toBeNull()
	})
})

describe('charges and plans as Asaas really answers them', () => {
	it('a deleted charge: 404 in not-found mode, deleted:true in deleted-flag mode; switchable at runtime and over HTTP', async () => {
		const { standin, asaas, customer } = setup({ modes: { deletedPayment: 'not-found' } })
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'BOLETO', value: 5, dueDate: '2031-02-01' })
		await asaas.deletePayment(p.id)
		expect(await asaas.getPayment(p.id).catch((e: AsaasError) => e.upstreamStatus)).toBe(404)
		standin.setModes({ deletedPayment: 'deleted-flag' })
		expect((await asaas.getPayment(p.id)).deleted).toBe(true)
		const res = await standin.handle(
			new Request('http://asaas.local/__standin/modes', { method: 'POST', body: JSON.stringify({ deletedPayment: 'not-found' }) })
		)
		expect(((await res.json()) as { deletedPayment: string }).deletedPayment).toBe('not-found')
		expect(standin.modes().deletedPayment).toBe('not-found')
		expect(await asaas.getPayment(p.id).catch((e: AsaasError) => e.upstreamStatus)).toBe(404)
	})

	it('POST /installments: value mode refuses totalValue alone naming value; totalValue mode refuses value alone naming totalValue', async () => {
		const { asaas, standin, customer, raw } = setup({ modes: { installmentAmount: 'value' } })
		const base = { customer: await customer(), billingType: 'BOLETO', installmentCount: 2, dueDate: '2031-02-01' }
		const refused = await raw('POST', '/installments', { ...base, totalValue: 20 })
		expect(refused.status).toBe(400)
		expect(await refused.json()).toEqual({ errors: [{ code: 'invalid_value', description: 'Informe o valor de cada parcela (value).' }] })
		expect((await asaas.createInstallment({ ...base, billingType: 'BOLETO', value: 10 })).value).toBe(20)

		standin.setModes({ installmentAmount: 'totalValue' })
		const other = await raw('POST', '/installments', { ...base, value: 10 })
		expect(await other.json()).toEqual({
			errors: [{ code: 'invalid_totalValue', description: 'Informe o valor total do parcelamento (totalValue).' }]
		})
		expect((await asaas.createInstallment({ ...base, billingType: 'BOLETO', totalValue: 20 })).paymentValue).toBe(10)
		expect(standin.accounts.get(KEY)?.installments.size).toBe(2)
	})

	it('either (the sandbox capture): 350 in 12 → 11 × 29,16 + 29,24, listed newest first with generated descriptions', async () => {
		const { asaas, customer, raw } = setup()
		const plan = await asaas.createInstallment({
			customer: await customer(),
			billingType: 'BOLETO',
			installmentCount: 12,
			totalValue: 350,
			dueDate: '2031-01-24'
		})
		const captured = sample('installments.create.response.sandbox-capture.json')
		expect(Object.keys(plan).sort()).toEqual(Object.keys(captured).sort())
		expect(plan).toMatchObject({
			value: 350,
			netValue: 326.12,
			paymentValue: 29.24,
			installmentCount: 12,
			description: null,
			expirationDay: 24
		})
		const list = (await (await raw('GET', `/payments?installment=${plan.id}&limit=100`)).json()) as Record<string, unknown> & {
			data: Record<string, unknown>[]
		}
		const captureList = sample<{ data: Record<string, unknown>[] }>('payments.list.by-installment.response.sandbox-capture.json')
		expect(Object.keys(list).sort()).toEqual(Object.keys(captureList).sort())
		expect(list.data.map((p) => [p.installmentNumber, p.value, p.description, p.externalReference])).toEqual(
			captureList.data.map((p) => [p.installmentNumber, p.value, p.description, p.externalReference])
		)
		for (const key of Object.keys(captureList.data[0])) expect(list.data[0]).toHaveProperty(key)
	})

	it('a charge and a customer carry every key of the sandbox captures, null where the capture has null', async () => {
		const { raw } = setup()
		const customer = (await (
			await raw('POST', '/customers', {
				name: 'Cliente Paridade',
				cpfCnpj: '24971563792',
				email: 'paridade@example.com',
				mobilePhone: '47996321478'
			})
		).json()) as Record<string, unknown>
		const capturedCustomer = sample('customers.create.response.sandbox-capture.json')
		expect(Object.keys(customer).sort()).toEqual(Object.keys(capturedCustomer).sort())
		for (const [k, v] of Object.entries(capturedCustomer)) if (v === null) expect(customer[k]).toBeNull()

		for (const [name, body] of [
			['payments.create.pix.response.sandbox-capture.json', { billingType: 'PIX', value: 100, description: 'Paridade Pix' }],
			[
				'payments.create.boleto-fine-interest-discount.response.sandbox-capture.json',
				{
					billingType: 'BOLETO',
					value: 350,
					fine: { value: 2, type: 'PERCENTAGE' },
					interest: { value: 1 },
					discount: { value: 5, dueDateLimitDays: 0, type: 'PERCENTAGE' }
				}
			]
		] as const) {
			const captured = sample(name)
			const p = (await (await raw('POST', '/payments', { customer: customer.id, dueDate: '2031-01-24', ...body })).json()) as Record<
				string,
				unknown
			>
			// Every key of the capture (confirmedDate, absent there while pending, is the only extra).
			expect(Object.keys(p).filter((k) => !(k in captured))).toEqual(['confirmedDate'])
			for (const [k, v] of Object.entries(captured)) {
				expect(p).toHaveProperty(k)
				if (v === null) expect(p[k]).toBeNull()
			}
			for (const k of ['netValue', 'discount', 'fine', 'interest', 'externalReference', 'installmentNumber'])
				expect(p[k]).toEqual(captured[k] as never)
		}
	})

	it('validation errors come one at a time, in Asaas’ shape', async () => {
		const { raw } = setup()
		const res = await raw('POST', '/payments', {})
		expect(res.status).toBe(400)
		const body = (await res.json()) as { errors: unknown[] }
		expect(body.errors).toHaveLength(1)
		expect(body).toEqual({ errors: [{ code: 'invalid_customer', description: expect.any(String) }] })
	})

	it('no Pix QR without a Pix key on the account (Asaas’ error); registerPixKey and POST /__standin/pix-keys add one', async () => {
		const { standin, asaas, customer } = setup({ modes: { pixKeyRequired: true } })
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'BOLETO', value: 5, dueDate: '2031-02-01' })
		const e = await asaas.getPixQrCode(p.id).catch((x: AsaasError) => x)
		expect(e).toMatchObject({
			upstreamStatus: 400,
			code: 'invalid_billingType',
			message: 'Não há nenhuma chave Pix disponível para receber cobranças.'
		})
		const res = await standin.handle(
			new Request('http://asaas.local/__standin/pix-keys', {
				method: 'POST',
				body: JSON.stringify({ apiKey: KEY, pixKey: 'fin@example.com' })
			})
		)
		expect(await res.json()).toEqual({ pixKey: 'fin@example.com' })
		expect((await asaas.getPixQrCode(p.id)).payload).toStartWith('000201')
		expect(standin.registerPixKey('$aact_hmlg_outra')).toMatch(/^[0-9a-f-]{36}$/)
	})
})

describe('the quota', () => {
	it('counts each account’s requests over a 12 h window, with RateLimit-* on every answer and 429 past the limit', async () => {
		const { standin, raw, clock } = setup({ modes: { countQuota: true, quotaLimit: 3 } })
		const answers = [
			await raw('GET', '/webhooks'),
			await raw('GET', '/customers'),
			await raw('GET', '/payments/pay_x'),
			await raw('GET', '/webhooks')
		]
		expect(answers.map((r) => [r.status, r.headers.get('RateLimit-Limit'), r.headers.get('RateLimit-Remaining')])).toEqual([
			[200, '3', '2'],
			[200, '3', '1'],
			[404, '3', '0'],
			[429, '3', '0']
		])
		expect(answers[3].headers.get('RateLimit-Reset')).toBe(String(12 * 3600))
		expect(await answers[3].json()).toEqual({ errors: [{ code: 'rate_limit_exceeded', description: expect.any(String) }] })
		expect(standin.quota(KEY)).toEqual({ used: 3, limit: 3, remaining: 0, resetSeconds: 12 * 3600 })
		const perAccount = await (await standin.handle(new Request('http://asaas.local/__standin/quota'))).json()
		expect(perAccount).toEqual({ [KEY]: { used: 3, limit: 3, remaining: 0, resetSeconds: 12 * 3600 } })
		clock.advanceDays(0.5)
		expect((await raw('GET', '/webhooks')).headers.get('RateLimit-Remaining')).toBe('2')
	})

	it('the client’s error on a quota 429 says in how many seconds to retry', async () => {
		const { asaas } = setup({ modes: { countQuota: true, quotaLimit: 1 } })
		await asaas.listWebhooks()
		const e = await asaas.listWebhooks().catch((x: AsaasError) => x)
		expect(e).toMatchObject({ upstreamStatus: 429, code: 'rate_limited', retryAfterSeconds: 43200 })
	})
})

describe('fault rules', () => {
	it('drop: the connection closes before anything is applied', async () => {
		const { standin, asaas, customer } = setup()
		const c = await customer()
		standin.failNext({ method: 'POST', path: '/payments', mode: 'drop' })
		const e = await asaas
			.createPayment({ customer: c, billingType: 'PIX', value: 5, dueDate: '2031-02-01', externalReference: 'x' })
			.catch((x: AsaasError) => x)
		expect(e).toMatchObject({ code: 'network' })
		expect((await asaas.listPayments({ externalReference: 'x' })).totalCount).toBe(0)
	})

	it('hang: no answer until the caller gives up, nothing applied; 500 and 429 for any path prefix, N times', async () => {
		const { standin, asaas, customer } = setup()
		const c = await customer()
		standin.failNext({ path: '/payments', mode: 'hang' })
		const e = await asaas
			.createPayment({ customer: c, billingType: 'PIX', value: 5, dueDate: '2031-02-01', externalReference: 'h' })
			.catch((x: AsaasError) => x)
		expect(e).toMatchObject({ code: 'timeout' })
		expect((await asaas.listPayments({ externalReference: 'h' })).totalCount).toBe(0)

		standin.failNext({ path: '/cust', mode: 'status', status: 500, times: 2 })
		expect(await asaas.findCustomerByCpfCnpj(CNPJ).catch((x: AsaasError) => x.upstreamStatus)).toBe(500)
		expect(await asaas.findCustomerByCpfCnpj(CNPJ).catch((x: AsaasError) => x.upstreamStatus)).toBe(500)
		expect((await asaas.findCustomerByCpfCnpj(CNPJ))?.id).toBe(c)
		standin.failNext({ method: 'GET', mode: 'rate-limit', resetSeconds: 7200 })
		expect(await asaas.listWebhooks().catch((x: AsaasError) => x.retryAfterSeconds)).toBe(7200)
	})

	it('over HTTP on a socket: the same rules and modes', async () => {
		const standin = startAsaasStandin({ modes: { deletedPayment: 'not-found' } })
		stops.push(standin.stop)
		const rule = { method: 'POST', path: '/customers', mode: 'drop' }
		expect((await fetch(`${standin.origin}/__standin/fail`, { method: 'POST', body: JSON.stringify(rule) })).status).toBe(200)
		const asaas = createAsaasClient({ baseUrl: standin.url, apiKey: KEY, maxRetries: 0 })
		const e = await asaas.createCustomer({ name: 'Queda', cpfCnpj: CNPJ }).catch((x: AsaasError) => x)
		expect(e).toMatchObject({ code: 'network' })
		expect(await asaas.findCustomerByCpfCnpj(CNPJ)).toBeNull()
		expect((await (await fetch(`${standin.origin}/__standin/modes`)).json()) as object).toMatchObject({ deletedPayment: 'not-found' })
	})
})
