/**
 * A local Asaas: the subset of API v3 the portal uses, in memory, with the same paths, headers, list envelope,
 * error body and status codes, webhook delivery like Asaas' (200 only, growing retries, interruption after 15
 * failures) and controls for tests and demos under /__standin/. `bun modules/asaas/standin.ts [--port 3301]`.
 */
import QRCode from 'qrcode'
import { serveStandin } from '../core/server'
import type { FetchLike } from './client'
import { boletoNumbers, formatDigitableLine, pdfDocument, pixPayload } from './documents'
import type {
	AsaasCustomer,
	AsaasInstallment,
	AsaasList,
	AsaasPayment,
	AsaasWebhook,
	BillingType,
	PaymentEvent,
	PaymentStatus
} from './types'

export interface AsaasStandinOptions {
	/** 'any' (demo): every key starting with $aact_ is an account of its own. Default 'any'. */
	keys?: 'any' | string[]
	/** Used to deliver webhooks, so a test can route them to an in-process app.handle. */
	fetch?: FetchLike
	/** Wait after the 1st, 2nd… failed delivery; the last one repeats. Default Asaas' 30 s, 1 min, 3.5 min… 3 h. */
	webhookRetryDelaysMs?: number[]
	/** How long a delivery may take before it counts as failed. Default 10 s, like Asaas. */
	webhookTimeoutMs?: number
	now?: () => Date
}

/** Makes the next matching /v3 request fail in a given way (consumed once, or `times` times). */
export type FailureRule = {
	method?: string
	/** Prefix of the path after /v3, e.g. '/payments'. */
	path?: string
	times?: number
} & (
	| { mode: 'drop-after-apply' }
	| { mode: 'delay'; ms: number }
	| { mode: 'status'; status: number; body?: unknown }
	| { mode: 'rate-limit'; resetSeconds: number }
)

export interface DeliveryAttempt {
	webhookId: string
	url: string
	eventId: string
	event: PaymentEvent
	paymentId: string
	/** 1 for the first try of this event. */
	attempt: number
	/** null when no answer came (timeout, refused). */
	status: number | null
	error: string | null
	delivered: boolean
	headers: Record<string, string>
	at: string
}

interface Hook {
	config: Omit<AsaasWebhook, 'penalizedRequestsCount'>
	authToken: string | null
	queue: { id: string; event: PaymentEvent; paymentId: string; body: string; attempts: number }[]
	failures: number
	busy: boolean
	timer: ReturnType<typeof setTimeout> | null
}

export interface StandinAccount {
	key: string
	customers: Map<string, AsaasCustomer>
	payments: Map<string, AsaasPayment>
	installments: Map<string, AsaasInstallment>
	webhooks: Map<string, Hook>
}

/** A refused request: the Asaas error body with this status. Also what the in-process controls throw. */
export class StandinRefusal extends Error {
	constructor(
		readonly httpStatus: number,
		readonly code: string,
		message: string
	) {
		super(message)
	}
}

const ASAAS_DELAYS_MS = [30, 60, 210, 300, 900, 1500, 3600, 3600, 3600, 3600, 3600, 7200, 7200, 10800].map((s) => s * 1000)
const INTERRUPT_AFTER = 15
const MAX_WEBHOOKS = 10
const BILLING_TYPES: BillingType[] = ['UNDEFINED', 'BOLETO', 'CREDIT_CARD', 'PIX']
const OPEN: PaymentStatus[] = ['PENDING', 'OVERDUE']
const PAID: PaymentStatus[] = ['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']

const BRT_MS = 3 * 3_600_000
const isoDate = (d: Date) => new Date(d.getTime() - BRT_MS).toISOString().slice(0, 10)
const dateTime = (d: Date) => new Date(d.getTime() - BRT_MS).toISOString().slice(0, 19).replace('T', ' ')
const validDate = (s: unknown): s is string =>
	typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)
const cents = (reais: number) => Math.round(reais * 100)
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

function addMonths(date: string, months: number): string {
	const [y, m, d] = date.split('-').map(Number)
	const first = new Date(Date.UTC(y, m - 1 + months, 1))
	const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
	first.setUTCDate(Math.min(d, lastDay))
	return first.toISOString().slice(0, 10)
}

function randomId(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
	return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => alphabet[b % alphabet.length]).join('')
}

/**
 * A CPF (11 digits) or a CNPJ (14 characters: since July 2026 the first 12 may be letters, each worth its ASCII code
 * minus 48 in the check digits, as the Receita Federal defines them).
 */
