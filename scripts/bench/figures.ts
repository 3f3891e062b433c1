/** The p-th percentile of latencies sorted in ascending order. */
export function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/**
 * What a load generator prints, as one JSON line's fields: requests answered, errors, requests per second, latency
 * percentiles in ms, and its own CPU in cores since `cpuAtStart` (the machine's cores are shared with what it measures).
 */
export function loadFigures(latencies: number[], seconds: number, errors: number, cpuAtStart: NodeJS.CpuUsage) {
	const sorted = [...latencies].sort((a, b) => a - b)
	const cpu = process.cpuUsage(cpuAtStart)
	return {
		requests: sorted.length,
		errors,
		rps: sorted.length / seconds,
		p50: percentile(sorted, 50),
		p95: percentile(sorted, 95),
		p99: percentile(sorted, 99),
		cpu: (cpu.user + cpu.system) / 1e6 / seconds
	}
}
