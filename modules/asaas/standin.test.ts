import { afterAll, describe, expect, it } from 'bun:test'
import { type AsaasError, createAsaasClient } from './client'
import { createAsaasStandin, startAsaasStandin } from './standin'
import type { AsaasEvent } from './types'

const CNPJ = '11222333000181'
const TOKEN = 'tok_'.padEnd(40, 'k')
const now = () => new Date('2031-01-10T12:00:00Z')
const stops: (() => unknown)[] = []
afterAll(async () => {
	for (const stop of stops) await stop()
})

/** An HTTP receiver answering each delivery with the status `answer` gives (redirects carry a Location). */
function receiver(answer: (n: number) => number | Promise<number> = () => 200) {
	const received: { headers: Headers; body: AsaasEvent }[] = []
	const server = Bun.serve({
		port: 0,
		async fetch(req) {
			received.push({ headers: req.headers, body: (await req.json()) as AsaasEvent })
			const status = await answer(received.length)
			return status >= 300 && status < 400
				? new Response(null, { status, headers: { location: '/outro' } })
				: new Response('ok', { status })
		}
	})
	stops.push(() => server.stop(true))
	return { url: `${server.url.origin}/api/asaas/webhook/fornecedor`, received }
}

function setup(options: Parameters<typeof startAsaasStandin>[0] = {}) {
	// Delivery mechanics are checked one delivery per event: repeats (at-least-once) are standin-modes.test.ts's.
	const standin = startAsaasStandin({ now, webhookRetryDelaysMs: [5], ...options, modes: { webhookRepeats: 0, ...options.modes } })
	stops.push(standin.stop)
	const key = `$aact_hmlg_${crypto.randomUUID()}`
	const asaas = createAsaasClient({ baseUrl: standin.url, apiKey: key, timeoutMs: 2000 })
	const customer = async () => (await asaas.createCustomer({ name: 'Padaria Pão Quente', cpfCnpj: CNPJ })).id
	const hook = (url: string, authToken?: string, events: string[] = ['PAYMENT_CREATED', 'PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']) =>
		asaas.createWebhook({ name: 'Portal', url, email: 'financeiro@example.com', sendType: 'SEQUENTIALLY', events, authToken })
	return { standin, asaas, key, customer, hook }
}

async function until(condition: () => boolean, ms = 10_000) {
	const end = Date.now() + ms
	while (!condition()) {
		if (Date.now() > end) throw new Error('condition not reached in time')
		await Bun.sleep(5)
	}
}

