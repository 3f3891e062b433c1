import type {
	AsaasCustomer,
	AsaasDeleted,
	AsaasPayment,
	AsaasWebhook,
	InstallmentPaymentsDeleted,
	NewCustomer,
	NewInstallment,
	NewPayment,
	PaymentFilters,
	PaymentStatus,
	WebhookInput
} from './types'
import {
	ParseError,
	parseCustomer,
	parseDeleted,
	parseIdentificationField,
	parseInstallment,
	parseInstallmentPaymentsDeleted,
	parseList,
	parsePayment,
	parsePaymentStatus,
	parsePixQrCode,
	parseWebhook
} from './parse'

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface AsaasClientOptions {
	/** e.g. https://api-sandbox.asaas.com/v3 */
	baseUrl: string
	apiKey: string
	userAgent?: string
	fetch?: FetchLike
	/** Per attempt. Default 20 s. */
	timeoutMs?: number
	/** Retries of a request that may be repeated (see request()). Default 3. */
	maxRetries?: number
	/** The longest wait before a retry; a longer RateLimit-Reset fails at once with retryAfterSeconds. Default 30 s. */
	maxWaitMs?: number
	sleep?: (ms: number) => Promise<void>
}

/**
 * A failed Asaas call with a pt-BR message a person can act on. The HTTP status is `upstreamStatus`, never
 * `status`: the portal's error handler forwards a `status` to the browser, and a 401 there signs the user out.
 */
