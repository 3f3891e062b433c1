/**
 * Fault rules of the Asaas stand-in: the next matching /v3 request (any method and path prefix) fails in a chosen
 * way, once or N times: an answer of any status (500…), 429 with a reset (long or short), the connection dropped
 * before anything is applied, a hang until the caller gives up, a delay, or the change applied and its answer lost.
 */
import { errorBody, json } from './shared'

/** Makes the next matching /v3 request fail in a given way (consumed once, or `times` times). */
export type FailureRule = {
	/** Exact method, e.g. 'POST'; any when absent. */
	method?: string
	/** Prefix of the path after /v3, e.g. '/payments'. */
	path?: string
	times?: number
} /** The change is applied, then the connection closes before any byte of the answer. */ & (
	| { mode: 'drop-after-apply' }
	/** The connection closes before anything is applied. */
	| { mode: 'drop' }
	/** No answer at all until the caller gives up (aborts). Nothing is applied. */
	| { mode: 'hang' }
	| { mode: 'delay'; ms: number }
	| { mode: 'status'; status: number; body?: unknown }
	| { mode: 'rate-limit'; resetSeconds: number }
)

/** A body that fails on the first read: the caller sees the connection drop. */
const dropped = (status: number) => new Response(new ReadableStream({ start: (c) => queueMicrotask(() => c.error()) }), { status })

/** Resolves when the request is aborted (the caller gave up), or after `ms` when given. */
function waitFor(req: Request, ms?: number) {
	return new Promise<void>((resolve, reject) => {
		const timer = ms === undefined ? undefined : setTimeout(resolve, ms)
		const abort = () => {
			clearTimeout(timer)
			reject(req.signal.reason)
		}
		if (req.signal.aborted) return abort()
		req.signal.addEventListener('abort', abort, { once: true })
	})
}

export function createFaults(quotaLimit: () => number) {
	const rules: FailureRule[] = []

	/** The first rule matching this request, consumed once. */
	function take(method: string, path: string): FailureRule | null {
		const index = rules.findIndex((r) => (!r.method || r.method === method) && (!r.path || path.startsWith(r.path)))
		const rule = index >= 0 ? rules[index] : null
		if (rule && (rule.times ?? 1) <= 1) rules.splice(index, 1)
		else if (rule) rule.times = (rule.times ?? 1) - 1
		return rule
	}

	/** The answer a rule gives instead of handling the request, or null when the request goes on. */
	async function before(rule: FailureRule | null, req: Request): Promise<Response | null> {
		if (rule?.mode === 'status') return json(rule.body ?? {}, rule.status)
		if (rule?.mode === 'drop') return dropped(200)
		if (rule?.mode === 'hang') {
			await waitFor(req)
			return dropped(200)
		}
		if (rule?.mode === 'rate-limit') {
			return errorBody(429, 'rate_limit_exceeded', 'Limite de requisições atingido.', {
				'RateLimit-Limit': String(quotaLimit()),
				'RateLimit-Remaining': '0',
				'RateLimit-Reset': String(rule.resetSeconds)
			})
		}
		return null
	}

	/** What becomes of the answer of a handled request: delayed, or lost after the change was applied. */
	async function after(rule: FailureRule | null, req: Request, res: Response): Promise<Response> {
		if (rule?.mode === 'delay') await waitFor(req, rule.ms)
		// The change is applied; the connection then closes before any byte of the answer.
		if (rule?.mode === 'drop-after-apply') return dropped(res.status)
		return res
	}

	return { add: (rule: FailureRule) => rules.push(rule), take, before, after }
}