describe('webhook delivery', () => {
	it('POSTs the Asaas envelope with the asaas-access-token header of the config', async () => {
		const { standin, asaas, customer, hook } = setup()
		const withToken = receiver()
		const withoutToken = receiver()
		await hook(withToken.url, TOKEN)
		await hook(withoutToken.url)
		const p = await asaas.createPayment({
			customer: await customer(),
			billingType: 'PIX',
			value: 50,
			dueDate: '2031-01-20',
			externalReference: 'ref-1'
		})
		await standin.settled()
		expect(withToken.received).toHaveLength(1)
		expect(withToken.received[0].headers.get('asaas-access-token')).toBe(TOKEN)
		expect(withToken.received[0].headers.get('content-type')).toBe('application/json')
		expect(withoutToken.received[0].headers.get('asaas-access-token')).toBeNull()
		const event = withToken.received[0].body
		expect(event.id).toMatch(/^evt_[0-9a-f]{32}&\d+$/)
		expect(event.event).toBe('PAYMENT_CREATED')
		expect(event.dateCreated).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
		expect(event.payment).toMatchObject({ object: 'payment', id: p.id, status: 'PENDING', externalReference: 'ref-1', value: 50 })
	})

	it('only 200 counts: 201, a redirect and 204 are failures retried with the same event id', async () => {
		const { standin, asaas, customer, hook } = setup()
		const statuses = [201, 302, 204, 200]
		const rx = receiver((n) => statuses[n - 1])
		await hook(rx.url, TOKEN, ['PAYMENT_CREATED'])
		await asaas.createPayment({ customer: await customer(), billingType: 'BOLETO', value: 10, dueDate: '2031-01-20' })
		await standin.settled()
		expect(standin.deliveries.map((d) => [d.attempt, d.status, d.delivered])).toEqual([
			[1, 201, false],
			[2, 302, false],
			[3, 204, false],
			[4, 200, true]
		])
		expect(new Set(rx.received.map((r) => r.body.id)).size).toBe(1)
	})

	it('a receiver slower than the delivery timeout is a failure', async () => {
		const { standin, asaas, customer, hook } = setup({ webhookTimeoutMs: 100 })
		const rx = receiver(async (n) => {
			if (n === 1) await Bun.sleep(300)
			return 200
		})
		await hook(rx.url, TOKEN, ['PAYMENT_CREATED'])
		await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 10, dueDate: '2031-01-20' })
		await standin.settled()
		expect(standin.deliveries.map((d) => [d.status, d.error, d.delivered])).toEqual([
			[null, 'timeout', false],
			[200, null, true]
		])
	})

	it('interrupts the queue after 15 consecutive failures, keeps queueing, and delivers in order once reactivated', async () => {
		const { standin, asaas, customer, hook } = setup()
		let down = true
		const rx = receiver(() => (down ? 500 : 200))
		const config = await hook(rx.url, TOKEN)
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 25, dueDate: '2031-01-20' })
		await standin.settled()
		expect(standin.deliveries).toHaveLength(15)
		expect(standin.deliveries.every((d) => d.status === 500 && !d.delivered)).toBe(true)
		const [state] = (await asaas.listWebhooks()).data
		expect(state).toMatchObject({ interrupted: true, penalizedRequestsCount: 1 })

		await asaas.sandboxConfirmPayment(p.id)
		await standin.settled()
		expect(standin.deliveries).toHaveLength(15)
		expect((await asaas.listWebhooks()).data[0].penalizedRequestsCount).toBe(3)

		down = false
		expect((await asaas.updateWebhook(config.id, { interrupted: false })).interrupted).toBe(false)
		await standin.settled()
		expect(rx.received.slice(15).map((r) => [r.body.event, r.body.payment.status])).toEqual([
			['PAYMENT_CREATED', 'PENDING'],
			['PAYMENT_CONFIRMED', 'CONFIRMED'],
			['PAYMENT_RECEIVED', 'RECEIVED']
		])
		expect((await asaas.listWebhooks()).data[0]).toMatchObject({ interrupted: false, penalizedRequestsCount: 0 })
	})

	it('removeBackoff tries a penalised delivery at once', async () => {
		const { standin, asaas, customer, hook } = setup({ webhookRetryDelaysMs: [60_000] })
		const rx = receiver((n) => (n === 1 ? 503 : 200))
		const config = await hook(rx.url, TOKEN, ['PAYMENT_CREATED'])
		await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 10, dueDate: '2031-01-20' })
		await until(() => standin.deliveries.length === 1)
		await Bun.sleep(20)
		expect(standin.deliveries).toHaveLength(1)
		await asaas.removeBackoff(config.id)
		await standin.settled()
		expect(standin.deliveries.map((d) => d.status)).toEqual([503, 200])
	})

	it('paused delivery queues events and sends them on resume', async () => {
		const { standin, asaas, customer, hook } = setup()
		const rx = receiver()
		await hook(rx.url, TOKEN, ['PAYMENT_CREATED'])
		standin.pauseDeliveries()
		await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 10, dueDate: '2031-01-20' })
		await standin.settled()
		expect(rx.received).toHaveLength(0)
		standin.resumeDeliveries()
		await standin.settled()
		expect(rx.received).toHaveLength(1)
	})

	it('delivers to an in-process handler through the fetch option', async () => {
		const got: AsaasEvent[] = []
		const handler = async (req: Request) => {
			got.push((await req.json()) as AsaasEvent)
			return new Response('ok')
		}
		const { standin, asaas, customer, hook } = setup({ fetch: (url, init) => handler(new Request(url, init)) })
		await hook('http://portal.invalid/api/asaas/webhook/fornecedor', TOKEN, ['PAYMENT_CREATED'])
		await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 10, dueDate: '2031-01-20' })
		await standin.settled()
		expect(got.map((e) => e.event)).toEqual(['PAYMENT_CREATED'])
	})
})