export class AsaasError extends Error {
	constructor(
		message: string,
		/**
		 * Asaas' own (errors[0].code, e.g. invalid_access_token) when it sent one, else ours: unauthorized,
		 * rate_limited, rejected, not_found, upstream_error, timeout, network, bad_response.
		 */
		readonly code: string,
		readonly upstreamStatus: number | null,
		/** True when the call changes something and may have been applied though no answer said so. */
		readonly uncertain: boolean,
		readonly retryAfterSeconds?: number,
		/** Whether the failure is passing (5xx, timeout, network, 429), so an idempotent call may be repeated. */
		readonly transient = false
	) {
		super(message)
		this.name = 'AsaasError'
	}
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

interface Call {
	method: Method
	path: string
	query?: object
	body?: unknown
	timeoutMs?: number
	/** A PDF: asked for with Accept: application/pdf and answered as bytes. */
	pdf?: boolean
	/** Reads the JSON answer leniently (./parse); a ParseError is a bad answer. */
	parse?: (v: unknown) => unknown
}

const UNCERTAIN_NOTE = ' A operação pode ter sido registrada: confira antes de repetir.'

const isTimeout = (e: unknown) => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')

function queryString(query: object | undefined): string {
	const params = new URLSearchParams()
	for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params.set(k, String(v))
	const s = params.toString()
	return s ? `?${s}` : ''
}

/**
 * Seconds to wait: on a 429, RateLimit-Reset (seconds; Asaas sends it on every answer, where it only tells when the
 * quota window ends), else Retry-After (seconds or an HTTP date).
 */
function retryAfter(headers: Headers, status: number): number | undefined {
	const reset = Number(headers.get('ratelimit-reset'))
	if (status === 429 && headers.get('ratelimit-reset') && Number.isFinite(reset) && reset >= 0) return Math.ceil(reset)
	const after = headers.get('retry-after')
	if (!after) return undefined
	const seconds = Number(after)
	if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
	const at = Date.parse(after)
	return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

function errorDescriptions(text: string): { code?: string; description?: string } {
	try {
		const errors = (JSON.parse(text) as { errors?: unknown }).errors
		if (!Array.isArray(errors)) return {}
		const items = errors.filter((e): e is { code?: unknown; description: string } => typeof e?.description === 'string')
		if (items.length === 0) return {}
		return {
			code: typeof items[0].code === 'string' ? items[0].code : undefined,
			description: items.map((e) => e.description).join(' ')
		}
	} catch {
		return {}
	}
}

function httpError(status: number, text: string, headers: Headers, mayHaveApplied: boolean): AsaasError {
	const { code, description } = errorDescriptions(text)
	const wait = retryAfter(headers, status)
	if (status === 401) {
		return new AsaasError(
			'O Asaas recusou a chave de API: confira se ela está correta e se pertence ao ambiente escolhido (sandbox ou produção).',
			code ?? 'unauthorized',
			401,
			false
		)
	}
	if (status === 429) {
		const when = wait === undefined ? 'em instantes' : `em ${wait} s`
		return new AsaasError(
			`Limite de requisições do Asaas atingido para esta conta. Tente novamente ${when}.`,
			'rate_limited',
			429,
			false,
			wait,
			true
		)
	}
	if (status >= 500) {
		const note = mayHaveApplied ? UNCERTAIN_NOTE : ''
		return new AsaasError(
			`O Asaas está com instabilidade (erro ${status}). Tente novamente em instantes.${note}`,
			'upstream_error',
			status,
			mayHaveApplied,
			wait,
			true
		)
	}
	if (description) return new AsaasError(description, code ?? 'rejected', status, false)
	if (status === 404) return new AsaasError('Registro não encontrado no Asaas.', 'not_found', 404, false)
	return new AsaasError(`O Asaas recusou o pedido (erro ${status}).`, code ?? 'rejected', status, false)
}

/** Pages of 100 read of one plan's parcels at most: Asaas plans have at most 60 parcels (cards 21). */
const MAX_PARCEL_PAGES = 5

/** Whether a refusal of POST /installments names the amount field Asaas wanted instead ('value' or 'totalValue'). */
export function isAmountRefusal(e: unknown, field: 'value' | 'totalValue'): boolean {
	if (!(e instanceof AsaasError) || e.upstreamStatus !== 400) return false
	const other = field === 'value' ? 'totalValue' : 'value'
	return e.code === `invalid_${field}` || (new RegExp(`\\b${field}\\b`).test(e.message) && !new RegExp(`\\b${other}\\b`).test(e.message))
}

/** A client for one Asaas account (one API key) in one environment. */
export function createAsaasClient(options: AsaasClientOptions) {
	const baseUrl = options.baseUrl.replace(/\/+$/, '')
	const host = new URL(baseUrl).host
	const fetchFn: FetchLike = options.fetch ?? fetch
	const timeoutMs = options.timeoutMs ?? 20_000
	const maxRetries = options.maxRetries ?? 3
	const maxWaitMs = options.maxWaitMs ?? 30_000
	const sleep = options.sleep ?? ((ms: number) => Bun.sleep(ms))
	const headers = {
		access_token: options.apiKey,
		'User-Agent': options.userAgent ?? 'K-Licencas/2.1',
		Accept: 'application/json'
	}

	async function attempt<T>(call: Call): Promise<T> {
		// A creating POST sent and unanswered may have been applied; a refused connection never reached Asaas.
		const mayHaveApplied = call.method !== 'GET'
		const lost = (e: unknown, reachedServer: boolean) => {
			const uncertain = mayHaveApplied && reachedServer
			const note = uncertain ? UNCERTAIN_NOTE : ''
			if (isTimeout(e))
				return new AsaasError(
					`O Asaas não respondeu a tempo. Tente novamente em instantes.${note}`,
					'timeout',
					null,
					uncertain,
					undefined,
					true
				)
			const message = reachedServer
				? `A conexão com o Asaas caiu antes da resposta.${note}`
				: `Não foi possível conectar ao Asaas (${host}). Verifique a conexão com a internet e tente novamente.`
			return new AsaasError(message, 'network', null, uncertain, undefined, true)
		}
		let res: Response
		try {
			res = await fetchFn(baseUrl + call.path + queryString(call.query), {
				method: call.method,
				headers: {
					...headers,
					...(call.pdf ? { Accept: 'application/pdf' } : {}),
					...(call.body === undefined ? {} : { 'Content-Type': 'application/json' })
				},
				body: call.body === undefined ? undefined : JSON.stringify(call.body),
				signal: AbortSignal.timeout(call.timeoutMs ?? timeoutMs),
				redirect: 'manual'
			})
		} catch (e) {
			throw lost(e, (e as { code?: string })?.code !== 'ECONNREFUSED')
		}
		let payload: Uint8Array | string
		try {
			payload = call.pdf && res.ok ? new Uint8Array(await res.arrayBuffer()) : await res.text()
		} catch (e) {
			throw lost(e, true)
		}
		if (!res.ok) throw httpError(res.status, payload as string, res.headers, mayHaveApplied)
		if (payload instanceof Uint8Array) return payload as T
		try {
			const parsed: unknown = JSON.parse(payload)
			return (call.parse ? call.parse(parsed) : parsed) as T
		} catch (e) {
			if (!(e instanceof SyntaxError || e instanceof ParseError)) throw e
			const what = e instanceof ParseError ? `: falta ${e.field}` : ''
			throw new AsaasError(`O Asaas enviou uma resposta inesperada (${res.status}${what}).`, 'bad_response', res.status, mayHaveApplied)
		}
	}

	/**
	 * One call with the retry rule: a 429 is always retried (Asaas refused it before applying it); other passing
	 * failures (5xx, timeout, dropped connection) only for GET/PUT/DELETE, or when the connection was refused.
	 * A POST whose answer was lost throws with `uncertain`: the caller looks the object up by its reference.
	 */
	async function request<T>(call: Call): Promise<T> {
		for (let retry = 0; ; retry++) {
			try {
				return await attempt<T>(call)
			} catch (e) {
				if (!(e instanceof AsaasError) || !e.transient || retry >= maxRetries) throw e
				if (call.method === 'POST' && e.uncertain) throw e
				const waitMs = e.retryAfterSeconds === undefined ? 500 * 2 ** retry : e.retryAfterSeconds * 1000
				if (waitMs > maxWaitMs) throw e
				await sleep(waitMs)
			}
		}
	}

	const enc = encodeURIComponent
	const get = <T>(path: string, query?: object, parse?: (v: unknown) => T) => request<T>({ method: 'GET', path, query, parse })
	const post = <T>(path: string, body: unknown = {}, parse?: (v: unknown) => T) => request<T>({ method: 'POST', path, body, parse })
	const payments = (v: unknown) => parseList(v, parsePayment)
	const listPayments = (filters: PaymentFilters = {}) => get('/payments', filters, payments)

	return {
		/** The first live customer with this CPF/CNPJ (Asaas does not keep them unique), or null. */
		async findCustomerByCpfCnpj(cpfCnpj: string): Promise<AsaasCustomer | null> {
			const list = await get('/customers', { cpfCnpj: cpfCnpj.replace(/[^0-9A-Za-z]/g, '').toUpperCase(), limit: 100 }, (v) =>
				parseList(v, parseCustomer)
			)
			return list.data.find((c) => !c.deleted) ?? null
		},
		createCustomer: (input: NewCustomer) => post('/customers', input, parseCustomer),
		getCustomer: (id: string) => get(`/customers/${enc(id)}`, undefined, parseCustomer),
		/** Changes the fields given (PUT /v3/customers/{id}); e.g. notificationDisabled, so Asaas' own reminders stop. */
		updateCustomer: (id: string, input: Partial<NewCustomer>) =>
			request<AsaasCustomer>({ method: 'PUT', path: `/customers/${enc(id)}`, body: input, parse: parseCustomer }),

		/**
		 * Which account the key opens: its walletId (GET /v3/wallets/). Read leniently, a list envelope or one object,
		 * since only the reference page shows its shape; null when the answer names no id.
		 */
		async getWalletId(): Promise<string | null> {
			const answer = await get<{ data?: { id?: unknown }[]; id?: unknown; walletId?: unknown }>('/wallets/')
			const id = answer.data?.[0]?.id ?? answer.id ?? answer.walletId
			return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : null
		},

		/** A single charge; with installmentCount it creates a plan and answers its first parcel. */
		createPayment: (input: NewPayment) => post('/payments', input, parsePayment),
		/** A removed charge may answer 404 (integrations correction 8) or come back with deleted: true. */
		getPayment: (id: string) => get(`/payments/${enc(id)}`, undefined, parsePayment),
		/** Only the status: the cheapest read of a charge. */
		getPaymentStatus: (id: string) => get(`/payments/${enc(id)}/status`, undefined, parsePaymentStatus),
		/** Newest first, as Asaas lists them. */
		listPayments,
		/** Only PENDING or OVERDUE charges change; re-read the Pix QR afterwards. */
		updatePayment: (id: string, input: Partial<Pick<NewPayment, 'value' | 'dueDate' | 'description'>>) =>
			request<AsaasPayment>({ method: 'PUT', path: `/payments/${enc(id)}`, body: input, parse: parsePayment }),
		/** Marks an open charge paid by hand (status RECEIVED_IN_CASH); no money moves. */
		receiveInCash: (id: string, input: { value: number; paymentDate?: string; notifyCustomer?: boolean }) =>
			post(`/payments/${enc(id)}/receiveInCash`, input, parsePayment),
		/** Only PENDING or OVERDUE charges can be removed. */
		deletePayment: (id: string) => request<AsaasDeleted>({ method: 'DELETE', path: `/payments/${enc(id)}`, parse: parseDeleted }),
		/** Needs a Pix key on the account: without one Asaas refuses ("Não há nenhuma chave Pix disponível…"). */
		getPixQrCode: (id: string) => get(`/payments/${enc(id)}/pixQrCode`, undefined, parsePixQrCode),
		getIdentificationField: (id: string) => get(`/payments/${enc(id)}/identificationField`, undefined, parseIdentificationField),
		/** Without a value, the whole charge. */
		refundPayment: (id: string, refund: { value?: number; description?: string } = {}) =>
			post(`/payments/${enc(id)}/refund`, refund, parsePayment),

		/**
		 * Asaas' documents disagree on whether it wants `value` (each parcel) or `totalValue`: send one, and on a 400
		 * naming the other field (isAmountRefusal) send that one instead.
		 */
		createInstallment: (input: NewInstallment) => post('/installments', input, parseInstallment),
		getInstallment: (id: string) => get(`/installments/${enc(id)}`, undefined, parseInstallment),
		/**
		 * Every live parcel of the plan, first to last, through GET /payments?installment= (which documents offset and
		 * limit; /installments/{id}/payments does not, correction 9). At most MAX_PARCEL_PAGES pages, and a page that
		 * brings nothing new ends the reading: it can never loop for ever. A plan Asaas does not know lists nothing.
		 */
		async listAllInstallmentPayments(id: string, filters: { status?: PaymentStatus } = {}): Promise<AsaasPayment[]> {
			const byId = new Map<string, AsaasPayment>()
			for (let n = 0; n < MAX_PARCEL_PAGES; n++) {
				const page = await listPayments({ ...filters, installment: id, offset: byId.size, limit: 100 })
				const before = byId.size
				for (const p of page.data) if (p.installment === id || !p.installment) byId.set(p.id, p)
				if (!page.hasMore || byId.size === before) break
			}
			return [...byId.values()].sort((a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0))
		},
		/** Cancels the plan's PENDING/OVERDUE parcels and keeps the paid ones; Asaas asks for at least 60 s here. */
		deleteInstallmentPendingPayments: (id: string) =>
			request<InstallmentPaymentsDeleted>({
				method: 'DELETE',
				path: `/installments/${enc(id)}/payments`,
				timeoutMs: Math.max(timeoutMs, 60_000),
				parse: parseInstallmentPaymentsDeleted
			}),
		/** The carnê: a PDF with every boleto of the plan (needs the key, so it is not a public URL). */
		getPaymentBook: (id: string) => request<Uint8Array>({ method: 'GET', path: `/installments/${enc(id)}/paymentBook`, pdf: true }),

		/** Also the cheap authenticated check of a key: it proves the key and tells the webhook state. */
		listWebhooks: () => get('/webhooks', undefined, (v) => parseList(v, parseWebhook)),
		/** Asaas' form requires `email`; send one. */
		createWebhook: (input: WebhookInput) => post('/webhooks', input, parseWebhook),
		updateWebhook: (id: string, input: Partial<WebhookInput>) =>
			request<AsaasWebhook>({ method: 'PUT', path: `/webhooks/${enc(id)}`, body: input, parse: parseWebhook }),
		deleteWebhook: (id: string) => request<AsaasDeleted>({ method: 'DELETE', path: `/webhooks/${enc(id)}`, parse: parseDeleted }),
		/** Clears the queue's penalty so the next delivery is tried at once. */
		removeBackoff: (id: string) => post(`/webhooks/${enc(id)}/removeBackoff`, {}, parseWebhook),

		/** Sandbox only: pays the charge (and delivers its webhook events). */
		sandboxConfirmPayment: (id: string) => post(`/sandbox/payment/${enc(id)}/confirm`, {}, parsePayment),
		/** Sandbox only: makes the charge overdue. */
		sandboxOverduePayment: (id: string) => post(`/sandbox/payment/${enc(id)}/overdue`, {}, parsePayment)
	}
}

export type AsaasClient = ReturnType<typeof createAsaasClient>
