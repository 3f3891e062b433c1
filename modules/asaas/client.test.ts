import { afterAll, beforeEach, describe, expect, it } from 'bun:test'
import { rejection } from '../../apps/server/testing'
import { AsaasError, type AsaasClientOptions, createAsaasClient } from './client'
import type { NewInstallment } from './types'
import { startAsaasStandin } from './standin'

const KEY = '$aact_hmlg_client_tests'
const OTHER_KEY = '$aact_prod_other_environment'
const CPF = '52998224725'
const CNPJ = '11222333000181'
const standin = startAsaasStandin({ keys: [KEY], now: () => new Date('2031-01-10T12:00:00Z') })
standin.registerPixKey(KEY)
afterAll(() => standin.stop())

let sleeps: number[] = []
beforeEach(() => {
	sleeps = []
})
const client = (options: Partial<AsaasClientOptions> = {}) =>
	createAsaasClient({
		baseUrl: standin.url,
		apiKey: KEY,
		timeoutMs: 300,
		sleep: async (ms) => {
			sleeps.push(ms)
		},
		...options
	})
const asaas = client()
const account = () => standin.accounts.get(KEY) ?? expect.unreachable('the account exists from the start')

const failure = (p: Promise<unknown>) => rejection(p, AsaasError)

let customerId = ''
async function customer() {
	customerId ||=
		(await asaas.findCustomerByCpfCnpj(CNPJ))?.id ?? (await asaas.createCustomer({ name: 'Mercadinho Bom Preço', cpfCnpj: CNPJ })).id
	return customerId
}

/** createPayment's input for a charge to the test customer. */
async function charge(billingType: 'PIX' | 'BOLETO', value: number, dueDate: string, externalReference?: string) {
	return { customer: await customer(), billingType, value, dueDate, externalReference }
}

/** createInstallment's input for a plan of the test customer: `totalValue` split by Asaas, or `value` a parcel. */
async function newPlan(
	billingType: 'PIX' | 'BOLETO',
	installmentCount: number,
	dueDate: string,
	amount: { totalValue: number } | { value: number },
	extra: Pick<NewInstallment, 'description' | 'paymentExternalReference'> = {}
): Promise<NewInstallment> {
	return { customer: await customer(), billingType, installmentCount, ...amount, dueDate, ...extra }
}

describe('customers', () => {
	it('finds nothing, creates, then finds by CPF/CNPJ (digits or formatted)', async () => {
		expect(await asaas.findCustomerByCpfCnpj(CPF)).toBeNull()
		const created = await asaas.createCustomer({
			name: 'Maria da Silva',
			cpfCnpj: CPF,
			mobilePhone: '85999990001',
			notificationDisabled: true
		})
		expect(created).toMatchObject({
			object: 'customer',
			name: 'Maria da Silva',
			cpfCnpj: CPF,
			personType: 'FISICA',
			notificationDisabled: true
		})
		expect(created.id).toStartWith('cus_')
		expect((await asaas.findCustomerByCpfCnpj('529.982.247-25'))?.id).toBe(created.id)
	})

	it('keeps the letters of an alphanumeric CNPJ (valid since July 2026) when creating and finding a customer', async () => {
		const created = await asaas.createCustomer({ name: 'Norte Sistemas', cpfCnpj: '12.ABC.345/01DE-35' })
		expect(created).toMatchObject({ cpfCnpj: '12ABC34501DE35', personType: 'JURIDICA' })
		expect((await asaas.findCustomerByCpfCnpj('12.abc.345/01de-35'))?.id).toBe(created.id)
		const wrong = await failure(asaas.createCustomer({ name: 'X', cpfCnpj: '12ABC34501DE36' }))
		expect(wrong.message).toBe('O CPF/CNPJ informado é inválido.')
	})

	it("switches a customer's Asaas notifications off (PUT /customers/{id}), keeping what it was not told to change", async () => {
		const created = await asaas.createCustomer({ name: 'Loja Avisada', cpfCnpj: '11144477735', email: 'loja@example.com' })
		expect(created.notificationDisabled).toBe(false)
		const updated = await asaas.updateCustomer(created.id, { notificationDisabled: true })
		expect(updated).toMatchObject({ id: created.id, name: 'Loja Avisada', email: 'loja@example.com', notificationDisabled: true })
		expect((await asaas.getCustomer(created.id)).notificationDisabled).toBe(true)
		expect((await failure(asaas.updateCustomer(created.id, { cpfCnpj: '12345678900' }))).message).toBe('O CPF/CNPJ informado é inválido.')
		expect((await failure(asaas.updateCustomer('cus_000000000000', { notificationDisabled: true }))).upstreamStatus).toBe(404)
	})

	it('an invalid CPF comes back as the Portuguese description, never as a `status` property', async () => {
		const e = await failure(asaas.createCustomer({ name: 'X', cpfCnpj: '12345678900' }))
		expect(e.message).toBe('O CPF/CNPJ informado é inválido.')
		expect(e).toMatchObject({ upstreamStatus: 400, code: 'invalid_object', uncertain: false })
		expect('status' in e).toBe(false)
	})
})

