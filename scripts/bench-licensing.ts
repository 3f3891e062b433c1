/**
 * bun run bench:licensing — 100,000 companies and 200,000 terminals in a temporary database, then:
 * (1) p50/p95/p99 of GET /api/companies?page&limit=20&search= for five kinds of search (target p95 ≤ 25 ms);
 * (2) licence checks per second under load from a second process, against a bare Elysia + bun:sqlite
 *     point lookup measured in the same run, as a ratio (target ≥ 50%).
 * On PostgreSQL when DATABASE_URL is set: the same data in a scratch database on that server, the bare lookup through
 * postgres.js. `-- --both` runs it on SQLite and then on PostgreSQL (DATABASE_URL's server, or a throw-away cluster)
 * and compares the portal's licence checks per second (target: PostgreSQL ≥ 50% of SQLite, one instance).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpuSeconds } from './bench/cpu'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../apps/server/app'
import { readConfig } from '../apps/server/config'
import type postgres from 'postgres'
import { type Db, openDb, openPostgres } from '../db/client'
import { DIALECT } from '../db/dialect'
import { startPostgresCluster } from '../db/postgres-cluster'
import { hashPassword, users } from '../modules/auth'
import { completeCnpj, systemClock } from '../modules/core'
import { silentLogger, testConfig, portalContext } from '../modules/core/server'
import { copyToPostgres, scratchPostgres } from './bench/postgres'
import { seedLicensingBench } from './bench/seed-licensing'

const DATABASE_NAME = DIALECT === 'postgres' ? 'PostgreSQL' : 'SQLite'
/** The last line of a run, read by `--both`. */
const RESULT_LINE = /^licence checks per second on (\w+): (\d+)$/m

if (process.argv.includes('--both')) {
	await compareDatabases()
	process.exit()
}

/** Runs this benchmark on SQLite, then on PostgreSQL, each in its own process, and compares their licence checks. */
async function compareDatabases() {
	const cluster = process.env.DATABASE_URL?.trim() ? null : await startPostgresCluster()
	const rates: Record<string, number> = {}
	let failed = false
	try {
		for (const url of ['', process.env.DATABASE_URL?.trim() || cluster!.url]) {
			const run = Bun.spawn([process.execPath, import.meta.path], {
				env: { ...process.env, DATABASE_URL: url },
				stdout: 'pipe',
				stderr: 'inherit'
			})
			let output = ''
			const decoder = new TextDecoder()
			for await (const chunk of run.stdout as unknown as AsyncIterable<Uint8Array>) {
				const text = decoder.decode(chunk, { stream: true })
				output += text
				process.stdout.write(text)
			}
			failed ||= (await run.exited) !== 0
			const match = output.match(RESULT_LINE)
			if (match) rates[match[1]] = Number(match[2])
		}
	} finally {
		await cluster?.stop()
	}
	const ratio = rates.PostgreSQL / rates.SQLite
	console.log(
		`\nlicence checks per second, one instance: SQLite ${rates.SQLite ?? '—'}, PostgreSQL ${rates.PostgreSQL ?? '—'}: PostgreSQL = ${(ratio * 100).toFixed(0)}% of SQLite (target ≥ 50%): ${ratio >= 0.5 ? 'ok' : 'BELOW'}`
	)
	if (failed || !(ratio >= 0.5)) process.exitCode = 1
}

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 100_000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** Each server is loaded this long before it is measured: JIT, caches and connections warm up. */
const WARM_UP_SECONDS = 3
const LICENCE_WORKERS = readConfig().app.licenceWorkers
const dir = mkdtempSync(join(tmpdir(), 'kportal-bench-'))
const dbPath = join(dir, 'bench.sqlite')
const bun = process.execPath
const scratch = DIALECT === 'postgres' ? await scratchPostgres('bench_licensing') : null
/** What the servers open: the SQLite file, or the PostgreSQL database the file was copied into. */
const database = scratch?.url ?? dbPath