describe('payment events', () => {
	async function events(
		billingType: 'PIX' | 'BOLETO' | 'CREDIT_CARD' | 'UNDEFINED',
		act: (standin: ReturnType<typeof setup>['standin'], id: string) => unknown
	) {
		const got: AsaasEvent[] = []
		const ctx = setup({
			fetch: async (_url, init) => {
				got.push(JSON.parse(String(init.body)))
				return new Response('ok')
			}
		})
		await ctx.hook('http://portal.invalid/hook', TOKEN, [
			'PAYMENT_CONFIRMED',
			'PAYMENT_RECEIVED',
			'PAYMENT_OVERDUE',
			'PAYMENT_CHARGEBACK_REQUESTED'
		])
		const p = await ctx.asaas.createPayment({ customer: await ctx.customer(), billingType, value: 80, dueDate: '2031-01-20' })
		await act(ctx.standin, p.id)
		await ctx.standin.settled()
		return got
	}

	it('PIX confirm → PAYMENT_CONFIRMED then PAYMENT_RECEIVED, as Asaas', async () => {
		const got = await events('PIX', (s, id) => s.confirm(id))
		expect(got.map((e) => [e.event, e.payment.status])).toEqual([
			['PAYMENT_CONFIRMED', 'CONFIRMED'],
			['PAYMENT_RECEIVED', 'RECEIVED']
		])
		expect(got[1].payment.paymentDate).toBe('2031-01-10')
	})

	it('BOLETO (and UNDEFINED) confirm → PAYMENT_CONFIRMED then PAYMENT_RECEIVED, two event ids', async () => {
		for (const type of ['BOLETO', 'UNDEFINED'] as const) {
			const got = await events(type, (s, id) => s.confirm(id))
			expect(got.map((e) => [e.event, e.payment.status])).toEqual([
				['PAYMENT_CONFIRMED', 'CONFIRMED'],
				['PAYMENT_RECEIVED', 'RECEIVED']
			])
			expect(got[0].id).not.toBe(got[1].id)
			expect(got[0].payment.paymentDate).toBeNull()
		}
	})

	it('CREDIT_CARD confirm → CONFIRMED (funds not yet available)', async () => {
		const got = await events('CREDIT_CARD', (s, id) => s.confirm(id))
		expect(got.map((e) => [e.event, e.payment.status, e.payment.paymentDate])).toEqual([['PAYMENT_CONFIRMED', 'CONFIRMED', null]])
	})

	it('overdue → PAYMENT_OVERDUE; chargeback of a paid charge → PAYMENT_CHARGEBACK_REQUESTED', async () => {
		expect((await events('BOLETO', (s, id) => s.overdue(id))).map((e) => [e.event, e.payment.status])).toEqual([
			['PAYMENT_OVERDUE', 'OVERDUE']
		])
		const got = await events('CREDIT_CARD', (s, id) => {
			s.confirm(id)
			s.chargeback(id)
		})
		expect(got.map((e) => e.event)).toEqual(['PAYMENT_CONFIRMED', 'PAYMENT_CHARGEBACK_REQUESTED'])
		expect(got[1].payment.chargeback).toEqual({ status: 'REQUESTED', reason: 'ABSENCE_OF_PRINT' })
	})

	it('PUT changes an open charge (PAYMENT_UPDATED) and refuses a paid one; receiveInCash → RECEIVED_IN_CASH announced as PAYMENT_RECEIVED', async () => {
		const { standin, asaas, customer } = setup()
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 10, dueDate: '2031-01-20' })
		const updated = await asaas.updatePayment(p.id, { value: 12.5, description: 'Outro valor' })
		expect(updated).toMatchObject({ value: 12.5, description: 'Outro valor', status: 'PENDING' })
		expect((await asaas.getPayment(p.id)).value).toBe(12.5)
		const cash = await asaas.receiveInCash(p.id, { value: 12.5 })
		expect(cash).toMatchObject({ status: 'RECEIVED_IN_CASH', value: 12.5, paymentDate: '2031-01-10' })
		expect(asaas.updatePayment(p.id, { value: 1 })).rejects.toThrow('Só é possível alterar cobranças aguardando pagamento ou vencidas.')
		const refunded = await asaas.refundPayment(p.id)
		expect(refunded.status).toBe('REFUNDED')
		expect(standin.accounts.size).toBe(1)
	})

	it('the in-process controls refuse what Asaas refuses, in Portuguese', async () => {
		const { standin, asaas, customer } = setup()
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 10, dueDate: '2031-01-20' })
		standin.confirm(p.id)
		expect(() => standin.confirm(p.id)).toThrow('Só é possível confirmar cobranças aguardando pagamento ou vencidas.')
		expect(() => standin.overdue('pay_inexistente')).toThrow('Registro não encontrado.')
	})

	it('an installment plan emits PAYMENT_CREATED per parcel, and cancelling it PAYMENT_DELETED per open parcel', async () => {
		const got: AsaasEvent[] = []
		const { standin, asaas, customer, hook } = setup({
			fetch: async (_url, init) => {
				got.push(JSON.parse(String(init.body)))
				return new Response('ok')
			}
		})
		await hook('http://portal.invalid/hook', TOKEN, ['PAYMENT_CREATED', 'PAYMENT_DELETED'])
		const plan = await asaas.createInstallment({
			customer: await customer(),
			billingType: 'BOLETO',
			installmentCount: 3,
			totalValue: 30,
			dueDate: '2031-02-01'
		})
		const [first] = await asaas.listAllInstallmentPayments(plan.id)
		standin.confirm(first.id)
		await asaas.deleteInstallmentPendingPayments(plan.id)
		await standin.settled()
		expect(got.map((e) => [e.event, e.payment.installmentNumber])).toEqual([
			['PAYMENT_CREATED', 1],
			['PAYMENT_CREATED', 2],
			['PAYMENT_CREATED', 3],
			['PAYMENT_DELETED', 2],
			['PAYMENT_DELETED', 3]
		])
		expect(got.at(-1)?.payment.deleted).toBe(true)
	})
})

