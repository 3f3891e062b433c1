/** Closed-loop load generator (argv: url keysFile seconds concurrency). Prints one JSON line of figures. */
const [url, keysFile, seconds, concurrency] = process.argv.slice(2)
const keys = (await Bun.file(keysFile).json()) as { cnpj: string; chave: string; mac: string }[]
const until = performance.now() + Number(seconds) * 1000
const latencies: number[] = []
let errors = 0
let n = 0

async function worker(seed: number) {
	// xorshift32 in 32-bit integer arithmetic, so every client walks all the keys (an LCG in doubles falls into short cycles).
	let x = seed * 2654435761
	while (performance.now() < until) {
		x ^= x << 13
		x ^= x >>> 17
		x ^= x << 5
		const k = keys[(x >>> 0) % keys.length]
		const body = JSON.stringify({ cnpj: k.cnpj, chave: k.chave, sistema: 'K-PDV', mac: k.mac, nonce: String(n++) })
		const start = performance.now()
		try {
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
			await res.arrayBuffer()
			if (res.status !== 200) errors++
		} catch {
			errors++
		}
		latencies.push(performance.now() - start)
	}
}
const started = performance.now()
const cpuAtStart = process.cpuUsage()
await Promise.all(Array.from({ length: Number(concurrency) }, (_, i) => worker(i + 1)))
const elapsed = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuAtStart)
latencies.sort((a, b) => a - b)
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
console.log(
	JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / elapsed, p50: pct(50), p95: pct(95), p99: pct(99), cpu: (cpu.user + cpu.system) / 1e6 / elapsed })
)
export {}
