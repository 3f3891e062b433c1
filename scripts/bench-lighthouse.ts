/**
 * bun run bench:lighthouse — Lighthouse mobile (the default config: simulated slow 4G, 4× CPU slowdown,
 * Moto G Power viewport) against the production build: builds the site, seeds the demo data into a
 * temporary DATA_DIR, starts apps/server/main.ts with NODE_ENV=production, signs in as each role and runs
 * Lighthouse (the `lighthouse` package, driving the system Chromium through chrome-launcher; nothing is
 * downloaded) BENCH_RUNS times on every page the role may open, one run at a time, each in a fresh Chromium.
 * Prints per role the median performance score, LCP, TBT, CLS, accessibility score and DOM size.
 * Targets (issue 15): performance ≥ 95, LCP ≤ 2.5 s, TBT ≤ 200 ms, CLS ≤ 0.05, accessibility ≥ 95;
 * exits 1 when a median misses one or a run fails.
 *
 * The pages a role may open: every page in apps/web/pages that core/access.ts PAGES lets the role open (the server
 * answers the others with the access-denied screen, 403). '/' is the Dashboard for administrador and gerente
 * (measured as /dashboard) and Créditos for the representante (measured as /, not again as /credits). /login is
 * measured without a cookie. The access-denied screen (a template of the server, never served at its own URL,
 * which answers 404) is measured once, as the first role with a page it may not open gets it there: it is served
 * with status 403 by design, and Lighthouse refuses a non-2xx document unless told otherwise (ignoreStatusCode),
 * so that one run says so; every other run still fails on a non-2xx answer.
 *
 * "The companies list with 100 rows per page": after the other pages the demo is topped up to 120 companies
 * and /companies?limit=100 is measured as administrador. The page keeps its view in the address and the server
 * answers that view's first page into the HTML (issue 15), so the first render has 100 rows. Should the island
 * ever ask for limit=20 instead, the request is rewritten to limit=100 in the browser (puppeteer request
 * interception) and the bench says so under the figures.
 *
 * Environment: BENCH_RUNS (3), BENCH_ROLES (administrador,gerente,representante,anonimo — anonimo is
 * /login), BENCH_ROUTES (comma-separated; a route is kept when it equals an entry or is the entry plus a
 * query string), BENCH_REPORT_DIR (saves the median run's Lighthouse JSON of each route there; with
 * BENCH_REPORT_ALL=1 every run's too, as <name>.runN.json),
 * BENCH_BUILD=0 (use the existing dist/), CHROME_PATH or CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { Database } from 'bun:sqlite'
import type { Subprocess } from 'bun'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import puppeteer from 'puppeteer-core'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../apps/e2e/chromium'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../db/seed'
import { PAGES, can, completeCnpj, formatCnpj } from '../modules/core'

type Role = keyof typeof DEMO_ACCOUNTS
type Group = Role | 'anonimo'
type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']

const TARGETS = { performance: 95, lcpMs: 2500, tbtMs: 200, cls: 0.05, accessibility: 95 }
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3))
const GROUPS: Group[] = ['administrador', 'gerente', 'representante', 'anonimo']
const WANTED_GROUPS = process.env.BENCH_ROLES ? (process.env.BENCH_ROLES.split(',').map((s) => s.trim()) as Group[]) : GROUPS
const ROUTE_FILTER =
	process.env.BENCH_ROUTES?.split(',')
		.map((s) => s.trim())
		.filter(Boolean) ?? null
const REPORT_DIR = process.env.BENCH_REPORT_DIR ? resolve(process.env.BENCH_REPORT_DIR) : null
const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS]
const COMPANIES_100 = '/companies?limit=100'

for (const g of WANTED_GROUPS) {
	if (!GROUPS.includes(g)) {
		console.error(`BENCH_ROLES: unknown role "${g}" (use ${GROUPS.join(', ')})`)
		process.exit(2)
	}
}
if (!existsSync(CHROME_PATH)) {
	console.error(
		`Chromium not found at ${CHROME_PATH}: install the system package (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROME_PATH; no browser is downloaded.`
	)
	process.exit(2)
}

// ---- routes -------------------------------------------------------------------------------------

function pageRoutes(): string[] {
	const root = resolve('apps/web/pages')
	const walk = (dir: string): string[] =>
		readdirSync(dir).flatMap((name) => {
			const full = join(dir, name)
			return statSync(full).isDirectory() ? walk(full) : full.endsWith('.astro') ? [full] : []
		})
	return walk(root)
		.map(
			(file) =>
				'/' +
				relative(root, file)
					.replace(/\.astro$/, '')
					.replace(/(^|\/)index$/, '')
		)
		.filter((route) => route !== '/404' && route !== '/login')
		.sort()
}

/** The server's templates (login, 404, access denied): never served at their own address. */
const TEMPLATES = new Set(['/login', '/404', '/acesso-negado'])
/** The access-denied screen, measured once where it is served: `${DENIED}${path}`. */
const DENIED = '/acesso-negado@'

