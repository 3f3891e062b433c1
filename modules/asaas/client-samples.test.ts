import { describe, expect, it } from 'bun:test'
import { AsaasError, createAsaasClient, type FetchLike, isAmountRefusal } from './client'
import {
	parseCustomer,
	parseDeleted,
	parseEvent,
	parseIdentificationField,
	parseInstallment,
	parseList,
	parsePayment,
	parsePaymentStatus,
	parsePixQrCode
} from './parse'
import { sample, sampleNames } from './samples'
import { createAsaasStandin } from './standin'

/** A client whose every call is answered by `answer` (status and JSON body), recording the requests. */
function fake(answer: (req: Request) => Response | Promise<Response>) {
	const seen: Request[] = []
	const fetch: FetchLike = async (url, init) => {
		const req = new Request(url, init)
		seen.push(req)
		return answer(req)
	}
	const asaas = createAsaasClient({ baseUrl: 'https://api-sandbox.asaas.com/v3', apiKey: '$aact_hmlg_x', fetch, maxRetries: 0 })
	return { asaas, seen }
}
const jsonAnswer = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

/** What each sample reads as: ids, statuses, values, dates and nulls as Asaas sent them. */
const EXPECTED = {
	'customers.create.response.official-openapi.json': 'cus_000005401844',
	'customers.create.response.sandbox-capture.json': ['cus_000008392496', 'paridade@example.com', null],
	'customers.list.response.official-openapi.json': ['cus_000005401844', 'cus_000005401844'],
	'customers.notifications.list.response.official-docs.json': 8,
	'installments.create.response.sandbox-capture.json': ['857d8e6a-f6c7-489b-b86e-8399d55405f6', 350, 29.24, 12],
	'payments.create.boleto-fine-interest-discount.response.sandbox-capture.json': [
		'pay_pngqmn2bxuyccy7z',
		'PENDING',
		350,
		'2026-07-24',
		null
	],
	'payments.create.pix.response.sandbox-capture.json': ['pay_ibvub5tu20v9lxr7', 'PENDING', 100, '2026-07-19', null, null],
	'payments.create.response.official-docs.json': ['pay_080225913252', 'PENDING', 20, '2017-06-10', '056984', 3],
	'payments.delete.response.official-openapi.json': { deleted: true, id: 'pay_pCczZjBBr6RL' },
	'payments.get.pix-pending.response.sandbox-capture.json': ['pay_ibvub5tu20v9lxr7', 'PENDING', 100, '2026-07-19', null],
	'payments.identificationField.response.official-docs.json': 47,
	'payments.identificationField.response.official-openapi.json': 44,
	'payments.list.by-installment.response.sandbox-capture.json': [
		[12, 29.24],
		[11, 29.16],
		[10, 29.16],
		[9, 29.16],
		[8, 29.16],
		[7, 29.16],
		[6, 29.16],
		[5, 29.16],
		[4, 29.16],
		[3, 29.16],
		[2, 29.16],
		[1, 29.16]
	],
	'payments.pixQrCode.response.official-openapi.json': '000201',
	'payments.status.response.official-openapi.json': { status: 'PENDING' },
	'webhook.INVOICE_CREATED.official-docs.json': ['INVOICE_CREATED', null],
	'webhook.PAYMENT_RECEIVED.official-docs.json': [
		'evt_05b708f961d739ea7eba7e4db318f621&368604920',
		'PAYMENT_RECEIVED',
		['pay_080225913252', 'RECEIVED', 100, '2021-01-01', '056984']
	],
	'webhook.SUBSCRIPTION_CREATED.official-docs.json': ['SUBSCRIPTION_CREATED', null]
}