describe('payments', () => {
	it('creates a PIX charge, reads it, lists it by externalReference and gets its QR code', async () => {
		const p = await asaas.createPayment(await charge('PIX', 150, '2031-01-15', 'compra-1'))
		expect(p).toMatchObject({
			object: 'payment',
			status: 'PENDING',
			value: 150,
			billingType: 'PIX',
			externalReference: 'compra-1',
			bankSlipUrl: null
		})
		expect((await asaas.getPayment(p.id)).id).toBe(p.id)
		const list = await asaas.listPayments({ externalReference: 'compra-1' })
		expect(list).toMatchObject({ object: 'list', hasMore: false, totalCount: 1, offset: 0 })
		expect(list.data.map((x) => x.id)).toEqual([p.id])

		const qr = await asaas.getPixQrCode(p.id)
		expect(Buffer.from(qr.encodedImage, 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
		expect(qr.payload).toStartWith('000201')
		expect(qr.payload).toContain('br.gov.bcb.pix')
		expect(qr.payload).toContain('5406150.00')
		expect(qr.expirationDate).toBe('2032-01-15 23:59:59')
	})

	it('a boleto has a 47-digit line and a 44-digit barcode; a PIX charge has no line', async () => {
		const boleto = await asaas.createPayment(await charge('BOLETO', 89.9, '2031-02-01'))
		const field = await asaas.getIdentificationField(boleto.id)
		expect(field.identificationField).toMatch(/^\d{47}$/)
		expect(field.barCode).toMatch(/^\d{44}$/)
		expect(field.identificationField.slice(-10)).toBe('0000008990')
		const pix = await asaas.createPayment(await charge('PIX', 10, '2031-02-01'))
		const e = await failure(asaas.getIdentificationField(pix.id))
		expect(e.message).toBe('Esta cobrança não é um boleto e não tem linha digitável.')
	})

	it('lists with offset and limit, newest first, and filters by status', async () => {
		const ids = []
		for (let i = 0; i < 3; i++) ids.push((await asaas.createPayment(await charge('BOLETO', 10 + i, '2031-03-01', 'lote'))).id)
		const first = await asaas.listPayments({ externalReference: 'lote', limit: 2 })
		expect(first).toMatchObject({ hasMore: true, totalCount: 3, limit: 2 })
		expect(first.data.map((p) => p.id)).toEqual([ids[2], ids[1]])
		const rest = await asaas.listPayments({ externalReference: 'lote', limit: 2, offset: 2 })
		expect(rest).toMatchObject({ hasMore: false, offset: 2 })
		expect(rest.data.map((p) => p.id)).toEqual([ids[0]])
		expect((await asaas.listPayments({ externalReference: 'lote', status: 'RECEIVED' })).totalCount).toBe(0)
	})

	it('deletes an open charge (then 404, as Asaas may answer), refuses a paid one, refunds a paid one', async () => {
		const open = await asaas.createPayment(await charge('BOLETO', 30, '2031-01-20', 'apagar'))
		expect(await asaas.deletePayment(open.id)).toEqual({ deleted: true, id: open.id })
		expect((await failure(asaas.getPayment(open.id))).upstreamStatus).toBe(404)
		expect((await asaas.listPayments({ externalReference: 'apagar' })).totalCount).toBe(0)

		const paid = await asaas.createPayment(await charge('PIX', 40, '2031-01-20'))
		expect((await asaas.sandboxConfirmPayment(paid.id)).status).toBe('RECEIVED')
		const e = await failure(asaas.deletePayment(paid.id))
		expect(e.message).toBe('Só é possível remover cobranças aguardando pagamento ou vencidas.')
		const refunded = await asaas.refundPayment(paid.id)
		expect(refunded.status).toBe('REFUNDED')
		expect(refunded.refunds?.[0]).toMatchObject({ status: 'DONE', value: 40 })
	})

	it('sandbox overdue turns a pending charge OVERDUE', async () => {
		const p = await asaas.createPayment(await charge('BOLETO', 12, '2031-01-10'))
		expect((await asaas.sandboxOverduePayment(p.id)).status).toBe('OVERDUE')
		expect((await failure(asaas.sandboxOverduePayment(p.id))).message).toBe('Só é possível vencer cobranças aguardando pagamento.')
	})

	it('an unknown id is a 404 with a Portuguese message', async () => {
		const e = await failure(asaas.getPayment('pay_nao_existe'))
		expect(e).toMatchObject({ upstreamStatus: 404, code: 'not_found', message: 'Registro não encontrado no Asaas.' })
	})
})

describe('installments', () => {
	it('splits the total in centavos with the remainder on the last parcel, monthly, with the reference on every parcel', async () => {
		const plan = await asaas.createInstallment(
			await newPlan(
				'BOLETO',
				12,
				'2031-01-31',
				{ totalValue: 350 },
				{ description: 'Carnê licença anual', paymentExternalReference: 'carne-7' }
			)
		)
		expect(plan).toMatchObject({ object: 'installment', value: 350, installmentCount: 12, paymentValue: 29.24, expirationDay: 31 })
		expect((await asaas.getInstallment(plan.id)).id).toBe(plan.id)
		const parcels = await asaas.listAllInstallmentPayments(plan.id)
		expect(parcels.map((p) => p.value)).toEqual([...Array(11).fill(29.16), 29.24])
		expect(parcels.map((p) => p.dueDate).slice(0, 4)).toEqual(['2031-01-31', '2031-02-28', '2031-03-31', '2031-04-30'])
		expect(parcels.every((p) => p.installment === plan.id && p.externalReference === 'carne-7')).toBe(true)
		expect(parcels.map((p) => p.installmentNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
		expect(parcels[0].bankSlipUrl).toStartWith(`${standin.origin}/b/pdf/`)
		expect(parcels[0].invoiceUrl).toStartWith(`${standin.origin}/i/`)

		const page = await asaas.listPayments({ installment: plan.id, offset: 10, limit: 5 })
		expect(page).toMatchObject({ hasMore: false, totalCount: 12, offset: 10 })
		expect(page.data.map((p) => p.installmentNumber)).toEqual([2, 1])
	})

	it('listAllInstallmentPayments follows hasMore when the server pages smaller than asked', async () => {
		const plan = await asaas.createInstallment(await newPlan('PIX', 12, '2031-02-05', { value: 10 }))
		// A server that caps pages at 5: the client must keep asking from where the last page ended.
		const capped = client({ fetch: (url, init) => fetch(url.replace('limit=100', 'limit=5'), init) })
		const parcels = await capped.listAllInstallmentPayments(plan.id)
		expect(parcels.map((p) => p.installmentNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
		expect(parcels.every((p) => p.value === 10)).toBe(true)
	})

	it('createPayment with installmentCount answers the first parcel of a new plan', async () => {
		const first = await asaas.createPayment(await newPlan('BOLETO', 3, '2031-03-10', { totalValue: 100 }))
		expect(first).toMatchObject({ installmentNumber: 1, value: 33.33 })
		const parcels = await asaas.listAllInstallmentPayments(first.installment ?? '')
		expect(parcels.map((p) => p.value)).toEqual([33.33, 33.33, 33.34])
	})

	it('deleting pending parcels keeps the paid ones; with none left the plan is deleted too', async () => {
		const plan = await asaas.createInstallment(await newPlan('BOLETO', 4, '2031-01-15', { totalValue: 400 }))
		const [first, second] = await asaas.listAllInstallmentPayments(plan.id)
		await asaas.sandboxConfirmPayment(first.id)
		await asaas.sandboxOverduePayment(second.id)
		const removed = await asaas.deleteInstallmentPendingPayments(plan.id)
		expect(removed.deleted).toBe(true)
		expect(removed.deletedPayments.map((p) => p.id)).toHaveLength(3)
		expect(removed.deletedPayments.map((p) => p.id)).toContain(second.id)
		expect((await asaas.listAllInstallmentPayments(plan.id)).map((p) => p.id)).toEqual([first.id])
		expect((await asaas.getInstallment(plan.id)).deleted).toBe(false)
		expect((await asaas.listAllInstallmentPayments(plan.id, { status: 'PENDING' })).length).toBe(0)

		const unpaid = await asaas.createInstallment(await newPlan('PIX', 2, '2031-01-15', { totalValue: 20 }))
		await asaas.deleteInstallmentPendingPayments(unpaid.id)
		expect((await asaas.getInstallment(unpaid.id)).deleted).toBe(true)
	})

	it('downloads the carnê as PDF bytes', async () => {
		const plan = await asaas.createInstallment(await newPlan('BOLETO', 3, '2031-04-01', { totalValue: 90 }))
		const pdf = await asaas.getPaymentBook(plan.id)
		expect(pdf).toBeInstanceOf(Uint8Array)
		const text = Buffer.from(pdf).toString('latin1')
		expect(text).toStartWith('%PDF-1.4')
		expect(text).toContain('/Count 3')
		expect(text.trimEnd()).toEndWith('%%EOF')
	})
})

describe('webhooks', () => {
	it('lists (the cheap key check), creates with a token it never returns, updates and removes the backoff', async () => {
		expect((await asaas.listWebhooks()).data).toEqual([])
		const e = await failure(
			asaas.createWebhook({
				name: 'Portal',
				url: 'http://127.0.0.1:9/x',
				sendType: 'SEQUENTIALLY',
				events: ['PAYMENT_RECEIVED'],
				authToken: 'curto'
			})
		)
		expect(e.message).toBe('O token de autenticação deve ter de 32 a 255 caracteres, sem espaços.')

		const hook = await asaas.createWebhook({
			name: 'Portal',
			url: 'http://127.0.0.1:9/api/asaas/webhook/fornecedor',
			email: 'financeiro@example.com',
			sendType: 'SEQUENTIALLY',
			events: ['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED'],
			authToken: 'x'.repeat(40),
			enabled: false
		})
		expect(hook).toMatchObject({ enabled: false, interrupted: false, hasAuthToken: true, penalizedRequestsCount: 0, apiVersion: 3 })
		expect(JSON.stringify(hook)).not.toContain('x'.repeat(40))
		const updated = await asaas.updateWebhook(hook.id, { url: 'http://127.0.0.1:9/outra', interrupted: false })
		expect(updated).toMatchObject({ url: 'http://127.0.0.1:9/outra', enabled: false })
		expect((await asaas.removeBackoff(hook.id)).penalizedRequestsCount).toBe(0)
		expect((await asaas.listWebhooks()).data.map((w) => w.id)).toEqual([hook.id])

		for (let i = 1; i < 10; i++)
			await asaas.createWebhook({
				name: `w${i}`,
				url: 'http://127.0.0.1:9/',
				email: 'financeiro@example.com',
				sendType: 'NON_SEQUENTIALLY',
				events: ['PAYMENT_CREATED'],
				enabled: false
			})
		const eleventh = await failure(
			asaas.createWebhook({
				name: 'w11',
				url: 'http://127.0.0.1:9/',
				email: 'financeiro@example.com',
				sendType: 'SEQUENTIALLY',
				events: ['PAYMENT_CREATED']
			})
		)
		expect(eleventh.message).toBe('A conta já tem o máximo de 10 webhooks.')
		for (const w of account().webhooks.keys()) account().webhooks.delete(w)
	})
})

describe('errors and retries', () => {
	it('a wrong key (or one of the other environment) is a 401 telling what to check, not retried', async () => {
		const e = await failure(client({ apiKey: OTHER_KEY }).listWebhooks())
		expect(e.message).toBe(
			'O Asaas recusou a chave de API: confira se ela está correta e se pertence ao ambiente escolhido (sandbox ou produção).'
		)
		expect(e).toMatchObject({ upstreamStatus: 401, code: 'invalid_access_token', uncertain: false })
		expect(sleeps).toEqual([])
	})

	it('the error envelope becomes its descriptions, in Portuguese as Asaas writes them', async () => {
		const past = await failure(asaas.createPayment(await charge('PIX', 5, '2031-01-09')))
		expect(past.message).toBe('A data de vencimento não pode ser anterior à data atual.')
		expect(past.code).toBe('invalid_dueDate')
		standin.failNext({
			path: '/customers',
			mode: 'status',
			status: 400,
			body: {
				errors: [
					{ code: 'invalid_email', description: 'O e-mail informado é inválido.' },
					{ code: 'invalid_phone', description: 'O telefone é inválido.' }
				]
			}
		})
		const both = await failure(asaas.findCustomerByCpfCnpj(CPF))
		expect(both.message).toBe('O e-mail informado é inválido. O telefone é inválido.')
		expect(both.code).toBe('invalid_email')
	})

	it('429 waits RateLimit-Reset seconds and retries', async () => {
		standin.failNext({ method: 'GET', path: '/payments', mode: 'rate-limit', resetSeconds: 7 })
		const list = await asaas.listPayments({ limit: 1 })
		expect(list.object).toBe('list')
		expect(sleeps).toEqual([7000])
	})

	it('429 with a reset beyond the longest wait fails at once, saying when to try again', async () => {
		standin.failNext({ method: 'GET', path: '/payments', mode: 'rate-limit', resetSeconds: 120 })
		const e = await failure(asaas.listPayments())
		expect(e).toMatchObject({ upstreamStatus: 429, code: 'rate_limited', retryAfterSeconds: 120, uncertain: false })
		expect(e.message).toBe('Limite de requisições do Asaas atingido para esta conta. Tente novamente em 120 s.')
		expect(sleeps).toEqual([])
	})

	it('a creating POST refused with 429 was not applied, so it is retried and applied once', async () => {
		standin.failNext({ method: 'POST', path: '/payments', mode: 'rate-limit', resetSeconds: 2 })
		await asaas.createPayment(await charge('PIX', 7, '2031-05-01', 'apos-429'))
		expect(sleeps).toEqual([2000])
		expect((await asaas.listPayments({ externalReference: 'apos-429' })).totalCount).toBe(1)
	})

	it('GET retries 5xx with growing backoff and gives up after maxRetries', async () => {
		standin.failNext({ method: 'GET', path: '/webhooks', mode: 'status', status: 502, times: 2 })
		expect((await asaas.listWebhooks()).object).toBe('list')
		expect(sleeps).toEqual([500, 1000])

		sleeps = []
		standin.failNext({ method: 'GET', path: '/webhooks', mode: 'status', status: 503, times: 4 })
		const e = await failure(asaas.listWebhooks())
		expect(e).toMatchObject({ upstreamStatus: 503, code: 'upstream_error', uncertain: false })
		expect(e.message).toBe('O Asaas está com instabilidade (erro 503). Tente novamente em instantes.')
		expect(sleeps).toEqual([500, 1000, 2000])
	})

	it('a GET that times out is retried; with no retries left it says Asaas did not answer in time', async () => {
		standin.failNext({ method: 'GET', path: '/webhooks', mode: 'delay', ms: 1000 })
		expect((await asaas.listWebhooks()).object).toBe('list')
		expect(sleeps).toEqual([500])

		standin.failNext({ method: 'GET', path: '/webhooks', mode: 'delay', ms: 1000 })
		const e = await failure(client({ maxRetries: 0 }).listWebhooks())
		expect(e).toMatchObject({ code: 'timeout', upstreamStatus: null, uncertain: false })
		expect(e.message).toBe('O Asaas não respondeu a tempo. Tente novamente em instantes.')
	})

	it('a creating POST that times out is uncertain, not repeated, and found afterwards by its reference', async () => {
		standin.failNext({ method: 'POST', path: '/payments', mode: 'delay', ms: 1000 })
		const before = account().payments.size
		const e = await failure(asaas.createPayment(await charge('PIX', 55, '2031-06-01', 'lenta-1')))
		expect(e).toMatchObject({ code: 'timeout', uncertain: true })
		expect(e.message).toBe(
			'O Asaas não respondeu a tempo. Tente novamente em instantes. A operação pode ter sido registrada: confira antes de repetir.'
		)
		expect(sleeps).toEqual([])
		expect(account().payments.size).toBe(before + 1)
		expect((await asaas.listPayments({ externalReference: 'lenta-1' })).data[0].value).toBe(55)
	})

	it('a creating POST whose connection drops after it was applied is uncertain; exactly one object exists', async () => {
		standin.failNext({ method: 'POST', path: '/payments', mode: 'drop-after-apply' })
		const before = account().payments.size
		const e = await failure(asaas.createPayment(await charge('BOLETO', 99, '2031-06-01', 'caiu-1')))
		expect(e).toMatchObject({ code: 'network', uncertain: true, upstreamStatus: null })
		expect(e.message).toBe('A conexão com o Asaas caiu antes da resposta. A operação pode ter sido registrada: confira antes de repetir.')
		expect(sleeps).toEqual([])
		expect(account().payments.size).toBe(before + 1)
		const found = await asaas.listPayments({ externalReference: 'caiu-1' })
		expect(found.totalCount).toBe(1)
	})

	it('an installment plan whose answer is lost is found by its parcels’ reference', async () => {
		standin.failNext({ method: 'POST', path: '/installments', mode: 'drop-after-apply' })
		const before = account().installments.size
		const e = await failure(
			asaas.createInstallment({
				customer: await customer(),
				billingType: 'BOLETO',
				installmentCount: 3,
				totalValue: 60,
				dueDate: '2031-07-01',
				paymentExternalReference: 'carne-caiu'
			})
		)
		expect(e.uncertain).toBe(true)
		expect(account().installments.size).toBe(before + 1)
		const parcels = await asaas.listPayments({ externalReference: 'carne-caiu' })
		expect(parcels.totalCount).toBe(3)
		expect(new Set(parcels.data.map((p) => p.installment)).size).toBe(1)
	})

	it('a creating POST answered 5xx is uncertain and not repeated', async () => {
		standin.failNext({ method: 'POST', path: '/customers', mode: 'status', status: 500 })
		const e = await failure(asaas.createCustomer({ name: 'Y', cpfCnpj: CPF }))
		expect(e).toMatchObject({ upstreamStatus: 500, uncertain: true })
		expect(e.message).toBe(
			'O Asaas está com instabilidade (erro 500). Tente novamente em instantes. A operação pode ter sido registrada: confira antes de repetir.'
		)
		expect(sleeps).toEqual([])
	})

	it('a refused connection names the host; nothing was sent, so even a POST may be retried', async () => {
		const closed = startAsaasStandin()
		await closed.stop()
		const offline = client({ baseUrl: closed.url, maxRetries: 1 })
		const e = await failure(offline.createCustomer({ name: 'Z', cpfCnpj: CPF }))
		expect(e).toMatchObject({ code: 'network', uncertain: false, upstreamStatus: null })
		expect(e.message).toBe(
			`Não foi possível conectar ao Asaas (${new URL(closed.url).host}). Verifique a conexão com a internet e tente novamente.`
		)
		expect(sleeps).toEqual([500])
	})

	it('sends the key, a User-Agent (K-Licencas/2.1 unless told) and JSON; GET carries no body', async () => {
		const seen: { method: string; headers: Headers; body: string }[] = []
		const spy = (userAgent?: string) =>
			client({
				userAgent,
				fetch: async (url, init) => {
					const req = new Request(url, init)
					seen.push({ method: req.method, headers: req.headers, body: await req.clone().text() })
					return fetch(req)
				}
			})
		await spy().listWebhooks()
		await spy('Outro/1').createCustomer({ name: 'Cabeçalhos', cpfCnpj: CPF })
		expect(seen.map((s) => [s.method, s.headers.get('access_token'), s.headers.get('user-agent')])).toEqual([
			['GET', KEY, 'K-Licencas/2.1'],
			['POST', KEY, 'Outro/1']
		])
		expect(seen[0].body).toBe('')
		expect(seen[1].headers.get('content-type')).toBe('application/json')
		expect(JSON.parse(seen[1].body)).toEqual({ name: 'Cabeçalhos', cpfCnpj: CPF })
	})
})
