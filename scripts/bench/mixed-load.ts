/**
 * The mixed signed-in load of bench:cluster (argv: urls sessionsFile seconds concurrency origin):
 * representatives working in the portal, each client with its own session on one instance in turn (several urls,
 * comma-separated): their companies page, who they are, their credits and notifications, and now and then a transfer
 * of one credit to one of their companies (a write in a transaction). Prints one JSON line of figures.
 */
import { loadFigures, percentile } from './figures'

const [urls, sessionsFile, seconds, concurrency, origin] = process.argv.slice(2)
const targets = urls.split(',')
const sessions = (await Bun.file(sessionsFile).json()) as { cookie: string; empresas: number[] }[]
const until = performance.now() + Number(seconds) * 1000
const latencies: number[] = []
/** Latencies per kind of request (its path without the query), to tell which one a slow p99 comes from. */
const byKind = new Map<string, number[]>()
let errors = 0
const statuses = new Map<number, number>()

/** A request of the mix: the weights are a representative's use of the screens. */
function pick(session: { empresas: number[] }, r: number): { method: string; path: string; body?: unknown } {
	if (r < 0.3) return { method: 'GET', path: `/api/companies?page=${1 + (Math.floor(r * 100) % 5)}&limit=20&search=` }
	if (r < 0.5) return { method: 'GET', path: '/api/auth/me' }
	if (r < 0.65) return { method: 'GET', path: '/api/credits/available' }
	if (r < 0.8) return { method: 'GET', path: '/api/notifications' }
	if (r < 0.9) return { method: 'GET', path: '/api/credits?page=1&limit=20' }
	const empresa = session.empresas[Math.floor(Math.random() * session.empresas.length)]
	return { method: 'POST', path: '/api/credits/transfer-to-company', body: { empresaCodigo: empresa, sistema: 'K-PDV', creditos: 1 } }
}

async function client(i: number) {
	const session = sessions[i % sessions.length]
	const base = targets[i % targets.length]
	while (performance.now() < until) {
		const request = pick(session, Math.random())
		const start = performance.now()
		try {
			const res = await fetch(base + request.path, {
				method: request.method,
				headers: { cookie: session.cookie, origin, 'content-type': 'application/json' },
				body: request.body === undefined ? undefined : JSON.stringify(request.body)
			})
			await res.arrayBuffer()
			const took = performance.now() - start
			latencies.push(took)
			const kind = `${request.method} ${request.path.split('?')[0]}`
			byKind.set(kind, [...(byKind.get(kind) ?? []), took])
			statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
			if (res.status >= 300) errors++
		} catch {
			errors++
		}
	}
}

const started = performance.now()
const cpuAtStart = process.cpuUsage()
await Promise.all(Array.from({ length: Number(concurrency) }, (_, i) => client(i)))
console.log(
	JSON.stringify({
		...loadFigures(latencies, (performance.now() - started) / 1000, errors, cpuAtStart),
		statuses: Object.fromEntries(statuses),
		p99ByKind: Object.fromEntries(
			[...byKind].map(([kind, times]) => [
				kind,
				Math.round(
					percentile(
						times.sort((a, b) => a - b),
						99
					)
				)
			])
		)
	})
)