function routesFor(role: Role, deniedMeasured: boolean): string[] {
	const routes: string[] = role === 'representante' ? ['/'] : []
	const pages = pageRoutes().filter((route) => !TEMPLATES.has(route))
	for (const route of pages) {
		const access = PAGES[route]
		if (!access || !can(role, access.capability)) continue
		// The representante's '/' is the credits screen: measured once, as '/'.
		if (role === 'representante' && route === '/credits') continue
		routes.push(route)
	}
	const closed = pages.find((route) => PAGES[route] && !can(role, PAGES[route].capability))
	if (!deniedMeasured && closed) routes.push(DENIED + closed)
	if (role === 'administrador') routes.push(COMPANIES_100)
	return routes.filter(wanted)
}

function wanted(route: string): boolean {
	return !ROUTE_FILTER || ROUTE_FILTER.some((entry) => route === entry || route.startsWith(`${entry}?`) || route.startsWith(`${entry}@`))
}

// ---- processes, and their end also on failure ---------------------------------------------------

const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'))
let server: Subprocess | null = null
let chrome: chromeLauncher.LaunchedChrome | null = null

function cleanup() {
	try {
		chrome?.kill()
	} catch {}
	chrome = null
	try {
		server?.kill('SIGKILL')
	} catch {}
	server = null
	rmSync(dataDir, { recursive: true, force: true })
}
for (const [signal, code] of [
	['SIGINT', 130],
	['SIGTERM', 143]
] as const) {
	process.on(signal, () => {
		console.error(`\n${signal}: stopping the server and Chromium`)
		cleanup()
		process.exit(code)
	})
}

function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const probe = createServer()
		probe.once('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))))
		})
	})
}

async function startServer(): Promise<string> {
	await seedDemo(join(dataDir, 'portal.sqlite'))
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	const env: Record<string, string> = {
		...(process.env as Record<string, string>),
		NODE_ENV: 'production',
		PORT: String(port),
		HOST: '127.0.0.1',
		DATA_DIR: dataDir,
		DIST_DIR: resolve('dist'),
		ADMIN_PASSWORD: crypto.randomUUID()
	}
	delete env.PUBLIC_URL
	delete env.TRUST_PROXY
	delete env.COOKIE_SECURE
	server = Bun.spawn([process.execPath, 'apps/server/main.ts'], { env, stdout: Bun.file(join(dataDir, 'server.log')), stderr: 'inherit' })
	const deadline = Date.now() + 30_000
	while (Date.now() < deadline) {
		if (server.exitCode !== null) throw new Error(`the server exited while starting (code ${server.exitCode})`)
		try {
			if ((await fetch(`${origin}/api/health`)).ok) return origin
		} catch {}
		await Bun.sleep(200)
	}
	throw new Error('the server did not answer /api/health within 30 s')
}

