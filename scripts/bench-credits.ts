/**
 * bun run bench:credits — the credit ledger at scale: 10,000 representatives, 50,000 companies and
 * 1,000,000 credit rows (per representative: 50 pool batches, 45 of them spent, and 50 transfers) in a
 * temporary database file (WAL, synchronous=FULL, as in production). Measures through app.handle:
 * p50/p95/p99 of GET /api/credits/available (a representante), GET /api/credits/summary (administrador),
 * GET /api/dashboard/stats (administrador and gerente), and transfers per second.
 * Targets: available ≤ 20 ms, summary ≤ 100 ms, dashboard ≤ 50 ms (p95).
 * On PostgreSQL when DATABASE_URL is set: the same rows, copied into a scratch database on that server.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../apps/server/app'
import type postgres from 'postgres'
import { type Db, openDb, openPostgres } from '../db/client'
import { DIALECT } from '../db/dialect'
import { migrateDb } from '../db/migrate'
import { hashPassword } from '../modules/auth'
import { rebuildCreditBalances } from '../modules/credits'
import { completeCnpj, fixedClock } from '../modules/core'
import { silentLogger, testConfig, portalContext } from '../modules/core/server'
import { copyToPostgres, scratchPostgres } from './bench/postgres'

const REPS = Number(process.env.BENCH_REPS ?? 10_000)
const ROWS_PER_REP = 100
const COMPANIES_PER_REP = 5
const dir = mkdtempSync(join(tmpdir(), 'bench-credits-'))
const path = join(dir, 'portal.sqlite')
const DATABASE_NAME = DIALECT === 'postgres' ? 'PostgreSQL' : 'SQLite'
console.log(`database: ${DATABASE_NAME}`)
// The rows are written to SQLite first (fast), then copied into PostgreSQL when the benchmark runs there.
const seedDb = openDb(path)
migrateDb(seedDb)
const client = seedDb.$client
const clock = fixedClock('2026-11-20T12:00:00.000Z')
const now = clock.now().toISOString()
const hash = await hashPassword('bench-senha-123')

const cnpjOf = (i: number) => completeCnpj(String(500000000000 + i))
const t0 = performance.now()
const addUser = client.prepare(
	`insert into users (cnpj, nome, tipo, senha_hash, ativo, created_at, updated_at) values (?, ?, ?, ?, 1, ?, ?) returning id`
)
const admin = addUser.get(completeCnpj('110000000001'), 'Admin Bench', 'administrador', hash, now, now) as { id: number }
const gerente = addUser.get(completeCnpj('110000000002'), 'Gerente Bench', 'gerente', hash, now, now) as { id: number }
void admin

const addRep = client.prepare(
	`insert into representatives (nome, cnpj, gerente_id, ativar_api_asaas, data) values (?, ?, ?, 'N', '2025-01-01')`
)
const addCompany = client.prepare(
	`insert into companies (razao, cnpj, cnpj_representante, serial, data, validade_licenca, nterminais, terminal_count, ativarapi, on_line, valor_mensal_centavos, exibir_aviso, manutencao, bloqueado, bloqueadopdv, bloqueado_kchef, bloqueado_katelie, bloqueado_kprevenda)
	 values (?, ?, ?, ?, '2025-01-01', ?, 1, 0, 'N', 'N', 0, 'N', 'N', ?, 'N', ?, 'N', 'N') returning codigo`
)
const addCredit = client.prepare(
	`insert into credits (valor, valor_original, representante_id, fk_empresa, empresa_razao, sistema, ativo, data_compra, data_uso, valor_unitario_centavos, origem)
	 values (?, ?, ?, ?, ?, ?, 1, ?, ?, 5000, ?)`
)
const SYSTEMS = ['K-RETA', 'K-PDV', 'K-CHEF', 'K-ATELIE', 'K-PRE VENDA']
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10)
const companyIds: number[][] = []
const BATCH = 500
for (let start = 0; start < REPS; start += BATCH) {
	client.transaction(() => {
		for (let r = start; r < Math.min(REPS, start + BATCH); r++) {
			const cnpj = cnpjOf(r)
			addRep.run(`Representante ${r}`, cnpj, r % 10 === 0 ? gerente.id : null)
			const ids: number[] = []
			for (let c = 0; c < COMPANIES_PER_REP; c++) {
				const n = r * COMPANIES_PER_REP + c
				const row = addCompany.get(
					`Empresa ${n} Ltda`,
					completeCnpj(String(600000000000 + n)),
					cnpj,
					`serial-${n}`,
					day(600 + (n % 500)),
					n % 7 === 0 ? 'S' : 'N',
					n % 3 === 0 ? 'S' : 'N'
				) as { codigo: number }
				ids.push(row.codigo)
			}
			companyIds.push(ids)
			for (let k = 0; k < ROWS_PER_REP / 2; k++) {
				const spent = k < 45
				const valor = 1 + ((r + k) % 20)
				addCredit.run(spent ? 0 : valor, valor, cnpj, null, null, null, day(k * 10), spent ? day(k * 10 + 5) : null, 'admin')
				const empresa = ids[k % ids.length]
				addCredit.run(
					1 + (k % 5),
					null,
					cnpj,
					empresa,
					`Empresa ${empresa} Ltda`,
					SYSTEMS[k % 5],
					day(k * 10 + 5),
					day(k * 10 + 5),
					'transferencia'
				)
			}
		}
	})()
}
const sampleReps = Array.from({ length: 20 }, (_, i) => Math.floor((i * REPS) / 20) + 3)
for (const r of sampleReps) addUser.get(cnpjOf(r), `Representante ${r}`, 'representante', hash, now, now)
const rows = (client.prepare('select count(*) as n from credits').get() as { n: number }).n
const scratch = DIALECT === 'postgres' ? await scratchPostgres('bench_credits') : null
if (scratch) await copyToPostgres(path, scratch.url, ['users', 'representatives', 'companies', 'credits'])
const db: Db = scratch ? openPostgres(scratch.url) : seedDb
await rebuildCreditBalances(db)
if (!scratch) client.exec('analyze')
console.log(
	`seeded ${REPS.toLocaleString('en')} representatives, ${(REPS * COMPANIES_PER_REP).toLocaleString('en')} companies, ${rows.toLocaleString('en')} credit rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`
)

const app = await createApp(portalContext({ db, clock, config: testConfig({ dataDir: dir }), log: silentLogger }))
const origin = 'http://localhost'
async function call(method: string, url: string, cookie: string, body?: unknown) {
	const headers: Record<string, string> = { origin, cookie }
	if (body) headers['content-type'] = 'application/json'
	const res = await app.handle(new Request(origin + url, { method, headers, body: body ? JSON.stringify(body) : undefined }))
	const text = await res.text()
	if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`)
	return text
}
async function login(cnpj: string) {
	const res = await app.handle(
		new Request(`${origin}/api/auth/login`, {
			method: 'POST',
			headers: { origin, 'content-type': 'application/json' },
			body: JSON.stringify({ cnpj, senha: 'bench-senha-123' })
		})
	)
	return (res.headers.get('set-cookie') ?? '').split(';')[0]
}
const adminCookie = await login(completeCnpj('110000000001'))
const gerenteCookie = await login(completeCnpj('110000000002'))
const repCookies = await Promise.all(sampleReps.map((r) => login(cnpjOf(r))))

function stats(times: number[]) {
	const sorted = [...times].sort((a, b) => a - b)
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
	return { p50: at(0.5), p95: at(0.95), p99: at(0.99) }
}
async function measure(name: string, n: number, target: number, run: (i: number) => Promise<unknown>) {
	for (let i = 0; i < 5; i++) await run(i)
	const times: number[] = []
	for (let i = 0; i < n; i++) {
		const s = performance.now()
		await run(i)
		times.push(performance.now() - s)
	}
	const { p50, p95, p99 } = stats(times)
	const ok = p95 <= target
	console.log(
		`${name.padEnd(44)} p50 ${p50.toFixed(2).padStart(7)} ms  p95 ${p95.toFixed(2).padStart(7)} ms  p99 ${p99.toFixed(2).padStart(7)} ms  target p95 ≤ ${target} ms  ${ok ? 'OK' : 'MISSED'}`
	)
	return ok
}

const results = [
	await measure('GET /api/credits/available (representante)', 1000, 20, (i) =>
		call('GET', '/api/credits/available', repCookies[i % repCookies.length])
	),
	await measure('GET /api/credits/summary (administrador)', 100, 100, () => call('GET', '/api/credits/summary', adminCookie)),
	await measure('GET /api/credits/summary?search= (administrador)', 100, 100, (i) =>
		call('GET', `/api/credits/summary?search=Representante%20${i * 37}`, adminCookie)
	),
	await measure('GET /api/dashboard/stats (administrador)', 200, 50, () => call('GET', '/api/dashboard/stats', adminCookie)),
	await measure('GET /api/dashboard/stats (gerente)', 200, 50, () => call('GET', '/api/dashboard/stats', gerenteCookie)),
	await measure('GET /api/dashboard/stats (representante)', 200, 50, (i) =>
		call('GET', '/api/dashboard/stats', repCookies[i % repCookies.length])
	)
]

// Transfers: an administrador spends 1 credit at a time across random representatives' companies.
const N = 2000
const start = performance.now()
let done = 0
for (let i = 0; i < N; i++) {
	const r = (i * 7919) % REPS
	const empresa = companyIds[r][i % COMPANIES_PER_REP]
	await call('POST', '/api/credits/transfer-to-company', adminCookie, { empresaCodigo: empresa, sistema: 'K-PDV', creditos: 1 })
	done++
}
const secs = (performance.now() - start) / 1000
console.log(
	`POST /api/credits/transfer-to-company       ${done} transfers in ${secs.toFixed(2)} s = ${(done / secs).toFixed(0)} transfers/s (${scratch ? 'PostgreSQL' : 'SQLite, synchronous=FULL, WAL'})`
)

if (scratch) {
	await (db.$client as unknown as postgres.Sql).end()
	await scratch.drop()
}
seedDb.$client.close()
if (process.env.BENCH_KEEP) console.log(`kept ${path}`)
else rmSync(dir, { recursive: true, force: true })
if (results.some((ok) => !ok)) process.exitCode = 1
