/**
 * A small round-robin front for several portal instances on one machine (demo:cluster, the cluster tests, the
 * benchmark): what a reverse proxy does in a real deployment (deploy/), in a few lines of Bun. Each request goes to
 * the next instance whose readiness probe (GET /api/ready, every second) answers 200; a request an instance never
 * received (connection refused) goes to the next one. It adds X-Forwarded-For/-Host/-Proto and X-Request-Id, as the
 * portal expects with TRUST_PROXY=true.
 *
 * For the tests, `fanOutWebhooks` sends every webhook delivery (Asaas, Evolution) to every ready instance at once
 * and keeps a copy of it: the worst a balancer with retries can do to the portal.
 */

/** A webhook delivery as the front received it (fanOutWebhooks). */
export interface RecordedWebhook {
	path: string
	headers: Record<string, string>
	body: string
}

export interface Front {
	url: string
	/** The webhook deliveries that came through, oldest first (fanOutWebhooks only). */
	webhooks: RecordedWebhook[]
	/** Which instances answer their readiness probe now. */
	ready(): boolean[]
	stop(): Promise<void>
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']
const WEBHOOKS = ['/api/asaas/webhook/', '/api/whatsapp/webhook']

export function startFront(options: { upstreams: string[]; port?: number; hostname?: string; fanOutWebhooks?: boolean }): Front {
	const { upstreams } = options
	const ready = upstreams.map(() => false)
	const webhooks: RecordedWebhook[] = []
	let next = 0

	async function probe() {
		await Promise.all(
			upstreams.map(async (upstream, i) => {
				try {
					ready[i] = (await fetch(`${upstream}/api/ready`, { signal: AbortSignal.timeout(2_000) })).status === 200
				} catch {
					ready[i] = false
				}
			})
		)
	}
	const prober = setInterval(probe, 1_000)
	void probe()

	/** The ready instances, starting with the next one in turn (all of them when none is known ready yet). */
	function inTurn(): number[] {
		const order = upstreams.map((_, k) => (next + k) % upstreams.length)
		next = (next + 1) % upstreams.length
		const live = order.filter((i) => ready[i])
		return live.length > 0 ? live : order
	}

	function forward(upstream: string, request: Request, url: URL, headers: Headers, body: ArrayBuffer | null) {
		return fetch(`${upstream}${url.pathname}${url.search}`, {
			method: request.method,
			headers,
			body,
			redirect: 'manual',
			// Bodies pass as they are: the instance's compressed answer keeps its Content-Encoding.
			decompress: false
		} as RequestInit)
	}

	const server = Bun.serve({
		port: options.port ?? 0,
		hostname: options.hostname ?? '127.0.0.1',
		maxRequestBodySize: 16 * 1024 * 1024,
		async fetch(request, srv) {
			const url = new URL(request.url)
			const headers = new Headers(request.headers)
			for (const name of HOP_BY_HOP) headers.delete(name)
			const client = srv.requestIP(request)?.address ?? 'unknown'
			const forwardedFor = request.headers.get('x-forwarded-for')
			headers.set('x-forwarded-for', forwardedFor ? `${forwardedFor}, ${client}` : client)
			headers.set('x-forwarded-host', request.headers.get('host') ?? url.host)
			headers.set('x-forwarded-proto', url.protocol.replace(':', ''))
			if (!headers.has('x-request-id')) headers.set('x-request-id', crypto.randomUUID())
			const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer()

			if (options.fanOutWebhooks && request.method === 'POST' && WEBHOOKS.some((p) => url.pathname.startsWith(p))) {
				webhooks.push({ path: url.pathname + url.search, headers: Object.fromEntries(headers), body: new TextDecoder().decode(body!) })
				const answers = await Promise.allSettled(inTurn().map((i) => forward(upstreams[i], request, url, headers, body)))
				const answered = answers.find((a): a is PromiseFulfilledResult<Response> => a.status === 'fulfilled')
				return answered?.value ?? new Response('Nenhuma instância do portal respondeu.', { status: 502 })
			}

			for (const i of inTurn()) {
				try {
					return await forward(upstreams[i], request, url, headers, body)
				} catch (error) {
					ready[i] = false
					// Only a request the instance never received (it is down) goes to the next one: another may have been done.
					if ((error as { code?: string }).code !== 'ConnectionRefused') break
				}
			}
			return new Response('Nenhuma instância do portal respondeu.', { status: 502 })
		}
	})

	return {
		url: `http://${server.hostname}:${server.port}`,
		webhooks,
		ready: () => [...ready],
		async stop() {
			clearInterval(prober)
			await server.stop(true)
		}
	}
}
