import type { ConnectionState } from './webhook'

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface EvolutionClientOptions {
	/** The Evolution server, e.g. https://evo.example.com */
	baseUrl: string
	apiKey: string
	instance: string
	fetch?: FetchLike
	/** Per attempt. Default 15 s. */
	timeoutMs?: number
}

export type EvolutionErrorCode =
	| 'unauthorized'
	| 'instance_not_found'
	| 'not_on_whatsapp'
	| 'rejected'
	| 'upstream_error'
	| 'timeout'
	| 'network'
	| 'bad_response'

/** A failed Evolution call with a pt-BR message. The HTTP status is `upstreamStatus`, never `status` (see AsaasError). */
export class EvolutionError extends Error {
	constructor(
		message: string,
		readonly code: EvolutionErrorCode,
		readonly upstreamStatus: number | null,
		/** True for a send whose answer was lost: the message may have gone out. */
		readonly uncertain: boolean
	) {
		super(message)
		this.name = 'EvolutionError'
	}
}

export interface WebhookSettings {
	url: string
	/** Sent by Evolution 2.1.1+ on every delivery; older versions have no headers: there the secret travels in the URL. */
	headers?: Record<string, string>
	/** UPPER_SNAKE names, e.g. MESSAGES_UPSERT, CONNECTION_UPDATE; empty = every event (v2). */
	events: string[]
	enabled: boolean
}

export interface SentMessage {
	/** Keep it: a messages.upsert with fromMe and an id that is not ours was typed by a person on the phone. */
	messageId: string
	remoteJid: string
}

interface Call {
	method: 'GET' | 'POST'
	path: string
	body?: unknown
	/** A message send: never repeated, and uncertain when its answer is lost. */
	send?: boolean
}

const GET_RETRIES = 2
const isTimeout = (e: unknown) => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
const record = (v: unknown): Record<string, unknown> | null =>
	typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null

/** The `response.message` of Evolution's error body `{status, error, response: {message}}`, as a list. */
function errorMessages(text: string): unknown[] {
	try {
		const message = record(record(JSON.parse(text))?.response)?.message
		return Array.isArray(message) ? message : message === undefined ? [] : [message]
	} catch {
		return []
	}
}

/**
 * How the portal serves an Evolution version: which webhook body it takes (1.8: v1 snake_case; 2.0.x: flat camelCase;
 * 2.1.0 and later: `{webhook:{…}}`), whether it carries headers (from 2.1.1; before that the secret travels in the
 * URL as ?token=), or why the portal cannot serve it (a pt-BR sentence for the screens).
 */
export type WebhookPlan = { served: true; body: 'v1' | 'flat' | 'nested'; headers: boolean } | { served: false; message: string }

export function webhookPlan(version: string): WebhookPlan {
	const [major, minor, patch] = (version.match(/\d+/g) ?? []).map(Number)
	if (major === 1 && minor === 8) return { served: true, body: 'v1', headers: false }
	if (major === 2 && minor === 0) return { served: true, body: 'flat', headers: false }
	if (major === 2 && minor === 1 && patch === 0) return { served: true, body: 'nested', headers: false }
	if (major === 2) return { served: true, body: 'nested', headers: true }
	return {
		served: false,
		message: `A Evolution API ${version} não é atendida pelo portal: ele conversa com as versões 1.8 e 2.x. Atualize o servidor da Evolution (recomendado: 2.1.1 ou mais nova) ou peça ajuda ao suporte.`
	}
}