try {
	console.log(`database: ${DATABASE_NAME}`)
	const t = performance.now()
	const { keys } = seedLicensingBench(dbPath, { representatives: 1_000, companies: COMPANIES })
	if (scratch) await copyToPostgres(dbPath, scratch.url, ['representatives', 'companies', 'terminals'])
	console.log(
		`seeded ${COMPANIES.toLocaleString('pt-BR')} companies and ${(COMPANIES * 2).toLocaleString('pt-BR')} terminals in ${((performance.now() - t) / 1000).toFixed(1)} s`
	)

	// (1) the companies list, in process, as an administrador
	const db: Db = scratch ? openPostgres(scratch.url) : openDb(dbPath)
	const now = new Date().toISOString()
	const adminCnpj = completeCnpj('600000000001')
	await db.insert(users).values({
		cnpj: adminCnpj,
		nome: 'Bench',
		tipo: 'administrador',
		senha_hash: await hashPassword('bench-senha'),
		created_at: now,
		updated_at: now
	})
	const app = await createApp(
		portalContext({ db, clock: systemClock, config: testConfig({ dataDir: join(dir, 'data') }), log: silentLogger })
	)
	const login = await app.handle(
		new Request('http://localhost/api/auth/login', {
			method: 'POST',
			headers: { origin: 'http://localhost', 'content-type': 'application/json' },
			body: JSON.stringify({ cnpj: adminCnpj, senha: 'bench-senha' })
		})
	)
	const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]
	const searches: [string, (i: number) => string][] = [
		['no search (page through)', (i) => `page=${1 + (i % 500)}&limit=20&search=`],
		['razão social word', (i) => `page=1&limit=20&search=${encodeURIComponent(['Padaria', 'Farmácia', 'Pizzaria', 'Estrela'][i % 4])}`],
		['masked CNPJ prefix', (i) => `page=1&limit=20&search=${encodeURIComponent(`80.000.00${i % 10}/`)}`],
		['city', (i) => `page=${1 + (i % 20)}&limit=20&search=${encodeURIComponent(['Fortaleza', 'Recife', 'Curitiba'][i % 3])}`],
		['substring with status filter', (i) => `page=1&limit=20&status=expiradas&search=${encodeURIComponent(`ão ${i % 90}`)}`]
	]
	console.log('\n(1) GET /api/companies (administrador, 300 requests each)')
	console.log(`${'search'.padEnd(32)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'p99'.padStart(9)}  target p95 ≤ 25 ms`)
	let worstP95 = 0
	let listFailures = 0
	eachSearch: for (const [name, qs] of searches) {
		const times: number[] = []
		for (let i = 0; i < 330; i++) {
			const start = performance.now()
			const res = await app.handle(new Request(`http://localhost/api/companies?${qs(i)}`, { headers: { cookie } }))
			const text = await res.text()
			// A failing search is reported and the benchmark goes on to the licence checks.
			if (res.status !== 200) {
				console.log(`${name.padEnd(32)}FAILED: HTTP ${res.status} ${text.slice(0, 200)}`)
				listFailures++
				continue eachSearch
			}
			if (i >= 30) times.push(performance.now() - start)
		}
		times.sort((a, b) => a - b)
		const p = (q: number) => times[Math.floor(q * (times.length - 1))]
		worstP95 = Math.max(worstP95, p(0.95))
		console.log(
			`${name.padEnd(32)}${p(0.5).toFixed(2).padStart(7)}ms${p(0.95).toFixed(2).padStart(7)}ms${p(0.99).toFixed(2).padStart(7)}ms  ${p(0.95) <= 25 ? 'ok' : 'OVER'}`
		)
	}
	if (scratch) await (db.$client as unknown as postgres.Sql).end()
	else db.$client.close()

	// (2) licence checks from a second process, portal vs bare lookup
	const keysFile = join(dir, 'keys.json')
	writeFileSync(keysFile, JSON.stringify(keys))
	async function serve(script: string, port: number) {
		const proc = Bun.spawn([bun, script, database, String(port)], {
			stdout: 'pipe',
			stderr: 'inherit',
			env: { ...process.env, LICENCE_WORKERS: String(LICENCE_WORKERS) }
		})
		const reader = proc.stdout.getReader()
		const { value } = await reader.read()
		if (!new TextDecoder().decode(value).includes('ready')) throw new Error(`${script} did not start`)
		return proc
	}
	async function load(url: string, serverPid: number, seconds: number) {
		const cpuBefore = cpuSeconds(serverPid)
		const started = performance.now()
		const proc = Bun.spawn([bun, 'scripts/bench/load.ts', url, keysFile, String(seconds), String(CONCURRENCY)], {
			stdout: 'pipe',
			stderr: 'inherit'
		})
		const out = await new Response(proc.stdout).text()
		await proc.exited
		const cpuAfter = cpuSeconds(serverPid)
		const figures = JSON.parse(out.trim().split('\n').pop()!) as {
			requests: number
			errors: number
			rps: number
			p50: number
			p95: number
			p99: number
			cpu: number
		}
		const serverCpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / ((performance.now() - started) / 1000)
		return { ...figures, serverCpu }
	}
	const servers = [
		[`bare Elysia + ${scratch ? 'postgres.js' : 'bun:sqlite'} lookup`, 'scripts/bench/bare-server.ts', 3491, '/check'],
		['portal POST /api/licenca/verificar', 'scripts/bench/portal-server.ts', 3492, '/api/licenca/verificar']
	] as const
	console.log(
		`\n(2) licence check under load: ${CONCURRENCY} concurrent clients for ${SECONDS} s from a second process, each server ${ROUNDS} times, in turns`
	)
	const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(0)}%`)
	/** CPU time per request, from a share of one core and a request rate. */
	const perRequest = (share: number | null, rps: number) => (share === null ? '—' : `${((share / rps) * 1e6).toFixed(0)} µs`)
	console.log(
		`${'server'.padEnd(40)}${'req/s'.padStart(10)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'p99'.padStart(9)}${'errors'.padStart(8)}${'CPU server'.padStart(12)}${'CPU load'.padStart(10)}${'server CPU/req'.padStart(16)}`
	)
	// The servers take turns, so a slower spell of the machine weighs on both alike; each one's median counts.
	const rates = new Map<string, number[]>(servers.map(([name]) => [name, []]))
	let errors = 0
	for (let round = 1; round <= ROUNDS; round++) {
		for (const [name, script, port, path] of servers) {
			const server = await serve(script, port)
			await load(`http://127.0.0.1:${port}${path}`, server.pid, WARM_UP_SECONDS).catch(() => null)
			const r = await load(`http://127.0.0.1:${port}${path}`, server.pid, SECONDS)
			server.kill()
			await server.exited
			rates.get(name)!.push(r.rps)
			errors += r.errors
			console.log(
				`${`${name} #${round}`.padEnd(40)}${r.rps.toFixed(0).padStart(10)}${r.p50.toFixed(2).padStart(7)}ms${r.p95.toFixed(2).padStart(7)}ms${r.p99.toFixed(2).padStart(7)}ms${String(r.errors).padStart(8)}${percent(r.serverCpu).padStart(12)}${percent(r.cpu).padStart(10)}${perRequest(r.serverCpu, r.rps).padStart(16)}`
			)
		}
	}
	console.log(
		`(CPU as a share of one core; the portal answered with ${LICENCE_WORKERS} licence worker thread(s), ${availableParallelism()} cores here)`
	)
	const median = (values: number[]) => {
		const sorted = [...values].sort((a, b) => a - b)
		const middle = Math.floor(sorted.length / 2)
		return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
	}
	const [bare, portal] = servers.map(([name]) => median(rates.get(name)!))
	const ratio = portal / bare
	console.log(
		`\nlicence check throughput = ${(ratio * 100).toFixed(0)}% of the bare lookup (median req/s ${portal.toFixed(0)} / ${bare.toFixed(0)}; target ≥ 50%): ${ratio >= 0.5 ? 'ok' : 'BELOW'}`
	)
	console.log(
		`companies list worst p95 = ${worstP95.toFixed(2)} ms (target ≤ 25 ms): ${worstP95 <= 25 ? 'ok' : 'OVER'}${listFailures ? `; ${listFailures} search(es) FAILED` : ''}`
	)
	// An answer other than 200 would count as served without being a licence check.
	if (errors > 0) console.log(`${errors} request(s) failed under load: the throughput figures do not count`)
	console.log(`licence checks per second on ${DATABASE_NAME}: ${portal.toFixed(0)}`)
	if (ratio < 0.5 || worstP95 > 25 || listFailures > 0 || errors > 0) process.exitCode = 1
} finally {
	rmSync(dir, { recursive: true, force: true })
	await scratch?.drop()
}
