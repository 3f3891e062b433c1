import { Elysia } from 'elysia'
import { AppError, type AppConfig, errorResponse } from '../../../modules/core/server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const DEFAULT_BODY_LIMIT = 256 * 1024
/** No form of the portal nests deeper than a few levels; 100,000 levels of arrays once stalled the server for seconds. */
export const MAX_JSON_DEPTH = 32
const utf8 = new TextDecoder('utf-8', { fatal: true })

export interface RequestPolicy {
	/** Paths called by other systems (licence check, webhooks): they carry their own credential instead of an Origin. */
	csrfExempt: string[]
	/** Larger body limits for the few routes that take uploads, by path prefix. */
	bodyLimits: Record<string, number>
}

/** Headers every answer carries; API answers are never cached either. */
function securityHeaders(config: AppConfig, api: boolean): Record<string, string> {
	const headers: Record<string, string> = {
		'x-content-type-options': 'nosniff',
		'referrer-policy': 'same-origin',
		'x-frame-options': 'DENY'
	}
	if (config.secureCookies) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains'
	if (api) headers['cache-control'] = 'no-store'
	return headers
}

const tooLarge = (limit: number) =>
	new AppError(413, `O corpo da requisição excede o limite de ${Math.floor(limit / 1024)} KB.`, 'PAYLOAD_TOO_LARGE')

function requestHost(request: Request, config: AppConfig): string | null {
	if (config.trustProxy) {
		const forwarded = request.headers.get('x-forwarded-host')
		if (forwarded) return forwarded.split(',')[0].trim().toLowerCase()
	}
	return request.headers.get('host')?.toLowerCase() ?? new URL(request.url).host
}

/** A state-changing request must come from a page of the portal itself. */
export function isSameOrigin(request: Request, config: AppConfig): boolean {
	const site = request.headers.get('sec-fetch-site')
	if (site && site !== 'same-origin') return false
	const origin = request.headers.get('origin')
	if (!origin || origin === 'null') return false
	let originUrl: URL
	try {
		originUrl = new URL(origin)
	} catch {
		return false
	}
	if (config.publicOrigin) return originUrl.origin === new URL(config.publicOrigin).origin
	return originUrl.host.toLowerCase() === requestHost(request, config)
}

/**
 * True when the JSON text opens more than `max` arrays or objects inside one another, counted on the raw bytes
 * outside strings: a linear scan that runs before JSON.parse, so a deeply nested body costs no parsing at all.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
	let depth = 0
	let inString = false
	for (let i = 0; i < bytes.length; i++) {
		const byte = bytes[i]
		if (inString) {
			if (byte === 0x5c)
				i++ // backslash: the next byte is escaped
			else if (byte === 0x22) inString = false
		} else if (byte === 0x22) inString = true
		else if (byte === 0x5b || byte === 0x7b) {
			if (++depth > max) return true
		} else if (byte === 0x5d || byte === 0x7d) depth--
	}
	return false
}

/**
 * Reads a body as it streams in and stops at `limit`: a chunked upload without Content-Length is refused at the
 * route's limit, not after the server's 8 MiB.
 */
async function readBody(request: Request, limit: number): Promise<Uint8Array> {
	// A body of declared length (already checked against the limit before routing) is read whole: the server reads no
	// more than it declares, and this skips the stream's machinery (a tenth of a licence check's time). Only a chunked
	// body, whose length nobody declared, is counted as it arrives.
	if (request.headers.has('content-length') && !request.headers.has('transfer-encoding')) {
		const bytes = new Uint8Array(await request.arrayBuffer())
		if (bytes.byteLength > limit) throw tooLarge(limit)
		return bytes
	}
	if (!request.body) return new Uint8Array(0)
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > limit) {
			await reader.cancel().catch(() => {})
			throw tooLarge(limit)
		}
		chunks.push(value)
	}
	return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
}

/**
 * A parsed body serialises as a placeholder: when validation refuses it, Elysia writes the value into its error's
 * text (pretty-printed outside production), and a large refused body must cost nothing there. Handlers never see
 * this: they get the validator's output, which is a new object.
 */
function omittedFromErrors<T>(value: T): T {
	if (value !== null && typeof value === 'object') {
		Object.defineProperty(value, 'toJSON', { value: () => '[corpo omitido]', enumerable: false })
	}
	return value
}

/** The path of an absolute request URL, without parsing the whole URL (this runs on every request). */
export function pathOf(url: string): string {
	const start = url.indexOf('/', url.indexOf('//') + 2)
	if (start < 0) return '/'
	const end = url.indexOf('?', start)
	return end < 0 ? url.slice(start) : url.slice(start, end)
}

/**
 * Checks made for every API request: before routing, the declared size and CSRF (Origin / Sec-Fetch-Site);
 * then one body parser that accepts only JSON within the route's size limit. API answers are never cached.
 */
export function requestGuards(config: AppConfig, policy: RequestPolicy) {
	const bodyLimits = Object.entries(policy.bodyLimits)
	const bodyLimitFor = (path: string) => {
		for (const [prefix, limit] of bodyLimits) if (path.startsWith(prefix)) return limit
		return DEFAULT_BODY_LIMIT
	}
	const pageHeaders = securityHeaders(config, false)
	const apiHeaders = securityHeaders(config, true)
	return new Elysia({ name: 'security' })
		.onRequest(({ request, set }) => {
			const path = pathOf(request.url)
			const api = path.startsWith('/api/')
			Object.assign(set.headers, api ? apiHeaders : pageHeaders)
			if (!api || SAFE_METHODS.has(request.method)) return

			const limit = bodyLimitFor(path)
			const length = Number(request.headers.get('content-length') ?? '0')
			if (!Number.isFinite(length) || length > limit) {
				const error = tooLarge(limit)
				return errorResponse(error.status, error.message, error.code)
			}
			if (policy.csrfExempt.some((prefix) => path.startsWith(prefix))) return
			if (!isSameOrigin(request, config)) {
				return errorResponse(403, 'Requisição recusada: origem não permitida.', 'CSRF')
			}
		})
		.onParse({ as: 'global' }, async ({ request, path }) => {
			// The one body parser of the API: JSON only, size checked on the bytes as they arrive, nesting before parsing.
			const bytes = await readBody(request, bodyLimitFor(path))
			if (bytes.byteLength === 0) return {}
			const type = request.headers.get('content-type') ?? ''
			if (!type.toLowerCase().startsWith('application/json')) {
				throw new AppError(415, 'Envie os dados como JSON (Content-Type: application/json).', 'UNSUPPORTED_MEDIA_TYPE')
			}
			if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
				throw new AppError(400, `Corpo da requisição inválido: o JSON tem níveis demais (máximo ${MAX_JSON_DEPTH}).`, 'PARSE')
			}
			let parsed: unknown
			try {
				parsed = JSON.parse(utf8.decode(bytes))
			} catch {
				throw new AppError(400, 'Corpo da requisição inválido: envie um JSON válido.', 'PARSE')
			}
			return omittedFromErrors(parsed)
		})
}