async function signIn(origin: string, role: Role): Promise<string> {
	const res = await fetch(`${origin}/api/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin },
		body: JSON.stringify({ cnpj: formatCnpj(DEMO_ACCOUNTS[role].cnpj), senha: DEMO_PASSWORD })
	})
	const cookie = res.headers.getSetCookie().find((c) => /session/i.test(c.split('=')[0]))
	if (!res.ok || !cookie) throw new Error(`sign-in as ${role} failed: HTTP ${res.status} ${await res.text()}`)
	return cookie.split(';')[0]
}

async function sessionAlive(origin: string, cookie: string): Promise<boolean> {
	return (await fetch(`${origin}/api/auth/me`, { headers: { cookie } })).ok
}

/** More companies (copies of the demo ones with new CNPJs and keys) until there are at least `total`. */
function topUpCompanies(total: number): number {
	const db = new Database(join(dataDir, 'portal.sqlite'))
	try {
		db.exec('PRAGMA busy_timeout = 5000')
		const columns = (db.query('PRAGMA table_info(companies)').all() as { name: string }[])
			.map((c) => c.name)
			.filter((name) => name !== 'codigo')
		const rows = db.query('SELECT * FROM companies ORDER BY codigo').all() as Record<string, string | number | null>[]
		const insert = db.prepare(`INSERT INTO companies (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
		let count = rows.length
		db.transaction(() => {
			for (let i = 0; count < total; i++, count++) {
				const row = rows[i % rows.length]
				const copy: Record<string, string | number | null> = {
					...row,
					razao: `${String(row.razao).replace(/ Ltda$/, '')} Filial ${Math.floor(i / rows.length) + 2} Ltda`,
					cnpj: completeCnpj(String(770000000000 + i * 41)),
					serial: Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url'),
					terminal_count: 0
				}
				insert.run(...columns.map((name) => copy[name] ?? null))
			}
		})()
		return count
	} finally {
		db.close()
	}
}

// ---- one Lighthouse run -------------------------------------------------------------------------

interface Run {
	performance: number
	lcp: number
	tbt: number
	cls: number
	accessibility: number
	dom: number
	benchmarkIndex: number
	lhr: Lhr
}

async function lighthouseRun(
	url: string,
	cookie: string | null,
	rewrite: { from: string; to: string } | null,
	ignoreStatusCode = false
): Promise<{ run: Run; rewritten: number }> {
	chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'silent' })
	let rewritten = 0
	try {
		const flags = {
			output: 'json' as const,
			logLevel: 'error' as const,
			onlyCategories: ['performance', 'accessibility'],
			disableFullPageScreenshot: true,
			ignoreStatusCode,
			extraHeaders: cookie ? { Cookie: cookie } : undefined
		}
		let result: Awaited<ReturnType<typeof lighthouse>>
		if (!rewrite) {
			result = await lighthouse(url, { ...flags, port: chrome.port })
		} else {
			const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null })
			try {
				const page = await browser.newPage()
				await page.setRequestInterception(true)
				page.on('request', (request) => {
					const target = new URL(request.url())
					if (target.pathname === '/api/companies' && target.searchParams.get('limit') === rewrite.from) {
						target.searchParams.set('limit', rewrite.to)
						rewritten++
						return request.continue({ url: target.href })
					}
					return request.continue()
				})
				result = await lighthouse(url, flags, undefined, page as never)
			} finally {
				await browser.disconnect()
			}
		}
		const lhr = result?.lhr
		if (!lhr) throw new Error('Lighthouse returned no result')
		if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`)
		const audit = (id: string) => lhr.audits[id]?.numericValue
		const values = {
			performance: lhr.categories.performance?.score,
			lcp: audit('largest-contentful-paint'),
			tbt: audit('total-blocking-time'),
			cls: audit('cumulative-layout-shift'),
			accessibility: lhr.categories.accessibility?.score,
			dom: audit('dom-size')
		}
		const missing = Object.entries(values).filter(([, v]) => typeof v !== 'number')
		if (missing.length)
			throw new Error(`no ${missing.map(([k]) => k).join(', ')}${lhr.runWarnings.length ? `: ${lhr.runWarnings.join('; ')}` : ''}`)
		return {
			run: {
				performance: Math.round((values.performance as number) * 100),
				lcp: values.lcp as number,
				tbt: values.tbt as number,
				cls: values.cls as number,
				accessibility: Math.round((values.accessibility as number) * 100),
				dom: values.dom as number,
				benchmarkIndex: lhr.environment.benchmarkIndex,
				lhr
			},
			rewritten
		}
	} finally {
		chrome?.kill()
		chrome = null
	}
}

// ---- figures ------------------------------------------------------------------------------------

interface Row {
	route: string
	runs: Run[]
	error: string | null
	median: Omit<Run, 'lhr' | 'benchmarkIndex'> | null
	missed: string[]
	note?: string
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = sorted.length >> 1
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const millis = (ms: number) => `${Math.round(ms).toLocaleString('en-US')} ms`
const summary = (r: Omit<Run, 'lhr' | 'benchmarkIndex'>) =>
	`perf ${r.performance}  LCP ${seconds(r.lcp)}  TBT ${millis(r.tbt)}  CLS ${r.cls.toFixed(3)}  a11y ${r.accessibility}  DOM ${Math.round(r.dom)}`

function missedTargets(m: NonNullable<Row['median']>): string[] {
	const missed: string[] = []
	if (m.performance < TARGETS.performance) missed.push(`perf<${TARGETS.performance}`)
	if (m.lcp > TARGETS.lcpMs) missed.push('LCP>2.5s')
	if (m.tbt > TARGETS.tbtMs) missed.push('TBT>200ms')
	if (m.cls > TARGETS.cls) missed.push('CLS>0.05')
	if (m.accessibility < TARGETS.accessibility) missed.push(`a11y<${TARGETS.accessibility}`)
	return missed
}

async function measureRoute(
	group: Group,
	origin: string,
	route: string,
	session: { cookie: string | null; refresh: () => Promise<string> }
): Promise<Row> {
	const row: Row = { route, runs: [], error: null, median: null, missed: [] }
	const rewrite = route === COMPANIES_100 ? { from: '20', to: '100' } : null
	let rewrites = 0
	for (let i = 1; i <= RUNS; i++) {
		if (session.cookie && !(await sessionAlive(origin, session.cookie))) {
			console.log(`  (${group}: the session ended; signing in again)`)
			session.cookie = await session.refresh()
		}
		const started = performance.now()
		try {
			const denied = route.startsWith(DENIED)
			const address = denied ? route.slice(DENIED.length) : route
			const { run, rewritten } = await lighthouseRun(origin + address, session.cookie, rewrite, denied)
			rewrites += rewritten
			row.runs.push(run)
			console.log(`  ${group.padEnd(14)} ${route.padEnd(26)} ${i}/${RUNS}  ${summary(run)}  (${seconds(performance.now() - started)})`)
		} catch (error) {
			row.error = error instanceof Error ? error.message : String(error)
			console.log(`  ${group.padEnd(14)} ${route.padEnd(26)} ${i}/${RUNS}  ERROR: ${row.error}`)
			break
		}
	}
	if (rewrite) {
		row.note =
			rewrites > 0
				? `the page asked for limit=${rewrite.from}: its /api/companies request was rewritten to limit=${rewrite.to} in the browser (${rewrites} times in ${row.runs.length} runs)`
				: 'the 100 rows came with the page (?limit=100 in the address): nothing was rewritten'
	}
	if (row.runs.length === RUNS) {
		const pick = (key: keyof Omit<Run, 'lhr' | 'benchmarkIndex'>) => median(row.runs.map((r) => r[key]))
		row.median = {
			performance: pick('performance'),
			lcp: pick('lcp'),
			tbt: pick('tbt'),
			cls: pick('cls'),
			accessibility: pick('accessibility'),
			dom: pick('dom')
		}
		row.missed = missedTargets(row.median)
		if (REPORT_DIR) {
			// The run with the median performance score, for reading the audits behind the figures.
			const byScore = [...row.runs].sort((a, b) => a.performance - b.performance)
			const chosen = byScore[(byScore.length - 1) >> 1]
			const name = `${group}${route === '/' ? '_home' : route.replace(/[^a-z0-9]+/gi, '_')}.json`
			writeFileSync(join(REPORT_DIR, name), JSON.stringify(chosen.lhr))
			if (process.env.BENCH_REPORT_ALL === '1')
				for (const [i, run] of row.runs.entries())
					writeFileSync(join(REPORT_DIR, name.replace(/\.json$/, `.run${i + 1}.json`)), JSON.stringify(run.lhr))
		}
	}
	// A report is a few MB: keep only the figures once the route is done.
	for (const run of row.runs) run.lhr = undefined as never
	return row
}

function printTable(title: string, rows: Row[], benchmarkIndexes: number[]) {
	console.log(`\n${title}: median of ${RUNS} runs (Lighthouse mobile, simulated throttling)`)
	console.log(
		`${'route'.padEnd(26)}${'perf'.padStart(6)}${'LCP'.padStart(9)}${'TBT'.padStart(11)}${'CLS'.padStart(8)}${'a11y'.padStart(6)}${'DOM'.padStart(7)}  result`
	)
	for (const row of rows) {
		const m = row.median
		const figures = m
			? `${String(m.performance).padStart(6)}${seconds(m.lcp).padStart(9)}${millis(m.tbt).padStart(11)}${m.cls.toFixed(3).padStart(8)}${String(m.accessibility).padStart(6)}${String(Math.round(m.dom)).padStart(7)}`
			: `${'—'.padStart(6)}${'—'.padStart(9)}${'—'.padStart(11)}${'—'.padStart(8)}${'—'.padStart(6)}${'—'.padStart(7)}`
		const result = row.error ? `ERROR: ${row.error}` : row.missed.length ? row.missed.join(' ') : 'ok'
		console.log(`${row.route.padEnd(26)}${figures}  ${result}`)
		if (row.note) console.log(`${''.padEnd(26)}  * ${row.note}`)
	}
	if (benchmarkIndexes.length)
		console.log(
			`Lighthouse benchmarkIndex of this machine during these runs: median ${Math.round(median(benchmarkIndexes))} (min ${Math.round(Math.min(...benchmarkIndexes))}, max ${Math.round(Math.max(...benchmarkIndexes))})`
		)
}

// ---- main ---------------------------------------------------------------------------------------

async function main(): Promise<number> {
	const startedAt = performance.now()
	if (process.env.BENCH_BUILD !== '0') {
		const build = Bun.spawnSync([process.execPath, 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' })
		if (build.exitCode !== 0) return build.exitCode ?? 1
	}
	if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true })
	const origin = await startServer()
	const chromium = Bun.spawnSync([CHROME_PATH, '--version'], { stderr: 'ignore' }).stdout.toString().trim()
	const lhVersion = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version
	console.log(
		`Lighthouse ${lhVersion}, ${chromium || CHROME_PATH}; production server at ${origin} on the demo data; ${RUNS} run(s) per route, one at a time`
	)
	console.log(
		`load average ${loadavg()
			.map((n) => n.toFixed(1))
			.join(
				' '
			)} on ${availableParallelism()} cores at the start${loadavg()[0] > availableParallelism() ? ' (busy machine: TBT, and the scores with it, come out higher than on a quiet one)' : ''}`
	)
	console.log(
		`targets: performance ≥ ${TARGETS.performance}, LCP ≤ 2.5 s, TBT ≤ 200 ms, CLS ≤ 0.05, accessibility ≥ ${TARGETS.accessibility}\n`
	)

	const tables: { title: string; rows: Row[]; bi: number[] }[] = []
	const later: { role: Role; route: string }[] = []
	let deniedMeasured = false
	for (const group of GROUPS.filter((g) => WANTED_GROUPS.includes(g))) {
		if (group === 'anonimo') {
			if (!wanted('/login')) continue
			const row = await measureRoute(group, origin, '/login', { cookie: null, refresh: async () => '' })
			tables.push({ title: 'no session', rows: [row], bi: row.runs.map((r) => r.benchmarkIndex) })
			continue
		}
		const routes = routesFor(group, deniedMeasured)
		if (routes.some((route) => route.startsWith(DENIED))) deniedMeasured = true
		const session = { cookie: (await signIn(origin, group)) as string | null, refresh: () => signIn(origin, group) }
		const rows: Row[] = []
		for (const route of routes) {
			// The 100-row case runs after every role, on a demo topped up to 120 companies.
			if (route === COMPANIES_100) {
				later.push({ role: group, route })
				continue
			}
			rows.push(await measureRoute(group, origin, route, session))
		}
		tables.push({ title: `${group} (${DEMO_ACCOUNTS[group].nome})`, rows, bi: rows.flatMap((r) => r.runs.map((x) => x.benchmarkIndex)) })
	}
	if (later.length) {
		const total = topUpCompanies(120)
		console.log(`\n  demo topped up to ${total} companies (copies with other CNPJs and keys) for the list with 100 rows per page`)
		for (const { role, route } of later) {
			const session = { cookie: (await signIn(origin, role)) as string | null, refresh: () => signIn(origin, role) }
			const row = await measureRoute(role, origin, route, session)
			const table = tables.find((t) => t.title.startsWith(`${role} `))
			table?.rows.push(row)
			table?.bi.push(...row.runs.map((r) => r.benchmarkIndex))
		}
	}

	for (const table of tables) printTable(table.title, table.rows, table.bi)
	const rows = tables.flatMap((t) => t.rows)
	const failed = rows.filter((r) => r.error || r.missed.length)
	const minutes = (performance.now() - startedAt) / 60_000
	console.log(
		`\nload average ${loadavg()
			.map((n) => n.toFixed(1))
			.join(' ')} on ${availableParallelism()} cores at the end`
	)
	console.log(
		`${rows.length} routes measured, ${failed.length} missing a target or failing; ${minutes.toFixed(1)} minutes${REPORT_DIR ? `; Lighthouse JSON of the median runs in ${REPORT_DIR}` : ''}`
	)
	return failed.length > 0 || rows.length === 0 ? 1 : 0
}

let code = 1
try {
	code = await main()
} catch (error) {
	console.error(error instanceof Error ? (error.stack ?? error.message) : error)
	const log = join(dataDir, 'server.log')
	if (existsSync(log))
		console.error(`last lines of the server's log:\n${readFileSync(log, 'utf8').trim().split('\n').slice(-20).join('\n')}`)
	code = 1
} finally {
	cleanup()
}
process.exit(code)
