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
}

export const SESSION_REFUSED_EVENT = 'kportal:session-refused'

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