function validCpfCnpj(doc: string): boolean {
	if (!/^(\d{11}|[0-9A-Z]{12}\d{2})$/.test(doc) || /^(.)\1+$/.test(doc)) return false
	const dv = (weights: number[]) => {
		const r = weights.reduce((sum, w, i) => sum + w * (doc.charCodeAt(i) - 48), 0) % 11
		return r < 2 ? 0 : 11 - r
	}
	if (doc.length === 11)
		return dv([10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[9]) && dv([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[10])
	return dv([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[12]) && dv([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[13])
}
/** A CPF or CNPJ as sent, without its mask: letters of an alphanumeric CNPJ are kept (upper case). */
const bareDocument = (doc: string) => doc.replace(/[^0-9A-Za-z]/g, '').toUpperCase()

const json = (data: unknown, status = 200, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json', ...headers } })
const errorBody = (status: number, code: string, description: string, headers: Record<string, string> = {}) =>
	json({ errors: [{ code, description }] }, status, headers)
const refuse = (code: string, description: string): never => {
	throw new StandinRefusal(400, code, description)
}
/** Asaas answers an unknown id with a bare 404. */
const notFound = (): never => {
	throw new StandinRefusal(404, 'not_found', 'Registro não encontrado.')
}

function page<T>(items: T[], query: URLSearchParams): AsaasList<T> {
	const offset = Math.max(0, Number(query.get('offset')) || 0)
	const limit = Math.min(100, Math.max(1, Number(query.get('limit')) || 10))
	const data = items.slice(offset, offset + limit)
	return { object: 'list', hasMore: offset + data.length < items.length, totalCount: items.length, limit, offset, data }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const brl = (v: number) =>
	`R$ ${v
		.toFixed(2)
		.replace('.', ',')
		.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`
const brDate = (iso: string) => iso.split('-').reverse().join('/')
const STATUS_LABEL: Partial<Record<PaymentStatus, string>> = {
	PENDING: 'Aguardando pagamento',
	OVERDUE: 'Vencida',
	RECEIVED: 'Recebida',
	CONFIRMED: 'Confirmada',
	RECEIVED_IN_CASH: 'Recebida em dinheiro',
	REFUNDED: 'Estornada',
	CHARGEBACK_REQUESTED: 'Chargeback solicitado'
}

/** The stand-in without a socket: `handle` answers a Request like the server does. */
export function createAsaasStandin(options: AsaasStandinOptions = {}) {
	const now = options.now ?? (() => new Date())
	const deliver: FetchLike = options.fetch ?? fetch
	const retryDelays = options.webhookRetryDelaysMs ?? ASAAS_DELAYS_MS
	const webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000
	const keys = options.keys ?? 'any'
	const accounts = new Map<string, StandinAccount>()
	/** The public invoice/boleto URL token → payment. */
	const tokens = new Map<string, { account: StandinAccount; payment: AsaasPayment }>()
	const rules: FailureRule[] = []
	const deliveries: DeliveryAttempt[] = []
	let seq = 0
	let paused = false
	let settledWaiters: (() => void)[] = []

	const account = (key: string) => {
		let a = accounts.get(key)
		if (!a) {
			a = { key, customers: new Map(), payments: new Map(), installments: new Map(), webhooks: new Map() }
			accounts.set(key, a)
		}
		return a
	}
	if (keys !== 'any') for (const key of keys) account(key)
	const accepts = (key: string) => (keys === 'any' ? key.startsWith('$aact_') : keys.includes(key))

	// ── Webhook delivery: one FIFO per config, a failed head blocks the rest (SEQUENTIALLY, as Asaas) ──

	const hooks = () => [...accounts.values()].flatMap((a) => [...a.webhooks.values()])
	const blocked = (h: Hook) => paused || h.config.interrupted || !h.config.enabled
	const isSettled = () => hooks().every((h) => !h.busy && (h.queue.length === 0 || (blocked(h) && !h.timer)))
	function checkSettled() {
		if (!isSettled()) return
		const waiters = settledWaiters
		settledWaiters = []
		for (const w of waiters) w()
	}

	function emit(a: StandinAccount, event: PaymentEvent, payment: AsaasPayment) {
		const id = `evt_${randomId(32, '0123456789abcdef')}&${++seq}`
		const body = JSON.stringify({ id, event, dateCreated: dateTime(now()), payment })
		for (const hook of a.webhooks.values()) {
			if (!hook.config.enabled || !hook.config.events.includes(event)) continue
			hook.queue.push({ id, event, paymentId: payment.id, body, attempts: 0 })
			void pump(hook)
		}
	}

	async function pump(hook: Hook) {
		if (hook.busy || hook.timer || blocked(hook) || hook.queue.length === 0) return checkSettled()
		hook.busy = true
		const item = hook.queue[0]
		item.attempts++
		const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Asaas-Webhook/3.0 (stand-in)' }
		if (hook.authToken) headers['asaas-access-token'] = hook.authToken
		let status: number | null = null
		let error: string | null = null
		try {
			const res = await deliver(hook.config.url, {
				method: 'POST',
				headers,
				body: item.body,
				redirect: 'manual',
				signal: AbortSignal.timeout(webhookTimeoutMs)
			})
			status = res.status
			await res.arrayBuffer().catch(() => undefined)
		} catch (e) {
			error = e instanceof Error && e.name === 'TimeoutError' ? 'timeout' : String((e as Error)?.message ?? e)
		}
		const delivered = status === 200
		deliveries.push({
			webhookId: hook.config.id,
			url: hook.config.url,
			eventId: item.id,
			event: item.event,
			paymentId: item.paymentId,
			attempt: item.attempts,
			status,
			error,
			delivered,
			headers,
			at: new Date().toISOString()
		})
		hook.busy = false
		// The config was deleted while this delivery ran.
		if (hook.queue[0] !== item) return checkSettled()
		if (delivered) {
			hook.queue.shift()
			hook.failures = 0
		} else if (++hook.failures >= INTERRUPT_AFTER) {
			hook.config.interrupted = true
		} else {
			const wait = retryDelays[Math.min(hook.failures, retryDelays.length) - 1] ?? 0
			hook.timer = setTimeout(() => {
				hook.timer = null
				void pump(hook)
			}, wait)
		}
		void pump(hook)
	}

	function resume(hook: Hook) {
		if (hook.timer) clearTimeout(hook.timer)
		hook.timer = null
		void pump(hook)
	}

	// ── Objects ──

	const publicHook = (h: Hook): AsaasWebhook => ({ ...h.config, penalizedRequestsCount: h.failures > 0 ? h.queue.length : 0 })

	function findPayment(a: StandinAccount, id: string, allowDeleted = false): AsaasPayment {
		const p = a.payments.get(id)
		if (!p || (p.deleted && !allowDeleted)) return notFound()
		return p
	}

	function customerOf(a: StandinAccount, id: unknown): AsaasCustomer {
		const c = typeof id === 'string' ? a.customers.get(id) : undefined
		if (!c || c.deleted) return refuse('invalid_customer', 'O cliente informado não existe ou foi removido.')
		return c
	}

	function billingTypeOf(v: unknown): BillingType {
		if (!BILLING_TYPES.includes(v as BillingType))
			refuse('invalid_billingType', 'Informe uma forma de pagamento válida: BOLETO, CREDIT_CARD, PIX ou UNDEFINED.')
		return v as BillingType
	}

	function dueDateOf(v: unknown): string {
		if (!validDate(v)) return refuse('invalid_dueDate', 'Informe a data de vencimento no formato AAAA-MM-DD.')
		if (v < isoDate(now())) refuse('invalid_dueDate', 'A data de vencimento não pode ser anterior à data atual.')
		return v
	}

	function descriptionOf(v: unknown): string | null {
		const d = str(v)
		if (d && d.length > 500) refuse('invalid_description', 'A descrição da cobrança pode ter no máximo 500 caracteres.')
		return d
	}

	function addPayment(
		a: StandinAccount,
		origin: string,
		fields: Pick<AsaasPayment, 'customer' | 'billingType' | 'value' | 'dueDate' | 'description' | 'externalReference'> &
			Partial<Pick<AsaasPayment, 'installment' | 'installmentNumber'>>
	): AsaasPayment {
		const n = ++seq
		const token = randomId(12)
		const boleto = fields.billingType === 'BOLETO' || fields.billingType === 'UNDEFINED'
		const p: AsaasPayment = {
			object: 'payment',
			id: `pay_${randomId(16)}`,
			dateCreated: isoDate(now()),
			customer: fields.customer,
			...(fields.installment ? { installment: fields.installment, installmentNumber: fields.installmentNumber } : {}),
			value: fields.value,
			netValue: fields.value,
			description: fields.description,
			billingType: fields.billingType,
			status: 'PENDING',
			dueDate: fields.dueDate,
			originalDueDate: fields.dueDate,
			paymentDate: null,
			clientPaymentDate: null,
			confirmedDate: null,
			creditDate: null,
			invoiceUrl: `${origin}/i/${token}`,
			bankSlipUrl: boleto ? `${origin}/b/pdf/${token}` : null,
			invoiceNumber: String(n).padStart(8, '0'),
			nossoNumero: boleto ? String(n) : null,
			externalReference: fields.externalReference,
			deleted: false,
			refunds: null
		}
		a.payments.set(p.id, p)
		tokens.set(token, { account: a, payment: p })
		emit(a, 'PAYMENT_CREATED', p)
		return p
	}

	/** A plan and its parcels: totalValue split in centavos with the remainder on the last, due dates monthly. */
	function addInstallment(a: StandinAccount, origin: string, body: Record<string, unknown>, externalReference: string | null) {
		const customer = customerOf(a, body.customer)
		const billingType = billingTypeOf(body.billingType)
		const count = body.installmentCount
		if (typeof count !== 'number' || !Number.isInteger(count) || count < 2 || count > 60) {
			refuse('invalid_installmentCount', 'O número de parcelas deve ser um inteiro entre 2 e 60.')
		}
		const n = count as number
		const dueDate = dueDateOf(body.dueDate)
		const description = descriptionOf(body.description)
		const total = typeof body.totalValue === 'number' ? cents(body.totalValue) : null
		const each =
			typeof body.value === 'number' ? cents(body.value) : typeof body.installmentValue === 'number' ? cents(body.installmentValue) : null
		const values =
			total !== null
				? Array.from({ length: n }, (_, i) => (i < n - 1 ? Math.floor(total / n) : total - Math.floor(total / n) * (n - 1)))
				: each !== null
					? Array(n).fill(each)
					: []
		if (values.length === 0 || values.some((v) => v <= 0))
			refuse('invalid_value', 'Informe o valor total (totalValue) ou o valor de cada parcela.')
		const plan: AsaasInstallment = {
			object: 'installment',
			id: crypto.randomUUID(),
			value: values.reduce((s, v) => s + v, 0) / 100,
			netValue: values.reduce((s, v) => s + v, 0) / 100,
			paymentValue: values[n - 1] / 100,
			installmentCount: n,
			billingType,
			paymentDate: null,
			description,
			expirationDay: Number(dueDate.slice(8)),
			dateCreated: isoDate(now()),
			customer: customer.id,
			deleted: false
		}
		a.installments.set(plan.id, plan)
		const parcels = values.map((v, i) =>
			addPayment(a, origin, {
				customer: customer.id,
				billingType,
				value: v / 100,
				dueDate: addMonths(dueDate, i),
				description: description ?? `Parcela ${i + 1} de ${n}.`,
				externalReference,
				installment: plan.id,
				installmentNumber: i + 1
			})
		)
		return { plan, parcels }
	}

	const parcelsOf = (a: StandinAccount, planId: string) =>
		[...a.payments.values()]
			.filter((p) => p.installment === planId && !p.deleted)
			.sort((x, y) => (x.installmentNumber ?? 0) - (y.installmentNumber ?? 0))

	function removePayment(a: StandinAccount, p: AsaasPayment) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível remover cobranças aguardando pagamento ou vencidas.')
		p.deleted = true
		emit(a, 'PAYMENT_DELETED', p)
	}

	// ── State changes shared by the API, the controls and the page ──

	function confirm(a: StandinAccount, p: AsaasPayment) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível confirmar cobranças aguardando pagamento ou vencidas.')
		const today = isoDate(now())
		p.clientPaymentDate = today
		p.confirmedDate = today
		if (p.billingType === 'PIX') {
			Object.assign(p, { status: 'RECEIVED', paymentDate: today, creditDate: today })
			emit(a, 'PAYMENT_RECEIVED', p)
			return p
		}
		p.status = 'CONFIRMED'
		emit(a, 'PAYMENT_CONFIRMED', p)
		if (p.billingType !== 'CREDIT_CARD') {
			Object.assign(p, { status: 'RECEIVED', paymentDate: today, creditDate: today })
			emit(a, 'PAYMENT_RECEIVED', p)
		}
		return p
	}

	/** PUT /payments/{id}: only an open charge changes (value, due date, description); Asaas announces PAYMENT_UPDATED. */
	function update(a: StandinAccount, p: AsaasPayment, body: Record<string, unknown>) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível alterar cobranças aguardando pagamento ou vencidas.')
		if (body.customer !== undefined && body.customer !== p.customer)
			refuse('invalid_customer', 'Não é possível alterar o cliente da cobrança.')
		if (body.value !== undefined) {
			if (typeof body.value !== 'number' || !(body.value > 0)) refuse('invalid_value', 'Informe o valor da cobrança.')
			p.value = cents(body.value as number) / 100
			p.netValue = p.value
		}
		if (body.dueDate !== undefined) {
			p.dueDate = dueDateOf(body.dueDate)
			if (p.status === 'OVERDUE') p.status = 'PENDING'
		}
		if (body.description !== undefined) p.description = descriptionOf(body.description)
		emit(a, 'PAYMENT_UPDATED', p)
		return p
	}

	/** POST /payments/{id}/receiveInCash: marked paid by hand, no money moves; Asaas announces it as PAYMENT_RECEIVED. */
	function receiveInCash(a: StandinAccount, p: AsaasPayment, body: Record<string, unknown>) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível confirmar cobranças aguardando pagamento ou vencidas.')
		const paymentDate = body.paymentDate === undefined ? isoDate(now()) : validDate(body.paymentDate) ? body.paymentDate : null
		if (!paymentDate) return refuse('invalid_paymentDate', 'Informe a data do pagamento no formato AAAA-MM-DD.')
		if (typeof body.value !== 'number' || !(body.value > 0)) refuse('invalid_value', 'Informe o valor recebido.')
		Object.assign(p, {
			status: 'RECEIVED_IN_CASH',
			value: cents(body.value as number) / 100,
			paymentDate,
			clientPaymentDate: paymentDate,
			confirmedDate: paymentDate
		})
		emit(a, 'PAYMENT_RECEIVED', p)
		return p
	}

	function overdue(a: StandinAccount, p: AsaasPayment) {
		if (p.status !== 'PENDING') refuse('invalid_action', 'Só é possível vencer cobranças aguardando pagamento.')
		p.status = 'OVERDUE'
		emit(a, 'PAYMENT_OVERDUE', p)
		return p
	}

	function refund(a: StandinAccount, p: AsaasPayment, value: number, description: string | null) {
		if (!PAID.includes(p.status)) refuse('invalid_action', 'Só é possível estornar cobranças recebidas ou confirmadas.')
		if (!(value > 0) || cents(value) > cents(p.value))
			refuse('invalid_value', 'O valor do estorno deve ser maior que zero e no máximo o valor da cobrança.')
		p.refunds = [...(p.refunds ?? []), { dateCreated: dateTime(now()), status: 'DONE', value, description }]
		const whole = cents(value) === cents(p.value)
		if (whole) p.status = 'REFUNDED'
		emit(a, whole ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED', p)
		return p
	}

	function chargeback(a: StandinAccount, p: AsaasPayment) {
		if (!PAID.includes(p.status)) refuse('invalid_action', 'Só há chargeback de cobranças recebidas ou confirmadas.')
		p.status = 'CHARGEBACK_REQUESTED'
		p.chargeback = { status: 'REQUESTED', reason: 'ABSENCE_OF_PRINT' }
		emit(a, 'PAYMENT_CHARGEBACK_REQUESTED', p)
		return p
	}

	/** A payment of any account, for the controls (which hold no key). */
	function anyPayment(id: string): { a: StandinAccount; p: AsaasPayment } {
		for (const a of accounts.values()) {
			const p = a.payments.get(id)
			if (p && !p.deleted) return { a, p }
		}
		return notFound()
	}

	// ── Webhook configs ──

	function hookFields(body: Record<string, unknown>, partial: boolean) {
		const out: Partial<Hook['config']> & { authToken?: string | null } = {}
		const has = (k: string) => body[k] !== undefined
		if (!partial || has('name')) out.name = str(body.name) ?? refuse('invalid_name', 'Informe o nome do webhook.')
		if (!partial || has('url')) {
			const url = str(body.url)
			if (!url || !/^https?:\/\/[^\s]+$/.test(url)) refuse('invalid_url', 'Informe uma URL válida (http ou https) para o webhook.')
			out.url = url as string
		}
		if (!partial || has('sendType')) {
			if (body.sendType !== 'SEQUENTIALLY' && body.sendType !== 'NON_SEQUENTIALLY') {
				refuse('invalid_sendType', 'Informe o tipo de envio: SEQUENTIALLY ou NON_SEQUENTIALLY.')
			}
			out.sendType = body.sendType as Hook['config']['sendType']
		}
		if (!partial || has('events')) {
			const events = body.events
			if (!Array.isArray(events) || events.length === 0 || !events.every((e) => typeof e === 'string' && /^[A-Z_]+$/.test(e))) {
				refuse('invalid_events', 'Informe ao menos um evento válido para o webhook.')
			}
			out.events = [...new Set(events as string[])]
		}
		if (has('email')) out.email = str(body.email)
		if (has('enabled')) out.enabled = body.enabled === true
		if (has('interrupted')) out.interrupted = body.interrupted === true
		if (has('authToken')) {
			const token = body.authToken
			if (token !== null && (typeof token !== 'string' || token.length < 32 || token.length > 255 || /\s/.test(token))) {
				refuse('invalid_authToken', 'O token de autenticação deve ter de 32 a 255 caracteres, sem espaços.')
			}
			out.authToken = (token as string | null) || null
		}
		return out
	}

	function findHook(a: StandinAccount, id: string): Hook {
		return a.webhooks.get(id) ?? notFound()
	}

	// ── The API ──

	type Ctx = { a: StandinAccount; origin: string; query: URLSearchParams; body: Record<string, unknown> }
	type Route = [string, RegExp, (ctx: Ctx, ...params: string[]) => Response | Promise<Response>]

	const routes: Route[] = [
		[
			'GET',
			/^\/customers$/,
			({ a, query }) => {
				const filters = ['cpfCnpj', 'externalReference', 'email'] as const
				const list = [...a.customers.values()].filter(
					(c) =>
						!c.deleted &&
						filters.every((f) => !query.get(f) || c[f] === query.get(f)) &&
						(!query.get('name') || c.name.includes(query.get('name') ?? ''))
				)
				return json(page(list.reverse(), query))
			}
		],
		[
			'POST',
			/^\/customers$/,
			({ a, body }) => {
				const name = str(body.name) ?? refuse('invalid_name', 'Informe o nome do cliente.')
				const cpfCnpj = typeof body.cpfCnpj === 'string' ? bareDocument(body.cpfCnpj) : ''
				if (!validCpfCnpj(cpfCnpj)) refuse('invalid_object', 'O CPF/CNPJ informado é inválido.')
				const optional = [
					'email',
					'phone',
					'mobilePhone',
					'postalCode',
					'address',
					'addressNumber',
					'complement',
					'province',
					'externalReference',
					'observations'
				] as const
				const c: AsaasCustomer = {
					object: 'customer',
					id: `cus_${String(++seq).padStart(12, '0')}`,
					dateCreated: isoDate(now()),
					name,
					cpfCnpj,
					personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
					notificationDisabled: body.notificationDisabled === true,
					deleted: false
				}
				for (const k of optional) if (str(body[k])) c[k] = str(body[k]) as string
				a.customers.set(c.id, c)
				return json(c)
			}
		],
		['GET', /^\/customers\/([^/]+)$/, ({ a }, id) => json(a.customers.get(id) ?? notFound())],
		[
			'GET',
			/^\/payments$/,
			({ a, query }) => {
				const filters = ['customer', 'externalReference', 'installment', 'status', 'billingType'] as const
				const list = [...a.payments.values()].filter(
					(p) =>
						!p.deleted &&
						filters.every((f) => !query.get(f) || p[f] === query.get(f)) &&
						(!query.get('dueDate[ge]') || p.dueDate >= (query.get('dueDate[ge]') ?? '')) &&
						(!query.get('dueDate[le]') || p.dueDate <= (query.get('dueDate[le]') ?? ''))
				)
				return json(page(list.reverse(), query))
			}
		],
		[
			'POST',
			/^\/payments$/,
			({ a, origin, body }) => {
				const externalReference = str(body.externalReference)
				if (body.installmentCount !== undefined) {
					const { parcels } = addInstallment(a, origin, { ...body, value: undefined }, externalReference)
					return json(parcels[0])
				}
				const customer = customerOf(a, body.customer)
				const billingType = billingTypeOf(body.billingType)
				if (typeof body.value !== 'number' || !(body.value > 0)) refuse('invalid_value', 'Informe o valor da cobrança.')
				const dueDate = dueDateOf(body.dueDate)
				const value = cents(body.value as number) / 100
				return json(
					addPayment(a, origin, {
						customer: customer.id,
						billingType,
						value,
						dueDate,
						description: descriptionOf(body.description),
						externalReference
					})
				)
			}
		],
		['GET', /^\/payments\/([^/]+)$/, ({ a }, id) => json(findPayment(a, id, true))],
		['PUT', /^\/payments\/([^/]+)$/, ({ a, body }, id) => json(update(a, findPayment(a, id), body))],
		['POST', /^\/payments\/([^/]+)\/receiveInCash$/, ({ a, body }, id) => json(receiveInCash(a, findPayment(a, id), body))],
		[
			'DELETE',
			/^\/payments\/([^/]+)$/,
			({ a }, id) => {
				removePayment(a, findPayment(a, id))
				return json({ deleted: true, id })
			}
		],
		[
			'GET',
			/^\/payments\/([^/]+)\/pixQrCode$/,
			async ({ a, origin }, id) => {
				const p = findPayment(a, id)
				if (p.billingType === 'CREDIT_CARD') refuse('invalid_billingType', 'Esta cobrança não aceita pagamento via Pix.')
				if (!OPEN.includes(p.status)) refuse('invalid_action', 'A cobrança não está mais aberta para pagamento via Pix.')
				const payload = pixPayload({
					location: `${new URL(origin).host}/qr/v2/${p.id}`,
					value: p.value,
					merchant: 'K LICENCAS STANDIN',
					city: 'FORTALEZA'
				})
				const png = await QRCode.toBuffer(payload, { type: 'png', margin: 2, width: 256 })
				const expiration = `${Number(p.dueDate.slice(0, 4)) + 1}${p.dueDate.slice(4)} 23:59:59`
				return json({ encodedImage: png.toString('base64'), payload, expirationDate: expiration, description: p.description })
			}
		],
		[
			'GET',
			/^\/payments\/([^/]+)\/identificationField$/,
			({ a }, id) => {
				const p = findPayment(a, id)
				if (!p.nossoNumero) refuse('invalid_billingType', 'Esta cobrança não é um boleto e não tem linha digitável.')
				return json({
					...boletoNumbers({ value: p.value, dueDate: p.dueDate, nossoNumero: p.nossoNumero as string }),
					nossoNumero: p.nossoNumero
				})
			}
		],
		[
			'POST',
			/^\/payments\/([^/]+)\/refund$/,
			({ a, body }, id) => {
				const p = findPayment(a, id)
				return json(refund(a, p, typeof body.value === 'number' ? body.value : p.value, str(body.description)))
			}
		],
		['POST', /^\/installments$/, ({ a, origin, body }) => json(addInstallment(a, origin, body, str(body.paymentExternalReference)).plan)],
		['GET', /^\/installments\/([^/]+)$/, ({ a }, id) => json(a.installments.get(id) ?? notFound())],
		[
			'GET',
			/^\/installments\/([^/]+)\/payments$/,
			({ a, query }, id) => {
				if (!a.installments.has(id)) notFound()
				const status = query.get('status')
				return json(
					page(
						parcelsOf(a, id).filter((p) => !status || p.status === status),
						query
					)
				)
			}
		],
		[
			'DELETE',
			/^\/installments\/([^/]+)\/payments$/,
			({ a }, id) => {
				const plan = a.installments.get(id) ?? notFound()
				const removable = parcelsOf(a, id).filter((p) => OPEN.includes(p.status))
				for (const p of removable) removePayment(a, p)
				if (parcelsOf(a, id).length === 0) plan.deleted = true
				return json({ deleted: removable.length > 0, id, deletedPayments: removable })
			}
		],
		[
			'GET',
			/^\/installments\/([^/]+)\/paymentBook$/,
			({ a }, id) => {
				const plan = a.installments.get(id)
				const parcels = plan && !plan.deleted ? parcelsOf(a, id) : []
				if (parcels.length === 0) return notFound()
				return new Response(paymentBook(a, parcels), { headers: { 'content-type': 'application/pdf' } })
			}
		],
		['GET', /^\/webhooks$/, ({ a, query }) => json(page([...a.webhooks.values()].map(publicHook), query))],
		[
			'POST',
			/^\/webhooks$/,
			({ a, body }) => {
				if (a.webhooks.size >= MAX_WEBHOOKS) refuse('invalid_action', `A conta já tem o máximo de ${MAX_WEBHOOKS} webhooks.`)
				const { authToken = null, ...fields } = hookFields(body, false)
				const hook: Hook = {
					config: {
						object: 'webhook',
						id: crypto.randomUUID(),
						email: null,
						enabled: true,
						interrupted: false,
						apiVersion: 3,
						hasAuthToken: authToken !== null,
						...(fields as Pick<Hook['config'], 'name' | 'url' | 'sendType' | 'events'>)
					},
					authToken,
					queue: [],
					failures: 0,
					busy: false,
					timer: null
				}
				a.webhooks.set(hook.config.id, hook)
				return json(publicHook(hook))
			}
		],
		['GET', /^\/webhooks\/([^/]+)$/, ({ a }, id) => json(publicHook(findHook(a, id)))],
		[
			'PUT',
			/^\/webhooks\/([^/]+)$/,
			({ a, body }, id) => {
				const hook = findHook(a, id)
				const { authToken, ...fields } = hookFields(body, true)
				const reactivated = hook.config.interrupted && fields.interrupted === false
				Object.assign(hook.config, fields)
				if (authToken !== undefined) {
					hook.authToken = authToken
					hook.config.hasAuthToken = authToken !== null
				}
				if (reactivated) {
					hook.failures = 0
					resume(hook)
				} else void pump(hook)
				return json(publicHook(hook))
			}
		],
		[
			'DELETE',
			/^\/webhooks\/([^/]+)$/,
			({ a }, id) => {
				const hook = findHook(a, id)
				if (hook.timer) clearTimeout(hook.timer)
				hook.queue.length = 0
				a.webhooks.delete(id)
				checkSettled()
				return json({ deleted: true, id })
			}
		],
		[
			'POST',
			/^\/webhooks\/([^/]+)\/removeBackoff$/,
			({ a }, id) => {
				const hook = findHook(a, id)
				hook.failures = 0
				resume(hook)
				return json(publicHook(hook))
			}
		],
		['POST', /^\/sandbox\/payment\/([^/]+)\/confirm$/, ({ a }, id) => json(confirm(a, findPayment(a, id)))],
		['POST', /^\/sandbox\/payment\/([^/]+)\/overdue$/, ({ a }, id) => json(overdue(a, findPayment(a, id)))]
	]

	function paymentBook(a: StandinAccount, parcels: AsaasPayment[]) {
		return pdfDocument(
			parcels.map((p) => {
				const numbers = p.nossoNumero ? boletoNumbers({ value: p.value, dueDate: p.dueDate, nossoNumero: p.nossoNumero }) : null
				const count = p.installment ? a.installments.get(p.installment)?.installmentCount : undefined
				return {
					title: p.installmentNumber ? `Carnê - parcela ${p.installmentNumber} de ${count}` : 'Boleto de cobrança',
					lines: [
						`Pagador: ${a.customers.get(p.customer)?.name ?? p.customer}`,
						`Descrição: ${p.description ?? '-'}`,
						`Valor: ${brl(p.value)}`,
						`Vencimento: ${brDate(p.dueDate)}`,
						`Nosso número: ${p.nossoNumero ?? '-'}`,
						`Linha digitável: ${numbers ? formatDigitableLine(numbers.identificationField) : '-'}`
					],
					barCode: numbers?.barCode,
					footer: 'Documento gerado pelo simulador local do Asaas (K-Licenças): não tem valor para pagamento.'
				}
			})
		)
	}

	async function api(req: Request, url: URL): Promise<Response> {
		const path = url.pathname.slice(3)
		const key = req.headers.get('access_token') ?? ''
		if (!key || !accepts(key)) return errorBody(401, 'invalid_access_token', 'A chave de API fornecida é inválida.')
		if (!req.headers.get('user-agent')) return errorBody(400, 'invalid_user_agent', 'O header User-Agent é obrigatório.')
		const ruleIndex = rules.findIndex((r) => (!r.method || r.method === req.method) && (!r.path || path.startsWith(r.path)))
		const rule = ruleIndex >= 0 ? rules[ruleIndex] : null
		if (rule && (rule.times ?? 1) <= 1) rules.splice(ruleIndex, 1)
		else if (rule) rule.times = (rule.times ?? 1) - 1
		if (rule?.mode === 'status') return json(rule.body ?? {}, rule.status)
		if (rule?.mode === 'rate-limit') {
			return errorBody(429, 'rate_limit_exceeded', 'Limite de requisições atingido.', {
				'RateLimit-Limit': '25000',
				'RateLimit-Remaining': '0',
				'RateLimit-Reset': String(rule.resetSeconds)
			})
		}

		let body: Record<string, unknown> = {}
		if (req.method === 'POST' || req.method === 'PUT') {
			const text = await req.text()
			try {
				body = text ? JSON.parse(text) : {}
			} catch {
				return errorBody(400, 'invalid_object', 'O corpo da requisição não é um JSON válido.')
			}
			if (typeof body !== 'object' || body === null || Array.isArray(body))
				return errorBody(400, 'invalid_object', 'O corpo da requisição deve ser um objeto JSON.')
		}
		let res: Response | null = null
		for (const [method, pattern, handler] of routes) {
			const m = req.method === method ? pattern.exec(path) : null
			if (!m) continue
			try {
				res = await handler({ a: account(key), origin: url.origin, query: url.searchParams, body }, ...m.slice(1).map(decodeURIComponent))
			} catch (e) {
				if (!(e instanceof StandinRefusal)) throw e
				res = e.httpStatus === 404 ? new Response(null, { status: 404 }) : errorBody(e.httpStatus, e.code, e.message)
			}
			break
		}
		res ??= new Response(null, { status: 404 })
		if (rule?.mode === 'delay') {
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(resolve, rule.ms)
				const abort = () => {
					clearTimeout(timer)
					reject(req.signal.reason)
				}
				req.signal.addEventListener('abort', abort, { once: true })
			})
		}
		if (rule?.mode === 'drop-after-apply') {
			// The change is applied; the connection then closes before any byte of the answer.
			return new Response(new ReadableStream({ start: (c) => queueMicrotask(() => c.error()) }), { status: res.status })
		}
		return res
	}

	// ── Controls, the demo page, the public invoice and boleto ──

	async function controls(req: Request, path: string): Promise<Response> {
		const action = /^\/payments\/([^/]+)\/(confirm|overdue|chargeback)$/.exec(path)
		if (req.method === 'POST' && action) {
			const fromForm = req.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')
			try {
				const { a, p } = anyPayment(decodeURIComponent(action[1]))
				const result = { confirm, overdue, chargeback }[action[2] as 'confirm'](a, p)
				return fromForm ? Response.redirect(req.headers.get('referer') ?? '/', 303) : json(result)
			} catch (e) {
				if (!(e instanceof StandinRefusal)) throw e
				return fromForm ? new Response(e.message, { status: e.httpStatus }) : errorBody(e.httpStatus, e.code, e.message)
			}
		}
		if (req.method === 'POST' && path === '/fail') {
			rules.push((await req.json()) as FailureRule)
			return json({ ok: true })
		}
		if (req.method === 'POST' && path === '/deliveries/pause') return json({ paused: pauseDeliveries() })
		if (req.method === 'POST' && path === '/deliveries/resume') return json({ paused: resumeDeliveries() })
		if (req.method === 'GET' && path === '/deliveries') return json(deliveries)
		return new Response(null, { status: 404 })
	}

	function pauseDeliveries() {
		paused = true
		checkSettled()
		return paused
	}

	function resumeDeliveries() {
		paused = false
		for (const hook of hooks()) void pump(hook)
		return paused
	}

	function paymentRow(a: StandinAccount, p: AsaasPayment): string {
		const customer = a.customers.get(p.customer)?.name ?? p.customer
		const status = p.deleted ? 'Removida' : (STATUS_LABEL[p.status] ?? p.status)
		const pay =
			OPEN.includes(p.status) && !p.deleted
				? `<form method="post" action="/__standin/payments/${escapeHtml(p.id)}/confirm"><button>pagar</button></form>`
				: ''
		const boleto = p.bankSlipUrl ? ` <a href="${escapeHtml(new URL(p.bankSlipUrl).pathname)}">boleto</a>` : ''
		const description = escapeHtml(p.description ?? '') + (p.installmentNumber ? ` (parcela ${p.installmentNumber})` : '')
		const cells = [escapeHtml(customer), description, brl(p.value), brDate(p.dueDate), p.billingType, status + boleto, pay]
		return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`
	}

	const chargesTable = (rows: string[]) =>
		`<table><tr>${['Cliente', 'Descrição', 'Valor', 'Vencimento', 'Forma', 'Situação', ''].map((h) => `<th>${h}</th>`).join('')}</tr>${rows.join('')}</table>`

	function htmlPage(title: string, sections: string[]): Response {
		const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font:15px system-ui,sans-serif;margin:1.5rem;color:#1f2937}table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}
th,td{border-bottom:1px solid #e5e7eb;padding:.4rem;text-align:left}button{background:#0f766e;color:#fff;border:0;border-radius:.3rem;padding:.3rem .8rem;cursor:pointer}
.muted{color:#6b7280}</style></head><body><h1>${escapeHtml(title)}</h1>${sections.join('') || '<p class="muted">Nenhuma cobrança ainda.</p>'}</body></html>`
		return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
	}

	function homePage(): Response {
		const sections = [...accounts.values()]
			.filter((a) => a.payments.size > 0 || a.webhooks.size > 0)
			.map((a) => {
				const hookState = (h: Hook) =>
					(h.config.interrupted ? ' (fila interrompida)' : '') + (h.queue.length ? ` · ${h.queue.length} na fila` : '')
				const hooksLine = [...a.webhooks.values()].map((h) => escapeHtml(h.config.url) + hookState(h)).join('; ')
				const rows = [...a.payments.values()].reverse().map((p) => paymentRow(a, p))
				return `<h2>Conta …${escapeHtml(a.key.slice(-4))}</h2><p class="muted">Webhooks: ${hooksLine || 'nenhum'}</p>${chargesTable(rows)}`
			})
		return htmlPage('Asaas local (simulador): cobranças', sections)
	}

	async function handle(req: Request): Promise<Response> {
		const url = new URL(req.url)
		const path = url.pathname
		if (path === '/v3' || path.startsWith('/v3/')) return api(req, url)
		if (path.startsWith('/__standin/')) return controls(req, path.slice('/__standin'.length))
		if (req.method !== 'GET') return new Response(null, { status: 404 })
		if (path === '/') return homePage()
		const invoice = /^\/i\/(\w+)$/.exec(path)
		const entry = invoice ? tokens.get(invoice[1]) : undefined
		if (entry) {
			return htmlPage(`Fatura ${entry.payment.invoiceNumber}`, [chargesTable([paymentRow(entry.account, entry.payment)])])
		}
		const slip = /^\/b\/pdf\/(\w+)$/.exec(path)
		const boleto = slip ? tokens.get(slip[1]) : undefined
		if (boleto) return new Response(paymentBook(boleto.account, [boleto.payment]), { headers: { 'content-type': 'application/pdf' } })
		return new Response(null, { status: 404 })
	}

	return {
		handle,
		/** Every account by API key, with its customers, payments, installments and webhook configs (and their queues). */
		accounts,
		/** Every delivery attempt, oldest first. */
		deliveries,
		/** Pays a charge of any account, like the sandbox control (PIX → RECEIVED; BOLETO → CONFIRMED, RECEIVED; card → CONFIRMED). */
		confirm: (paymentId: string) => {
			const { a, p } = anyPayment(paymentId)
			return confirm(a, p)
		},
		overdue: (paymentId: string) => {
			const { a, p } = anyPayment(paymentId)
			return overdue(a, p)
		},
		chargeback: (paymentId: string) => {
			const { a, p } = anyPayment(paymentId)
			return chargeback(a, p)
		},
		failNext: (rule: FailureRule) => {
			rules.push(rule)
		},
		pauseDeliveries,
		resumeDeliveries,
		/** Resolves when no delivery is running or waiting for a retry (queues are empty, paused or interrupted). */
		settled: () =>
			new Promise<void>((resolve) => {
				settledWaiters.push(resolve)
				checkSettled()
			}),
		/** Stops pending retries. */
		close() {
			for (const hook of hooks()) if (hook.timer) clearTimeout(hook.timer)
		}
	}
}

export type AsaasStandin = ReturnType<typeof createAsaasStandin>

/** The stand-in on a socket. `url` is the API base (…/v3) for createAsaasClient. */
export function startAsaasStandin(options: AsaasStandinOptions & { port?: number; hostname?: string } = {}) {
	const standin = createAsaasStandin(options)
	const server = serveStandin(standin.handle, options)
	const origin = server.url.origin
	return {
		...standin,
		origin,
		url: `${origin}/v3`,
		async stop() {
			standin.close()
			await server.stop(true)
		}
	}
}

if (import.meta.main) {
	const arg = (name: string) => {
		const i = process.argv.indexOf(`--${name}`)
		return i > 0 ? process.argv[i + 1] : undefined
	}
	const keys = arg('keys')
	const standin = startAsaasStandin({
		port: Number(arg('port') ?? 3301),
		hostname: arg('host'),
		keys: keys ? keys.split(',') : 'any'
	})
	console.log(`Asaas local: API em ${standin.url} · cobranças em ${standin.origin}/`)
}