/** Checks what a PDF reader relies on: header, every xref offset landing on its object, startxref on the table. */
function checkPdfStructure(bytes: Uint8Array) {
	const text = Buffer.from(bytes).toString('latin1')
	expect(text).toStartWith('%PDF-1.4\n')
	const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1])
	expect(text.slice(startxref, startxref + 5)).toBe('xref\n')
	const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref)) ?? []
	expect(first).toBe('0')
	const entries = text
		.slice(startxref)
		.split('\n')
		.slice(2, 2 + Number(count))
	entries.slice(1).forEach((entry, i) => {
		expect(entry).toMatch(/^\d{10} 00000 n $/)
		expect(text.slice(Number(entry.slice(0, 10)))).toStartWith(`${i + 1} 0 obj\n`)
	})
	for (const m of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
		const start = (m.index ?? 0) + m[0].length
		expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream')
	}
	return text
}

describe('documents', () => {
	it('the carnê is a valid PDF with one page per parcel: value, due date and digitable line', async () => {
		const { asaas, customer } = setup()
		const plan = await asaas.createInstallment({
			customer: await customer(),
			billingType: 'BOLETO',
			installmentCount: 3,
			totalValue: 100,
			dueDate: '2031-02-10'
		})
		const parcels = await asaas.listAllInstallmentPayments(plan.id)
		const pdf = await asaas.getPaymentBook(plan.id)
		const text = checkPdfStructure(pdf)
		expect(text).toContain('/Count 3')
		expect(text).toContain('(Carn\xea - parcela 3 de 3)')
		expect(text).toContain('(Valor: R$ 33,34)')
		expect(text).toContain('(Vencimento: 10/04/2031)')
		const line = (await asaas.getIdentificationField(parcels[0].id)).identificationField
		expect(text).toContain(`${line.slice(0, 5)}.${line.slice(5, 10)} `)
		if (Bun.which('qpdf')) {
			const path = `${process.env.TMPDIR ?? '/tmp'}/carne-${plan.id}.pdf`
			await Bun.write(path, pdf)
			expect(Bun.spawnSync(['qpdf', '--check', path]).exitCode).toBe(0)
			if (Bun.which('pdftotext')) expect(Bun.spawnSync(['pdftotext', path, '-']).stdout.toString()).toContain('Vencimento: 10/03/2031')
		}
	})

	it('a parcel’s bankSlipUrl is a public PDF; a plan with no open parcel left has no carnê', async () => {
		const { asaas, customer } = setup()
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'BOLETO', value: 45.5, dueDate: '2031-01-25' })
		const res = await fetch(p.bankSlipUrl ?? '')
		expect(res.headers.get('content-type')).toBe('application/pdf')
		expect(checkPdfStructure(new Uint8Array(await res.arrayBuffer()))).toContain('(Valor: R$ 45,50)')
		const plan = await asaas.createInstallment({
			customer: await customer(),
			billingType: 'BOLETO',
			installmentCount: 2,
			totalValue: 20,
			dueDate: '2031-02-10'
		})
		await asaas.deleteInstallmentPendingPayments(plan.id)
		const e = await asaas.getPaymentBook(plan.id).catch((x: AsaasError) => x)
		expect(e).toMatchObject({ upstreamStatus: 404 })
	})
})

