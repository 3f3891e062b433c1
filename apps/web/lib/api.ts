import { type ContractsOf, type HttpMethod, type InputOf, type ResponseOf, routeKeyUrl } from '../../../modules/core'
import type * as models from './contracts'

/** A failed call: its message is "status: body" as 1-core §8 describes; `status` is kept for decisions. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly body: string
	) {
		super(`${status}: ${body}`)
		this.name = 'ApiError'
	}

	/** The server's `message` field, when the body is our JSON error. */
	get serverMessage(): string | null {
		try {
			const parsed = JSON.parse(this.body) as { message?: unknown }
			return typeof parsed.message === 'string' ? parsed.message : null
		} catch {
			return null
		}
	}

	/** The server's `code` field (e.g. DUPLICATE_CNPJ), when the body is our JSON error. */
	get serverCode(): string | null {
		try {
			const parsed = JSON.parse(this.body) as { code?: unknown }
			return typeof parsed.code === 'string' ? parsed.code : null
		} catch {
			return null
		}
	}
}

export const SESSION_REFUSED_EVENT = 'kportal:session-refused'

let sessionEnded = false

/**
 * The page's session is over (signed out, or expired) and it is leaving: from now on no call leaves the browser.
 * Without it, the islands re-rendering for "no user" during the last 100 ms fetched and got 401s (issue 14, point 9).
 */
export function endSession() {
	sessionEnded = true
}

export interface ApiOptions {
	method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
	body?: unknown
	signal?: AbortSignal
}

/**
 * The one fetch wrapper of the islands: sends the session cookie, sends a JSON body only when
 * one is given, and turns any non-2xx answer into an ApiError.
 */
export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
	if (sessionEnded) throw new ApiError(401, JSON.stringify({ message: 'Sessão encerrada.' }))
	const init: RequestInit = { method: options.method ?? 'GET', credentials: 'include', signal: options.signal }
	if (options.body !== undefined) {
		init.body = JSON.stringify(options.body)
		init.headers = { 'content-type': 'application/json' }
	}
	const response = await fetch(path, init)
	if (!response.ok) {
		const text = await response.text().catch(() => '')
		// Any call refused for want of a session tells the page to check it (stores/session.ts listens).
		if (response.status === 401 && typeof window !== 'undefined') window.dispatchEvent(new Event(SESSION_REFUSED_EVENT))
		throw new ApiError(response.status, text || response.statusText)
	}
	if (response.status === 204) return undefined as T
	const type = response.headers.get('content-type') ?? ''
	return (type.includes('application/json') ? await response.json() : await response.text()) as T
}

/** What a toast should say about a failure: the server's message, else the fallback. */
export function errorText(error: unknown, fallback = 'Ocorreu um erro inesperado.'): string {
	if (error instanceof ApiError) return error.serverMessage ?? fallback
	if (error instanceof TypeError) return 'Não foi possível conectar ao servidor. Verifique sua conexão.'
	return fallback
}

/** Client errors (4xx) are final; network failures, timeouts and 5xx may be retried. */
export function isRetryable(error: unknown): boolean {
	if (error instanceof ApiError) return error.status >= 500 || error.status === 408
	return true
}

/** Delay before retry number `attempt` (1-based): 1 s doubling, capped. */
export function retryDelay(attempt: number, capMs = 5_000): number {
	return Math.min(1_000 * 2 ** (attempt - 1), capMs)
}

/**
 * Every route the islands may call, keyed 'METHOD /path', with its request and response types taken from the
 * server's own contracts (the modules listed in contracts.ts).
 */
type Contracts = { [M in keyof typeof models]: ContractsOf<(typeof models)[M]> }[keyof typeof models]
export type ApiRoutes = { [C in Contracts as `${C['method']} ${C['path']}`]: C }
export type ApiRoute = keyof ApiRoutes
/** The reads: the routes whose answers the cache holds, and what a write names as the reads it changes. */
export type GetRoute = Extract<ApiRoute, `GET ${string}`>
export type ApiResponse<K extends ApiRoute> = ResponseOf<ApiRoutes[K]>
export type ApiInput<K extends ApiRoute> = InputOf<ApiRoutes[K]>
export type ApiQuery<K extends ApiRoute> = NonNullable<ApiInput<K>['query']>

/** Splits 'GET /api/x/:id' into its method and the URL for these parameters and query. */
export function routeRequest(route: ApiRoute, input: { params?: unknown; query?: unknown } = {}) {
	const method = route.slice(0, route.indexOf(' ')) as HttpMethod
	const url = routeKeyUrl(route, input.params as Record<string, unknown>, input.query as Record<string, unknown>)
	return { method, url }
}

/** Calls a route of the portal: typed by its contract, through the one fetch wrapper. */
export function call<K extends ApiRoute>(
	route: K,
	...[input, signal]: Record<never, never> extends ApiInput<K> ? [ApiInput<K>?, AbortSignal?] : [ApiInput<K>, AbortSignal?]
): Promise<ApiResponse<K>> {
	const { method, url } = routeRequest(route, input)
	return api<ApiResponse<K>>(url, { method, body: (input as { body?: unknown } | undefined)?.body, signal })
}
