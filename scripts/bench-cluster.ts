/**
 * bun run bench:cluster — the portal on one machine in three shapes, in one run: SQLite with one instance, PostgreSQL
 * with one instance, PostgreSQL with three instances (apps/server/main.ts processes, as a deployment runs them). For
 * each: licence checks per second (load.ts: 32 clients, keep-alive, the instances taken in turn as a balancer would)
 * and a mixed signed-in load (mixed-load.ts: 16 representatives browsing their companies, credits and notifications,
 * one request in ten a credit transfer), with its p50/p95/p99. The load generators run on the same cores as the
 * portal and the database, so the figures are ratios within this run. Targets: three instances not slower than one
 * (licence checks per second and the mixed load's requests per second), and the mixed load's p99 ≤ 250 ms on three.
 * The three shapes run side by side and are measured in turns, 5 rounds (every other one in the reverse order), medians
 * shown; the ratios judged are the medians of each round's ratio. PostgreSQL: DATABASE_URL's
 * server (a new database is made there), or a throw-away one. Exits 1 when a target is missed. BENCH_SECONDS (8),
 * BENCH_ROUNDS (5), BENCH_COMPANIES (20,000) change it; BENCH_DETAIL=1 prints each round's p99 per kind of request.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPostgresCluster } from '../db/postgres-cluster'
import { coresUsed, cpuOf, postgresPids } from './bench/cpu'

const given = process.env.DATABASE_URL?.trim()
const server = given ? null : await startPostgresCluster()
const serverUrl = given || server!.url
// The portal's PostgreSQL tables for this process (the SQLite seed is made by a process of its own).
process.env.DATABASE_URL = serverUrl
const { freePort, startInstance, waitReady } = await import('../apps/cluster/harness')
const { copyToPostgres, scratchPostgres } = await import('./bench/postgres')

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 20_000)
const WARM_UP_SECONDS = 3
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const LICENCE_CLIENTS = 32
const MIXED_CLIENTS = 16
const TARGET_P99_MS = 250
const ORIGIN = 'http://portal.bench'
const bun = process.execPath
const dir = mkdtempSync(join(tmpdir(), 'kportal-bench-cluster-'))
const secretKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')

interface Figures {
	rps: number
	p50: number
	p95: number
	p99: number
	errors: number
	requests: number
	statuses?: Record<string, number>
	p99ByKind?: Record<string, number>
	/** The load generator's own CPU, in cores (load.ts). */
	cpu?: number
}

/** The cores used meanwhile by the shape's portal processes and by PostgreSQL (all its processes on this machine). */
interface Cores {
	portal: number
	postgres: number
}

/** Runs one measured load, reading the CPU the portal's processes and PostgreSQL used while it ran. */
async function timedLoad(portalPids: number[], cmd: string[]): Promise<Figures & { cores: Cores }> {
	const pgBefore = cpuOf(postgresPids())
	const portalBefore = cpuOf(portalPids)
	const started = performance.now()
	const figures = JSON.parse(await runJson(cmd)) as Figures
	const seconds = (performance.now() - started) / 1000
	const cores = {
		portal: coresUsed(portalBefore, cpuOf(portalPids), seconds),
		postgres: coresUsed(pgBefore, cpuOf(postgresPids()), seconds)
	}
	return { ...figures, cores }
}

async function runJson(cmd: string[], env: Record<string, string> = {}): Promise<string> {
	const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'inherit', env: { ...process.env, ...env } })
	const out = await new Response(proc.stdout).text()
	if ((await proc.exited) !== 0) throw new Error(`${cmd.join(' ')} falhou`)
	return out.trim().split('\n').pop()!
}

/**
 * Every shape's instances are the same: on this machine's two cores (shared with the database and the load
 * generators) each answers licence checks in its main thread with 4 database connections, so three instances are
 * three threads and 12 connections, not three times one instance's workers and pool. BENCH_WORKERS and BENCH_POOL
 * change it.
 */
function sizing(): Record<string, string> {
	return { LICENCE_WORKERS: process.env.BENCH_WORKERS ?? '0', DATABASE_POOL: process.env.BENCH_POOL ?? '4' }
}

/** Starts `count` instances on `database` (a SQLite folder, or a PostgreSQL URL), waits until they are ready. */
async function instances(count: number, database: { dataDir: string } | { url: string }) {
	const started = Array.from({ length: count }, (_, index) => {
		const port = freePort()
		const env: Record<string, string> = {
			...(process.env as Record<string, string>),
			NODE_ENV: 'production',
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: 'dataDir' in database ? database.dataDir : join(dir, `instance-${index + 1}`),
			DIST_DIR: join(dir, 'no-site'),
			PUBLIC_URL: ORIGIN,
			SECRET_KEY: secretKey,
			DRAIN_SECONDS: '0',
			...sizing()
		}
		if ('url' in database) env.DATABASE_URL = database.url
		else delete env.DATABASE_URL
		// Their logs are read only when asked (BENCH_DETAIL): reading them costs this process's time.
		return startInstance(index, env, process.env.BENCH_DETAIL ? 'keep' : 'ignore')
	})
	await Promise.all(started.map((i) => waitReady(i.url)))
	return started
}