/** A client for one Evolution instance; it speaks v1 bodies when the server reports a 1.x version, v2 otherwise. */
export function createEvolutionClient(options: EvolutionClientOptions) {
	const baseUrl = options.baseUrl.replace(/\/+$/, '')
	const fetchFn: FetchLike = options.fetch ?? fetch
	const timeoutMs = options.timeoutMs ?? 15_000
	const instance = encodeURIComponent(options.instance)
	let version: Promise<string> | null = null

	function httpError(status: number, text: string, send: boolean): EvolutionError {
		const messages = errorMessages(text)
		if (status === 401 || status === 403) {
			return new EvolutionError(
				'A Evolution API recusou a chave (apikey): confira a chave salva nas configurações.',
				'unauthorized',
				status,
				false
			)
		}
		const missing = messages.find((m) => record(m)?.exists === false)
		if (missing) {
			const number = String(record(missing)?.number ?? '')
			return new EvolutionError(`O número ${number} não tem WhatsApp.`, 'not_on_whatsapp', status, false)
		}
		const texts = messages.filter((m): m is string => typeof m === 'string')
		if (status === 404 && texts.some((m) => m.includes('instance does not exist'))) {
			return new EvolutionError(
				`A instância "${options.instance}" não existe na Evolution API: confira o nome da instância.`,
				'instance_not_found',
				404,
				false
			)
		}
		if (status >= 500) {
			const note = send ? ' A mensagem pode ter sido enviada: confira antes de reenviar.' : ''
			return new EvolutionError(
				`A Evolution API falhou (erro ${status}). Tente novamente em instantes.${note}`,
				'upstream_error',
				status,
				send
			)
		}
		const detail = texts.length > 0 ? `: ${texts.join('; ').slice(0, 300)}` : ` (erro ${status})`
		return new EvolutionError(`A Evolution API recusou o pedido${detail}.`, 'rejected', status, false)
	}

	async function attempt(call: Call): Promise<unknown> {
		const note = call.send ? ' A mensagem pode ter sido enviada: confira antes de reenviar.' : ''
		let res: Response
		try {
			res = await fetchFn(baseUrl + call.path, {
				method: call.method,
				headers: {
					apikey: options.apiKey,
					Accept: 'application/json',
					...(call.body === undefined ? {} : { 'Content-Type': 'application/json' })
				},
				body: call.body === undefined ? undefined : JSON.stringify(call.body),
				signal: AbortSignal.timeout(timeoutMs)
			})
		} catch (e) {
			if (isTimeout(e)) throw new EvolutionError(`A Evolution API não respondeu a tempo (${baseUrl}).${note}`, 'timeout', null, !!call.send)
			if ((e as { code?: string })?.code === 'ECONNREFUSED' || !call.send) {
				throw new EvolutionError(
					`Não foi possível conectar à Evolution API em ${baseUrl}: confira o endereço e se o servidor está no ar.`,
					'network',
					null,
					false
				)
			}
			throw new EvolutionError(`A conexão com a Evolution API caiu antes da resposta.${note}`, 'network', null, true)
		}
		let text: string
		try {
			text = await res.text()
		} catch (e) {
			const timedOut = isTimeout(e)
			const message = timedOut
				? `A Evolution API não respondeu a tempo (${baseUrl}).`
				: 'A conexão com a Evolution API caiu antes da resposta.'
			throw new EvolutionError(`${message}${note}`, timedOut ? 'timeout' : 'network', null, !!call.send)
		}
		if (!res.ok) throw httpError(res.status, text, !!call.send)
		try {
			return JSON.parse(text)
		} catch {
			throw new EvolutionError(`A Evolution API enviou uma resposta inesperada (${res.status}).`, 'bad_response', res.status, !!call.send)
		}
	}

	/** Sends are never repeated; a GET is retried up to twice on 5xx, timeout or a network error. */
	async function request(call: Call): Promise<unknown> {
		for (let retry = 0; ; retry++) {
			try {
				return await attempt(call)
			} catch (e) {
				const passing = e instanceof EvolutionError && ['upstream_error', 'timeout', 'network'].includes(e.code)
				if (call.method !== 'GET' || !passing || retry >= GET_RETRIES) throw e
				await Bun.sleep(250 * 2 ** retry)
			}
		}
	}

	async function serverInfo(): Promise<{ version: string }> {
		const version = record(await request({ method: 'GET', path: '/' }))?.version
		if (typeof version !== 'string' || !/^\d+\./.test(version)) {
			throw new EvolutionError(
				'A Evolution API não informou a versão: confira se o endereço é o do servidor da Evolution.',
				'bad_response',
				200,
				false
			)
		}
		return { version }
	}

	/** The server's version, asked once per client (again after a failure). */
	function serverVersion(): Promise<string> {
		version ??= serverInfo()
			.then((info) => info.version)
			.catch((e) => {
				version = null
				throw e
			})
		return version
	}
	const isV1 = async () => (await serverVersion()).startsWith('1.')

	function sent(body: unknown): SentMessage {
		const key = record(record(body)?.key)
		if (typeof key?.id !== 'string' || typeof key.remoteJid !== 'string') {
			throw new EvolutionError('A Evolution API aceitou o envio, mas não devolveu o id da mensagem.', 'bad_response', 201, true)
		}
		return { messageId: key.id, remoteJid: key.remoteJid }
	}

	const target = (number: string) => (number.includes('@') ? number : number.replace(/\D/g, ''))

	return {
		/** GET / → the server's version (the welcome body). */
		serverInfo,
		/** `delayMs`: Evolution shows "typing…" that long before sending (a reply paced like a person's). */
		async sendText(number: string, text: string, options: { delayMs?: number } = {}): Promise<SentMessage> {
			const delay = options.delayMs ? Math.round(options.delayMs) : undefined
			const body = (await isV1())
				? { number: target(number), options: delay ? { delay, presence: 'composing' } : {}, textMessage: { text } }
				: { number: target(number), text, ...(delay ? { delay } : {}) }
			return sent(await request({ method: 'POST', path: `/message/sendText/${instance}`, body, send: true }))
		},
		/** A document (e.g. the carnê PDF) from its bytes in base64; a data: prefix is removed. */
		async sendDocument(
			number: string,
			doc: { base64: string; fileName: string; mimetype: string; caption?: string }
		): Promise<SentMessage> {
			const media = doc.base64.replace(/^data:[^,]*,/, '')
			const body = (await isV1())
				? {
						number: target(number),
						options: {},
						mediaMessage: { mediatype: 'document', fileName: doc.fileName, caption: doc.caption, media }
					}
				: {
						number: target(number),
						mediatype: 'document',
						mimetype: doc.mimetype,
						media,
						fileName: doc.fileName,
						caption: doc.caption
					}
			return sent(await request({ method: 'POST', path: `/message/sendMedia/${instance}`, body, send: true }))
		},
		async connectionState(): Promise<{ state: ConnectionState }> {
			const state = record(record(await request({ method: 'GET', path: `/instance/connectionState/${instance}` }))?.instance)?.state
			if (typeof state !== 'string')
				throw new EvolutionError('A Evolution API não informou o estado da conexão.', 'bad_response', 200, false)
			return { state: state as ConnectionState }
		},
		/**
		 * Sets the instance's webhook in the body its version takes. `headers` are sent only where the version keeps
		 * them (2.1.1+): elsewhere the caller must carry its secret in `url` (see webhookPlan).
		 */
		async setWebhook(settings: WebhookSettings): Promise<void> {
			const v = await serverVersion()
			const plan = webhookPlan(v)
			if (!plan.served) throw new EvolutionError(plan.message, 'rejected', null, false)
			await request({ method: 'POST', path: `/webhook/set/${instance}`, body: webhookBody(plan, settings) })
		},
		/** The instance's webhook, or null when none is set. */
		async findWebhook(): Promise<WebhookSettings | null> {
			const found = record(await request({ method: 'GET', path: `/webhook/find/${instance}` }))
			if (!found || typeof found.url !== 'string' || found.url === '') return null
			const headers = record(found.headers)
			return {
				url: found.url,
				enabled: found.enabled === true,
				events: Array.isArray(found.events) ? found.events.filter((e): e is string => typeof e === 'string') : [],
				...(headers ? { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])) } : {})
			}
		}
	}
}

/** The body of POST /webhook/set for a version's plan. */
export function webhookBody(plan: Extract<WebhookPlan, { served: true }>, settings: WebhookSettings): Record<string, unknown> {
	const { enabled, url, events } = settings
	if (plan.body === 'v1') return { enabled, url, webhook_by_events: false, webhook_base64: false, events }
	if (plan.body === 'flat') return { enabled, url, webhookByEvents: false, webhookBase64: false, events }
	return {
		webhook: { enabled, url, ...(plan.headers ? { headers: settings.headers ?? {} } : {}), byEvents: false, base64: false, events }
	}
}

export type EvolutionClient = ReturnType<typeof createEvolutionClient>
