import { Elysia } from 'elysia'
import { AppError, type AppConfig } from '../../../modules/core'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const DEFAULT_BODY_LIMIT = 256 * 1024

export interface RequestPolicy {
	/** Paths called by other systems (licence check, webhooks): they carry their own credential instead of an Origin. */
	csrfExempt: string[]
	/** Larger body limits for the few routes that take uploads, by path prefix. */
	bodyLimits: Record<string, number>
}

function reject(status: number, message: string, code: string) {
	return new Response(JSON.stringify({ message, code }), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }
	})
}

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
 * Checks made for every API request: before routing, the declared size and CSRF (Origin / Sec-Fetch-Site);
 * then one body parser that accepts only JSON within the route's size limit. API answers are never cached.
 */
export function requestGuards(config: AppConfig, policy: RequestPolicy) {
	const bodyLimitFor = (path: string) => {
		for (const [prefix, limit] of Object.entries(policy.bodyLimits)) if (path.startsWith(prefix)) return limit
		return DEFAULT_BODY_LIMIT
	}
	return new Elysia({ name: 'security' }).onRequest(({ request, set }) => {
		const path = new URL(request.url).pathname
		set.headers['x-content-type-options'] = 'nosniff'
		set.headers['referrer-policy'] = 'same-origin'
		set.headers['x-frame-options'] = 'DENY'
		if (config.secureCookies) set.headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains'
		if (!path.startsWith('/api/')) return
		set.headers['cache-control'] = 'no-store'
		if (SAFE_METHODS.has(request.method)) return

		const limit = bodyLimitFor(path)
		const length = Number(request.headers.get('content-length') ?? '0')
		if (!Number.isFinite(length) || length > limit) {
			return reject(413, `O corpo da requisição excede o limite de ${Math.floor(limit / 1024)} KB.`, 'PAYLOAD_TOO_LARGE')
		}
		if (policy.csrfExempt.some((prefix) => path.startsWith(prefix))) return
		if (!isSameOrigin(request, config)) {
			return reject(403, 'Requisição recusada: origem não permitida.', 'CSRF')
		}
	})
		.onParse({ as: 'global' }, async ({ request }) => {
			// The one body parser of the API: JSON only, size checked on the bytes actually received.
			const path = new URL(request.url).pathname
			const limit = bodyLimitFor(path)
			const bytes = new Uint8Array(await request.arrayBuffer())
			if (bytes.byteLength > limit) {
				throw new AppError(413, `O corpo da requisição excede o limite de ${Math.floor(limit / 1024)} KB.`, 'PAYLOAD_TOO_LARGE')
			}
			if (bytes.byteLength === 0) return {}
			const type = request.headers.get('content-type') ?? ''
			if (!type.toLowerCase().startsWith('application/json')) {
				throw new AppError(415, 'Envie os dados como JSON (Content-Type: application/json).', 'UNSUPPORTED_MEDIA_TYPE')
			}
			try {
				return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
			} catch {
				throw new AppError(400, 'Corpo da requisição inválido: envie um JSON válido.', 'PARSE')
			}
		})
}