/** Signs the benchmark's representatives in, each on an instance in turn; writes their sessions for mixed-load.ts. */
async function signIn(urls: string[]): Promise<string> {
	const people = (await Bun.file(join(dir, 'users.json')).json()) as { cnpj: string; senha: string; empresas: number[] }[]
	const sessions = await Promise.all(
		people.map(async (p, i) => {
			const res = await fetch(`${urls[i % urls.length]}/api/auth/login`, {
				method: 'POST',
				headers: { origin: ORIGIN, 'content-type': 'application/json' },
				body: JSON.stringify({ cnpj: p.cnpj, senha: p.senha })
			})
			if (res.status !== 200) throw new Error(`login ${res.status} ${await res.text()}`)
			return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], empresas: p.empresas }
		})
	)
	const file = join(dir, `sessions-${urls.length}-${Date.now()}.json`)
	await Bun.write(file, JSON.stringify(sessions))
	return file
}

/** One round of both loads on `instances`: licence checks, then the mixed signed-in load. */
async function measure(instances: { url: string; pid: number }[]) {
	const urls = instances.map((i) => i.url)
	const pids = instances.map((i) => i.pid)
	const checkUrls = urls.map((u) => `${u}/api/licenca/verificar`).join(',')
	const keys = join(dir, 'keys.json')
	await runJson([bun, 'scripts/bench/load.ts', checkUrls, keys, String(WARM_UP_SECONDS), String(LICENCE_CLIENTS)])
	const checks = await timedLoad(pids, [bun, 'scripts/bench/load.ts', checkUrls, keys, String(SECONDS), String(LICENCE_CLIENTS)])
	const sessions = await signIn(urls)
	await runJson([bun, 'scripts/bench/mixed-load.ts', urls.join(','), sessions, String(WARM_UP_SECONDS), String(MIXED_CLIENTS), ORIGIN])
	const mixed = await timedLoad(pids, [
		bun,
		'scripts/bench/mixed-load.ts',
		urls.join(','),
		sessions,
		String(SECONDS),
		String(MIXED_CLIENTS),
		ORIGIN
	])
	return { checks, mixed }
}
type Round = Awaited<ReturnType<typeof measure>>

/** Cores as a percentage of one core ("125%" is a core and a quarter). */
const percentOfCore = (cores: number) => `${Math.round(cores * 100)}%`

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** A configuration's line: the medians of its rounds. */
function line(name: string, rounds: Round[]) {
	const m = (read: (r: Round) => number) => median(rounds.map(read))
	const figures = {
		checks: m((r) => r.checks.rps),
		checksP99: m((r) => r.checks.p99),
		mixed: m((r) => r.mixed.rps),
		p50: m((r) => r.mixed.p50),
		p95: m((r) => r.mixed.p95),
		p99: m((r) => r.mixed.p99),
		errors: rounds.reduce((n, r) => n + r.checks.errors + r.mixed.errors, 0)
	}
	console.log(
		`${name.padEnd(26)}${Math.round(figures.checks).toString().padStart(10)}${figures.checksP99.toFixed(1).padStart(10)}${Math.round(figures.mixed).toString().padStart(10)}${figures.p50.toFixed(1).padStart(9)}${figures.p95.toFixed(1).padStart(9)}${figures.p99.toFixed(1).padStart(9)}${String(figures.errors).padStart(8)}`
	)
	for (const r of rounds)
		if (r.checks.errors + r.mixed.errors > 0) console.log(`  respostas da carga mista: ${JSON.stringify(r.mixed.statuses)}`)
	if (process.env.BENCH_DETAIL) for (const r of rounds) console.log(`  p99 por requisição (ms): ${JSON.stringify(r.mixed.p99ByKind)}`)
	return figures
}