describe('every Asaas sample goes through the client’s parser of its kind', () => {
	const payment = (p: ReturnType<typeof parsePayment>) => [p.id, p.status, p.value, p.dueDate, p.externalReference]
	const cases: Record<string, (v: unknown) => unknown> = {
		'customers.create.response.official-openapi.json': (v) => parseCustomer(v).id,
		'customers.create.response.sandbox-capture.json': (v) => [parseCustomer(v).id, parseCustomer(v).email, parseCustomer(v).phone],
		'customers.list.response.official-openapi.json': (v) => parseList(v, parseCustomer).data.map((c) => c.id),
		'customers.notifications.list.response.official-docs.json': (v) => parseList(v, (x) => x).totalCount,
		'installments.create.response.sandbox-capture.json': (v) => {
			const plan = parseInstallment(v)
			return [plan.id, plan.value, plan.paymentValue, plan.installmentCount]
		},
		'payments.create.boleto-fine-interest-discount.response.sandbox-capture.json': (v) => payment(parsePayment(v)),
		'payments.create.pix.response.sandbox-capture.json': (v) => [...payment(parsePayment(v)), parsePayment(v).installment],
		'payments.create.response.official-docs.json': (v) => [...payment(parsePayment(v)), parsePayment(v).installmentNumber],
		'payments.delete.response.official-openapi.json': (v) => parseDeleted(v),
		'payments.get.pix-pending.response.sandbox-capture.json': (v) => payment(parsePayment(v)),
		'payments.identificationField.response.official-docs.json': (v) => parseIdentificationField(v).identificationField.length,
		'payments.identificationField.response.official-openapi.json': (v) => parseIdentificationField(v).barCode.length,
		'payments.list.by-installment.response.sandbox-capture.json': (v) =>
			parseList(v, parsePayment).data.map((p) => [p.installmentNumber, p.value]),
		'payments.pixQrCode.response.official-openapi.json': (v) => parsePixQrCode(v).payload.slice(0, 6),
		'payments.status.response.official-openapi.json': (v) => parsePaymentStatus(v),
		'webhook.INVOICE_CREATED.official-docs.json': (v) => [parseEvent(v).event, parseEvent(v).payment],
		'webhook.PAYMENT_RECEIVED.official-docs.json': (v) => {
			const e = parseEvent(v)
			return [e.id, e.event, e.payment && payment(e.payment)]
		},
		'webhook.SUBSCRIPTION_CREATED.official-docs.json': (v) => [parseEvent(v).event, parseEvent(v).payment]
	}
	const errors = [
		'customers.create.error-400-invalid-cpf.sandbox-capture.json',
		'installments.create.error-400.official-openapi.json',
		'payments.create.error-400-empty-body.sandbox-capture.json',
		'payments.create.error-400.official-openapi.json'
	]

	it('no sample is left out', () => {
		expect(sampleNames().sort()).toEqual([...Object.keys(cases), ...errors].sort())
	})

	it('parses each success sample', () => {
		const read = Object.fromEntries(Object.entries(cases).map(([name, parse]) => [name, parse(sample(name))]))
		expect(read).toEqual(EXPECTED)
		expect(read['payments.list.by-installment.response.sandbox-capture.json']).toEqual(
			Array.from({ length: 12 }, (_, i) => [12 - i, i === 0 ? 29.24 : 29.16])
		)
		expect(read['payments.create.pix.response.sandbox-capture.json']).toEqual([
			'pay_ibvub5tu20v9lxr7',
			'PENDING',
			100,
			'2026-07-19',
			null,
			null
		])
	})

	it('each error sample becomes an AsaasError with its code and description', async () => {
		for (const name of errors) {
			const body = sample<{ errors: { code: string; description: string }[] }>(name)
			const { asaas } = fake(() => jsonAnswer(body, 400))
			const e = await asaas.createPayment({ customer: '', billingType: 'PIX', dueDate: '2031-01-01' }).catch((x: AsaasError) => x)
			expect(e).toMatchObject({ upstreamStatus: 400, code: body.errors[0].code, message: body.errors[0].description })
		}
	})

	it('the samples read through the client itself: a charge, a list, a plan, a webhook event', async () => {
		const { asaas } = fake((req) => {
			const path = new URL(req.url).pathname
			if (path.startsWith('/v3/payments/')) return jsonAnswer(sample('payments.create.pix.response.sandbox-capture.json'))
			if (path === '/v3/installments') return jsonAnswer(sample('installments.create.response.sandbox-capture.json'))
			return jsonAnswer(sample('payments.list.by-installment.response.sandbox-capture.json'))
		})
		expect((await asaas.getPayment('pay_ibvub5tu20v9lxr7')).netValue).toBe(98.01)
		const plan = await asaas.createInstallment({
			customer: 'cus_000008392499',
			billingType: 'BOLETO',
			installmentCount: 12,
			totalValue: 350,
			dueDate: '2026-07-24'
		})
		expect(plan.paymentValue).toBe(29.24)
		const parcels = await asaas.listAllInstallmentPayments(plan.id)
		expect(parcels.map((p) => p.installmentNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
	})

	it('lenient: unknown keys kept, numbers as strings read, missing nullable fields null; a charge without id or a real due date is a bad answer', () => {
		const p = parsePayment({ id: 'pay_1', status: 'SOME_NEW_STATUS', value: '10.50', dueDate: '2031-02-01', novidade: 1 })
		expect(p).toMatchObject({
			id: 'pay_1',
			status: 'SOME_NEW_STATUS',
			value: 10.5,
			netValue: 10.5,
			description: null,
			externalReference: null,
			deleted: false,
			novidade: 1
		})
		expect(() => parsePayment({ status: 'PENDING', value: 1, dueDate: '2031-02-01' })).toThrow('id')
		expect(() => parsePayment({ id: 'pay_1', status: 'PENDING', value: 1, dueDate: '9999-99-99' })).toThrow('dueDate')
	})

	it('a bad answer is an AsaasError bad_response naming what was missing', async () => {
		const { asaas } = fake(() => jsonAnswer({ object: 'payment', status: 'PENDING' }))
		const e = await asaas.getPayment('pay_1').catch((x: AsaasError) => x)
		expect(e).toBeInstanceOf(AsaasError)
		expect(e).toMatchObject({ code: 'bad_response', message: 'O Asaas enviou uma resposta inesperada (200: falta value).' })
	})
})

describe('the client against Asaas’ awkward parts', () => {
	it('asks for the carnê with Accept: application/pdf', async () => {
		const { asaas, seen } = fake(() => new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'content-type': 'application/pdf' } }))
		expect(await asaas.getPaymentBook('ins_1')).toEqual(new Uint8Array([37, 80, 68, 70]))
		expect(seen[0].headers.get('accept')).toBe('application/pdf')
		expect(new URL(seen[0].url).pathname).toBe('/v3/installments/ins_1/paymentBook')
	})

	it('reads a plan’s parcels through GET /payments?installment= and never loops: a server ignoring offset, one saying hasMore for ever', async () => {
		const parcel = (n: number) => ({
			id: `pay_${n}`,
			installment: 'ins_1',
			installmentNumber: n,
			status: 'PENDING',
			value: 10,
			dueDate: '2031-02-01'
		})
		const ignoring = fake(() =>
			jsonAnswer({ object: 'list', hasMore: true, totalCount: 200, limit: 100, offset: 0, data: [parcel(2), parcel(1)] })
		)
		expect((await ignoring.asaas.listAllInstallmentPayments('ins_1')).map((p) => p.id)).toEqual(['pay_1', 'pay_2'])
		expect(ignoring.seen.map((r) => new URL(r.url).search)).toEqual([
			'?installment=ins_1&offset=0&limit=100',
			'?installment=ins_1&offset=2&limit=100'
		])
		let n = 0
		const endless = fake(() => jsonAnswer({ object: 'list', hasMore: true, totalCount: 1e6, limit: 100, offset: 0, data: [parcel(++n)] }))
		expect(await endless.asaas.listAllInstallmentPayments('ins_1')).toHaveLength(5)
		expect(endless.seen).toHaveLength(5)
	})

	it('a 5xx among RateLimit-* headers (Asaas sends them on every answer) is retried soon, not after the quota window', async () => {
		const standin = createAsaasStandin({ modes: { countQuota: true } })
		const sleeps: number[] = []
		const asaas = createAsaasClient({
			baseUrl: 'http://asaas.local/v3',
			apiKey: '$aact_hmlg_x',
			fetch: (url, init) => standin.handle(new Request(url, init)),
			sleep: async (ms) => {
				sleeps.push(ms)
			}
		})
		standin.failNext({ method: 'GET', mode: 'status', status: 503 })
		expect((await asaas.listWebhooks()).object).toBe('list')
		expect(sleeps).toEqual([500])
		expect(standin.quota('$aact_hmlg_x').used).toBe(2)
	})

	it('isAmountRefusal tells which amount field a refusal of POST /installments names', () => {
		const e = (code: string, message: string) => new AsaasError(message, code, 400, false)
		expect(isAmountRefusal(e('invalid_value', 'Informe o valor de cada parcela (value).'), 'value')).toBe(true)
		expect(isAmountRefusal(e('invalid_object', 'O campo value deve ser informado.'), 'value')).toBe(true)
		expect(isAmountRefusal(e('invalid_totalValue', 'Informe o valor total do parcelamento (totalValue).'), 'value')).toBe(false)
		expect(isAmountRefusal(e('invalid_totalValue', 'Informe o valor total do parcelamento (totalValue).'), 'totalValue')).toBe(true)
		expect(isAmountRefusal(e('invalid_customer', 'Customer inválido ou não informado.'), 'value')).toBe(false)
	})
})
