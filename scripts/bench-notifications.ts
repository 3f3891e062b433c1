/**
 * bun run bench:notifications — 100,000 companies with phones and licence dates spread over a year, the three
 * WhatsApp notification types on, then the time of choosing today's recipients (chooseRecipients: the candidate
 * queries, rendering every message and writing the send log). Target ≤ 200 ms (median of the rounds); exits 1
 * when missed.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb } from '../db/client'
import { migrateDb } from '../db/migrate'
import { completeCnpj, fixedClock } from '../modules/core'
import { portalContext, silentLogger, testConfig } from '../modules/core/server'
import { chooseRecipients, createNotificationSetting, notificationSends } from '../modules/messaging'

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 100_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const TARGET_MS = 200
// A Friday, 09:00 in Brazil.
const NOW = '2026-11-20T12:00:00.000Z'

const dir = mkdtempSync(join(tmpdir(), 'kportal-bench-notify-'))
const path = join(dir, 'bench.sqlite')

function seed() {
	migrateDb(openDb(path))
	const db = new Database(path, { strict: true })
	db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF')
	const reps: string[] = []
	db.transaction(() => {
		const insert = db.prepare('insert into representatives (nome, cnpj, data) values ($nome, $cnpj, $data)')
		for (let r = 0; r < 1_000; r++) {
			const cnpj = completeCnpj(`7${String(r).padStart(11, '0')}`)
			reps.push(cnpj)
			insert.run({ nome: `Representante ${r}`, cnpj, data: '2025-01-01' })
		}
	})()
	const insert = db.prepare(
		`insert into companies (codigo, razao, cnpj, cnpj_representante, fone, serial, validade_licenca, data, bloqueado, bloqueado_katelie)
		 values ($codigo, $razao, $cnpj, $rep, $fone, $serial, $validade, '2025-01-01', $b, $b)`
	)
	const today = Date.parse(NOW)
	db.transaction(() => {
		for (let i = 0; i < COMPANIES; i++) {
			// Licence dates spread over a year around today; one in 20 without a phone, one in 50 with a wrong one.
			const validade = new Date(today + (-182 + (i % 365)) * 86_400_000).toISOString().slice(0, 10)
			insert.run({
				codigo: i + 1,
				razao: `Empresa ${i}`,
				cnpj: completeCnpj(`8${String(i).padStart(11, '0')}`),
				rep: reps[i % reps.length],
				fone: i % 20 === 0 ? null : i % 50 === 1 ? '1234' : `(85) 9${String(80_000_000 + i).slice(0, 8)}`,
				serial: `serial-${i}`,
				validade,
				b: i % 3 === 0 ? 'S' : 'N'
			})
		}
	})()
	db.exec('ANALYZE')
	db.close()
}

try {
	let t = performance.now()
	seed()
	console.log(`seeded ${COMPANIES.toLocaleString('pt-BR')} companies in ${((performance.now() - t) / 1000).toFixed(1)} s`)
	const db = openDb(path)
	const clock = fixedClock(NOW)
	const ctx = portalContext({ db, clock, config: testConfig({ dataDir: join(dir, 'data') }), log: silentLogger })
	const actor = { id: 0, nome: 'bench' }
	await createNotificationSetting(ctx, actor, { tipo: 'whatsapp_expiracao', ativo: true })
	await createNotificationSetting(ctx, actor, { tipo: 'whatsapp_expirada', ativo: true })
	// Welcomes: the last 500 companies were registered after the type was turned on.
	await createNotificationSetting(ctx, actor, { tipo: 'whatsapp_boas_vindas', ativo: true })
	db.$client.run('update notification_settings set boas_vindas_apos_codigo = ? where tipo = ?', [COMPANIES - 500, 'whatsapp_boas_vindas'])

	console.log(`\nchoosing today's recipients (3 types, ${ROUNDS} rounds; target median ≤ ${TARGET_MS} ms)`)
	const times: number[] = []
	let chosen = 0
	for (let round = 0; round < ROUNDS; round++) {
		// Each round starts from a day nobody was told yet.
		await db.delete(notificationSends)
		db.$client.run('update notification_settings set ultima_execucao = null')
		t = performance.now()
		chosen = await chooseRecipients(ctx)
		const ms = performance.now() - t
		times.push(ms)
		console.log(`  round ${round + 1}: ${ms.toFixed(1)} ms, ${chosen.toLocaleString('pt-BR')} recipients`)
	}
	const sorted = [...times].sort((a, b) => a - b)
	const median = sorted[Math.floor(sorted.length / 2)]
	const byStatus = db.$client.query('select status, count(*) n from notification_sends group by status').all()
	console.log(`  send log: ${byStatus.map((r: any) => `${r.status} ${r.n}`).join(', ')}`)
	console.log(`\nmedian ${median.toFixed(1)} ms, best ${sorted[0].toFixed(1)} ms, worst ${sorted.at(-1)?.toFixed(1)} ms`)
	if (chosen === 0) throw new Error('no recipient chosen: the bench measured nothing')
	if (median > TARGET_MS) {
		console.log(`MISSED: median ${median.toFixed(1)} ms > ${TARGET_MS} ms`)
		process.exitCode = 1
	} else console.log(`OK: median ${median.toFixed(1)} ms ≤ ${TARGET_MS} ms`)
	db.$client.close()
} finally {
	rmSync(dir, { recursive: true, force: true })
}
