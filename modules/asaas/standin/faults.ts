/** Fault rules of the Asaas stand-in: the next matching /v3 request fails in a chosen way, once or N times. */
import { errorBody, json } from './shared'

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

export function createFaults() {
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
	function before(rule: FailureRule | null): Response | null {
		if (rule?.mode === 'status') return json(rule.body ?? {}, rule.status)
		if (rule?.mode === 'rate-limit') {
			return errorBody(429, 'rate_limit_exceeded', 'Limite de requisições atingido.', {
				'RateLimit-Limit': '25000',
				'RateLimit-Remaining': '0',
				'RateLimit-Reset': String(rule.resetSeconds)
			})
		}
		return null
	}

	/** What becomes of the answer of a handled request: delayed, or lost after the change was applied. */
	async function after(rule: FailureRule | null, req: Request, res: Response): Promise<Response> {
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

	return { add: (rule: FailureRule) => rules.push(rule), take, before, after }
}