let failed = false
let scratch: { url: string; drop(): Promise<void> } | null = null
try {
	console.log(
		`bench:cluster — ${COMPANIES.toLocaleString('pt-BR')} empresas; ${SECONDS} s por medida, depois de ${WARM_UP_SECONDS} s de aquecimento`
	)
	// The seed on SQLite, in a process of its own (its tables are SQLite's).
	await runJson([bun, 'scripts/bench/seed-cluster.ts', dir, String(COMPANIES), String(MIXED_CLIENTS)], { DATABASE_URL: '' })

	// Every configuration runs at once, idle while another is measured; the rounds take them in turns, so a slower
	// spell of the shared machine weighs on all of them.
	const sqliteDir = join(dir, 'sqlite')
	mkdirSync(sqliteDir, { recursive: true })
	copyFileSync(join(dir, 'seed.sqlite'), join(sqliteDir, 'portal.sqlite'))
	scratch = await scratchPostgres('bench_cluster')
	await copyToPostgres(join(dir, 'seed.sqlite'), scratch.url, [
		'representatives',
		'companies',
		'terminals',
		'users',
		'credits',
		'credit_balances'
	])
	const shapes = [
		{ name: 'SQLite, 1 instância', instances: await instances(1, { dataDir: sqliteDir }), rounds: [] as Round[] },
		{ name: 'PostgreSQL, 1 instância', instances: await instances(1, { url: scratch.url }), rounds: [] as Round[] },
		{ name: 'PostgreSQL, 3 instâncias', instances: await instances(3, { url: scratch.url }), rounds: [] as Round[] }
	]
	for (let round = 0; round < ROUNDS; round++) {
		// Every other round the other way round, so a machine that slows down (or speeds up) over a round weighs on the
		// shapes alike.
		for (const shape of round % 2 === 0 ? shapes : [...shapes].reverse()) {
			const r = await measure(shape.instances)
			shape.rounds.push(r)
			const cpu = (f: Figures & { cores: Cores }) =>
				`CPU: portal ${percentOfCore(f.cores.portal)}, PostgreSQL ${percentOfCore(f.cores.postgres)}, gerador ${percentOfCore(f.cpu ?? 0)}`
			console.log(
				`rodada ${round + 1}, ${shape.name}: ${Math.round(r.checks.rps)} licenças/s (${cpu(r.checks)}); carga mista ${Math.round(r.mixed.rps)}/s, p99 ${r.mixed.p99.toFixed(1)} ms (${cpu(r.mixed)})`
			)
		}
	}
	for (const shape of shapes) for (const i of shape.instances) i.signal('SIGKILL')
	for (const shape of shapes)
		for (const i of shape.instances)
			for (const l of i.logs.filter((l) => l.json?.event === 'error.unhandled')) console.log(`${shape.name}: ${l.line.slice(0, 400)}`)
	console.log(
		`\nmedianas de ${ROUNDS} rodadas:\n${'configuração'.padEnd(26)}${'licenças/s'.padStart(10)}${'p99 ms'.padStart(10)}${'mista/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'erros'.padStart(8)}`
	)
	const [sqlite, one, three] = shapes.map((shape) => line(shape.name, shape.rounds))

	// Each round measures the shapes one after the other, so a round's ratio compares them in the same spell of the
	// shared machine; the median of those ratios is the figure judged.
	const [, oneShape, threeShape] = shapes
	const roundRatios = (read: (r: Round) => number) => oneShape.rounds.map((r, i) => read(threeShape.rounds[i]) / read(r))
	const checksRatios = roundRatios((r) => r.checks.rps)
	const mixedRatios = roundRatios((r) => r.mixed.rps)
	const percent = (ratios: number[]) => ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')
	console.log(`\n3 instâncias ÷ 1 em cada rodada: licenças/s ${percent(checksRatios)}; carga mista/s ${percent(mixedRatios)}`)
	const checksRatio = median(checksRatios)
	const mixedRatio = median(mixedRatios)
	console.log(`
PostgreSQL, 3 instâncias ÷ 1 (mediana das rodadas): licenças/s ${(checksRatio * 100).toFixed(0)}%, carga mista/s ${(mixedRatio * 100).toFixed(0)}% (meta: ≥ 100%): ${checksRatio >= 1 && mixedRatio >= 1 ? 'ok' : 'ABAIXO'}
p99 da carga mista em 3 instâncias: ${three.p99.toFixed(1)} ms (meta ≤ ${TARGET_P99_MS} ms): ${three.p99 <= TARGET_P99_MS ? 'ok' : 'ACIMA'}
SQLite, 1 instância, para comparar: ${Math.round(sqlite.checks)} licenças/s, p99 da carga mista ${sqlite.p99.toFixed(1)} ms`)
	failed = checksRatio < 1 || mixedRatio < 1 || three.p99 > TARGET_P99_MS || sqlite.errors + one.errors + three.errors > 0
} catch (error) {
	console.error(error)
	failed = true
} finally {
	await scratch?.drop().catch(() => undefined)
	await server?.stop()
	rmSync(dir, { recursive: true, force: true })
}
if (failed) console.log('\nMETA NÃO ATINGIDA')
process.exit(failed ? 1 : 0)
