/**
 * The README's test command: the code checks (Biome's format and lint, tsc), unit and API tests (bun test) twice,
 * on SQLite and on PostgreSQL, the cluster tests (three portal processes on one PostgreSQL, apps/cluster), then the
 * site build and the browser journeys (Playwright on the system Chromium, against a portal on SQLite). PostgreSQL is a
 * throw-away server this script starts (db/postgres-cluster.ts). Ends with one line "tests: N passed, N failed", where
 * each code check counts as one test. Flags: --unit-only, --cluster-only, --e2e-only.
 * The unit and API tests and the server the journeys drive run with NODE_ENV=production, the mode of the container
 * (Elysia redacts its own validation text there), so what the tests prove is what the image does.
 */
import { existsSync } from 'node:fs'
import { startPostgresCluster } from '../db/postgres-cluster'

const args = new Set(process.argv.slice(2))
const bun = process.execPath
const totals = { passed: 0, failed: 0 }
/** What failed, repeated at the end: CI keeps only the tail of the output. */
const failures: string[] = []

async function run(cmd: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
	const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
	let output = ''
	const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
		const decoder = new TextDecoder()
		for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
			const text = decoder.decode(chunk, { stream: true })
			output += text
			sink.write(text)
		}
	}
	await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)])
	return { code: await proc.exited, output }
}

function count(output: string, pattern: RegExp): number {
	const match = output.match(pattern)
	return match ? Number(match[1]) : 0
}

function findChromium(): string | null {
	const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[]
	return candidates.find((path) => existsSync(path)) ?? null
}

async function ensureChromium(): Promise<string> {
	const found = findChromium()
	if (found) return found
	const isRoot = process.getuid?.() === 0
	if (isRoot && existsSync('/usr/bin/apt-get')) {
		console.log('Chromium não encontrado: instalando o pacote chromium do Debian (apt-get)...')
		const env = { DEBIAN_FRONTEND: 'noninteractive' }
		await run(['apt-get', 'update', '-qq'], env)
		const install = await run(['apt-get', 'install', '-y', '-qq', 'chromium'], env)
		const installed = findChromium()
		if (install.code === 0 && installed) return installed
	}
	console.error(
		'Os testes de navegador precisam do Chromium do sistema. Instale-o (Debian/Ubuntu: "sudo apt-get install -y chromium") ' +
			'ou aponte CHROMIUM_PATH para o executável.'
	)
	process.exit(1)
}

/** A port nothing listens on now, so the journeys' server never meets another run's on the same machine. */
function freePort(): string {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port
	probe.stop(true)
	return String(port)
}

/** A check that passes or fails as a whole: it counts as one test. */
async function check(name: string, cmd: string[]) {
	const result = await run(cmd)
	if (result.code === 0) totals.passed += 1
	else {
		totals.failed += 1
		failures.push(name)
		console.error(`${name} falhou.`)
	}
}

const only = ['--unit-only', '--e2e-only', '--cluster-only'].find((flag) => args.has(flag))

if (!only || only === '--unit-only') {
	await check('Biome (formato e lint)', [bun, 'x', 'biome', 'ci', '.'])
	await check('tsc', [bun, 'x', 'tsc', '-p', '.'])
	// 20 s per test instead of bun's 5: the API tests hash passwords with argon2id on purpose, and this command must
	// pass on a machine whose two cores are busy with other work too. A test that hangs still fails.
	// One throw-away PostgreSQL server for the whole run (Debian's postgresql package, installed when missing): the
	// tests that compare or exercise both databases create their own databases on it.
	const postgres = await startPostgresCluster()
	// The whole suite twice: on SQLite, then on PostgreSQL (DATABASE_URL: every test's database is one on that server).
	const passes = [
		{ name: 'SQLite', env: { DATABASE_URL: '' } },
		{ name: 'PostgreSQL', env: { DATABASE_URL: postgres.url } }
	]
	for (const pass of passes) {
		console.log(`\n== Testes de unidade e de API no ${pass.name} ==`)
		const unit = await run([bun, 'test', '--timeout', '20000'], { NODE_ENV: 'production', TEST_POSTGRES_URL: postgres.url, ...pass.env })
		const failed = count(unit.output, /^\s*(\d+) fail$/m)
		totals.passed += count(unit.output, /^\s*(\d+) pass$/m)
		totals.failed += failed
		// bun repeats each failure in its summary: named once.
		failures.push(...new Set(unit.output.match(/^\(fail\) .*$/gm)).values().map((line) => `[${pass.name}] ${line}`))
		if (unit.code !== 0 && failed === 0) {
			totals.failed += 1
			failures.push(`[${pass.name}] bun test terminou com código ${unit.code}`)
		}
	}
	await postgres.stop()
}

if (!only || only === '--cluster-only') {
	// Three real portal processes on one PostgreSQL (apps/cluster/cluster.suite.ts), their own throw-away server.
	const postgres = await startPostgresCluster()
	const cluster = await run([bun, 'test', '--timeout', '300000', './apps/cluster/cluster.suite.ts'], {
		NODE_ENV: 'production',
		DATABASE_URL: postgres.url,
		TEST_POSTGRES_URL: postgres.url
	})
	await postgres.stop()
	totals.passed += count(cluster.output, /^\s*(\d+) pass$/m)
	totals.failed += count(cluster.output, /^\s*(\d+) fail$/m)
	failures.push(...(cluster.output.match(/^\(fail\) .*$/gm) ?? []))
	if (cluster.code !== 0 && count(cluster.output, /^\s*(\d+) fail$/m) === 0) totals.failed += 1
}

if (!only || only === '--e2e-only') {
	const build = await run([bun, 'run', 'build'])
	if (build.code !== 0) {
		console.error('A compilação do site falhou.')
		failures.push('build')
		totals.failed += 1
	} else {
		const chromium = await ensureChromium()
		const e2e = await run(['node', 'node_modules/@playwright/test/cli.js', 'test', '-c', 'apps/e2e/playwright.config.ts'], {
			CHROMIUM_PATH: chromium,
			BUN_BIN: bun,
			E2E_PORT: process.env.E2E_PORT ?? freePort()
		})
		totals.passed += count(e2e.output, /(\d+) passed/)
		totals.failed += count(e2e.output, /(\d+) failed/)
		failures.push(...(e2e.output.match(/^\s*✘.*$/gm) ?? []).map((line) => line.trim()))
		if (e2e.code !== 0 && count(e2e.output, /(\d+) failed/) === 0) totals.failed += 1
	}
}

if (failures.length > 0) console.log(`\nfalharam:\n${failures.map((name) => `  ${name}`).join('\n')}`)
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed > 0 ? 1 : 0)
