import { Elysia } from 'elysia'
import { type AppContext, enterRequest } from '../../../modules/core/server'

/** A request id the portal takes from a proxy as it comes: 8 to 128 letters, digits, dots, dashes or underscores. */
const WELL_FORMED_ID = /^[A-Za-z0-9._-]{8,128}$/
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Answers slower than this are logged whatever they were. */
const SLOW_SECONDS = 1
/** The desktop systems' licence check: its successes are counted (metrics), never logged one by one. */
const LICENCE_CHECK = '/api/licenca/verificar'

/**
 * Every request gets an id: the proxy's X-Request-Id when well formed, else a new one. The answer carries it back
 * (x-request-id) and every log line written while serving it has it (core/context.ts jsonLogger), so an operator
 * follows one request across instances. Each answer is counted per route pattern (never the raw path) with its
 * latency; a line `http.request` is logged for what an operator looks for: failures (5xx), slow answers, and writes
 * that succeeded (the licence check's excepted: it is counted, not logged). Refusals (401, 403, 404) have their own
 * grouped log (auth/refusals.ts), so a flood of them cannot flood this one.
 */
export function observe(ctx: Pick<AppContext, 'log' | 'metrics'>) {
	const started = new WeakMap<Request, number>()
	return new Elysia({ name: 'observe' })
		.onRequest(({ request, set }) => {
			const given = request.headers.get('x-request-id')
			const id = given && WELL_FORMED_ID.test(given) ? given : crypto.randomUUID()
			enterRequest(id)
			set.headers['x-request-id'] = id
			started.set(request, performance.now())
		})
		.onAfterResponse({ as: 'global' }, (context) => {
			const { request, route, set, path } = context
			const seconds = (performance.now() - (started.get(request) ?? performance.now())) / 1000
			// A handler's own Response has its status; otherwise set.status (errors.ts sets it for error answers).
			const answer = (context as { responseValue?: unknown }).responseValue
			const status = answer instanceof Response ? answer.status : typeof set.status === 'number' ? set.status : 200
			const pattern = route || 'sem_rota'
			ctx.metrics.request(request.method, pattern, status, seconds)
			const write = !SAFE_METHODS.has(request.method) && status < 400 && pattern !== LICENCE_CHECK
			if (status >= 500 || seconds >= SLOW_SECONDS || write) {
				ctx.log('http.request', { method: request.method, route: pattern, path, status, ms: Math.round(seconds * 1000) })
			}
		})
}
