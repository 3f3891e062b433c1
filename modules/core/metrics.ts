/**
 * The counters of one portal process, rendered in Prometheus's text format (GET /metrics): requests and their
 * latencies per route pattern, licence checks per answer, job runs per outcome. Each instance counts its own (a
 * scraper asks every instance); what the instances share (the webhook inbox's depth) is read from the database at
 * each scrape, as gauges.
 */

/** Seconds: the upper bounds of the latency histogram's buckets. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export type JobOutcome = 'ok' | 'failed' | 'skipped' | 'fenced'

/** A value read at scrape time (from the database), with its help text. */
export interface Gauge {
	name: string
	help: string
	labels?: Record<string, string>
	read: () => Promise<number>
}

interface Histogram {
	labels: string
	buckets: number[]
	sum: number
	count: number
}

/** A label value as the text format writes it: backslash, double quote and line feed escaped. */
const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const labelText = (labels: Record<string, string>) =>
	Object.keys(labels).length === 0
		? ''
		: `{${Object.entries(labels)
				.map(([k, v]) => `${k}="${escapeLabel(v)}"`)
				.join(',')}}`

export class Metrics {
	private readonly requests = new Map<string, number>()
	private readonly latencies = new Map<string, Histogram>()
	private readonly licenceChecks = new Map<string, number>()
	private readonly jobRuns = new Map<string, number>()
	private readonly startedAt = Date.now()

	/** One answered request: `route` is the route's pattern (/api/companies/:id), never the raw path. */
	request(method: string, route: string, status: number, seconds: number) {
		const labels = labelText({ method, route })
		const counted = labelText({ method, route, status: String(status) })
		this.requests.set(counted, (this.requests.get(counted) ?? 0) + 1)
		let histogram = this.latencies.get(labels)
		if (!histogram) {
			histogram = { labels, buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }
			this.latencies.set(labels, histogram)
		}
		for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]) histogram.buckets[i]++
		histogram.sum += seconds
		histogram.count++
	}

	/** One licence check answered, by its status (ativa, expirada, chave_invalida…). */
	licenceCheck(status: string) {
		this.licenceChecks.set(status, (this.licenceChecks.get(status) ?? 0) + 1)
	}

	/** One tick of a scheduled job: ran, failed, skipped (another instance held it) or fenced (its lease had passed on). */
	jobRun(job: string, outcome: JobOutcome) {
		const key = labelText({ job, outcome })
		this.jobRuns.set(key, (this.jobRuns.get(key) ?? 0) + 1)
	}

	/** The text format (version 0.0.4), with `gauges` read now. */
	async render(gauges: Gauge[] = []): Promise<string> {
		const lines: string[] = []
		const family = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)

		family('portal_http_requests_total', 'counter', 'Requisições respondidas por esta instância, por método, rota e status.')
		for (const [labels, n] of this.requests) lines.push(`portal_http_requests_total${labels} ${n}`)

		family('portal_http_request_duration_seconds', 'histogram', 'Tempo de resposta por método e rota.')
		for (const h of this.latencies.values()) {
			const inner = h.labels.slice(1, -1)
			for (const [i, le] of LATENCY_BUCKETS.entries()) {
				lines.push(`portal_http_request_duration_seconds_bucket{${inner},le="${le}"} ${h.buckets[i]}`)
			}
			lines.push(`portal_http_request_duration_seconds_bucket{${inner},le="+Inf"} ${h.count}`)
			lines.push(`portal_http_request_duration_seconds_sum${h.labels} ${h.sum}`)
			lines.push(`portal_http_request_duration_seconds_count${h.labels} ${h.count}`)
		}

		family('portal_licence_checks_total', 'counter', 'Verificações de licença respondidas por esta instância, pelo status da resposta.')
		for (const [status, n] of this.licenceChecks) lines.push(`portal_licence_checks_total${labelText({ status })} ${n}`)

		family('portal_job_runs_total', 'counter', 'Execuções dos trabalhos agendados nesta instância, pelo resultado.')
		for (const [labels, n] of this.jobRuns) lines.push(`portal_job_runs_total${labels} ${n}`)

		const named = new Set<string>()
		for (const gauge of gauges) {
			if (!named.has(gauge.name)) family(gauge.name, 'gauge', gauge.help)
			named.add(gauge.name)
			lines.push(`${gauge.name}${labelText(gauge.labels ?? {})} ${await gauge.read()}`)
		}

		family('process_start_time_seconds', 'gauge', 'Quando esta instância começou (segundos desde 1970).')
		lines.push(`process_start_time_seconds ${Math.floor(this.startedAt / 1000)}`)
		family('process_resident_memory_bytes', 'gauge', 'Memória residente desta instância.')
		lines.push(`process_resident_memory_bytes ${process.memoryUsage().rss}`)
		return `${lines.join('\n')}\n`
	}
}