describe('accounts, page and controls', () => {
	it('keys: demo mode takes any $aact_ key as its own account; a fixed list refuses the rest; User-Agent is required', async () => {
		const { standin, asaas, customer } = setup()
		await customer()
		const other = createAsaasClient({ baseUrl: standin.url, apiKey: '$aact_outra_conta' })
		expect(await other.findCustomerByCpfCnpj(CNPJ)).toBeNull()
		expect(await asaas.findCustomerByCpfCnpj(CNPJ)).not.toBeNull()
		const bad = await createAsaasClient({ baseUrl: standin.url, apiKey: 'sem-prefixo' })
			.listWebhooks()
			.catch((e: AsaasError) => e)
		expect(bad).toMatchObject({ upstreamStatus: 401, code: 'invalid_access_token' })

		const fixed = createAsaasStandin({ keys: ['$aact_a'] })
		const noAgent = await fixed.handle(new Request('http://asaas.local/v3/webhooks', { headers: { access_token: '$aact_a' } }))
		expect(noAgent.status).toBe(400)
		expect(await noAgent.json()).toEqual({
			errors: [{ code: 'invalid_user_agent', description: 'O header User-Agent é obrigatório.' }]
		})
		const unknown = await fixed.handle(
			new Request('http://asaas.local/v3/webhooks', { headers: { access_token: '$aact_b', 'user-agent': 't' } })
		)
		expect(unknown.status).toBe(401)
	})

	it('works in-process without a socket, drops and delays included', async () => {
		const standin = createAsaasStandin({ now })
		const asaas = createAsaasClient({
			baseUrl: 'http://asaas.local/v3',
			apiKey: '$aact_local',
			timeoutMs: 100,
			maxRetries: 0,
			fetch: (url, init) => standin.handle(new Request(url, init))
		})
		const c = await asaas.createCustomer({ name: 'Em Processo', cpfCnpj: CNPJ })
		standin.failNext({ path: '/payments', mode: 'drop-after-apply' })
		const dropped = await asaas
			.createPayment({ customer: c.id, billingType: 'BOLETO', value: 1, dueDate: '2031-02-01', externalReference: 'x' })
			.catch((e: AsaasError) => e)
		expect(dropped).toMatchObject({ code: 'network', uncertain: true })
		const [p] = (await asaas.listPayments({ externalReference: 'x' })).data
		expect(p.bankSlipUrl).toStartWith('http://asaas.local/b/pdf/')
		standin.failNext({ method: 'GET', mode: 'delay', ms: 1000 })
		expect(await asaas.getPayment(p.id).catch((e: AsaasError) => e.code)).toBe('timeout')
	})

	it('the page lists every account’s charges with a "pagar" button that confirms the charge', async () => {
		const { standin, asaas } = setup()
		const c = await asaas.createCustomer({ name: 'Loja <Teste> & Cia', cpfCnpj: CNPJ })
		const p = await asaas.createPayment({
			customer: c.id,
			billingType: 'BOLETO',
			value: 1234.5,
			dueDate: '2031-03-05',
			description: 'Licença'
		})
		const html = await (await fetch(`${standin.origin}/`)).text()
		expect(html).toContain('Loja &#60;Teste&#62; &#38; Cia')
		expect(html).toContain('R$ 1.234,50')
		expect(html).toContain('05/03/2031')
		expect(html).toContain('Aguardando pagamento')
		expect(html).toContain(`action="/__standin/payments/${p.id}/confirm"`)
		const paid = await fetch(`${standin.origin}/__standin/payments/${p.id}/confirm`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${standin.origin}/` },
			redirect: 'manual'
		})
		expect(paid.status).toBe(303)
		expect((await asaas.getPayment(p.id)).status).toBe('RECEIVED')
		expect(await (await fetch(p.invoiceUrl)).text()).toContain('Recebida')
	})

	it('HTTP controls: a failure rule, the delivery record, pause and a payment action', async () => {
		const { standin, asaas, customer } = setup()
		const control = (path: string, body?: unknown) =>
			fetch(`${standin.origin}/__standin${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) })
		await control('/fail', {
			path: '/webhooks',
			mode: 'status',
			status: 418,
			body: { errors: [{ code: 'teapot', description: 'Sou um bule.' }] }
		})
		expect(await asaas.listWebhooks().catch((e: AsaasError) => e.message)).toBe('Sou um bule.')
		expect(await (await control('/deliveries/pause')).json()).toEqual({ paused: true })
		expect(await (await control('/deliveries/resume')).json()).toEqual({ paused: false })
		const p = await asaas.createPayment({ customer: await customer(), billingType: 'PIX', value: 3, dueDate: '2031-01-20' })
		expect(((await (await control(`/payments/${p.id}/overdue`)).json()) as { status: string }).status).toBe('OVERDUE')
		const refused = await control(`/payments/${p.id}/chargeback`)
		expect(refused.status).toBe(400)
		expect(await (await fetch(`${standin.origin}/__standin/deliveries`)).json()).toEqual([])
	})
})
