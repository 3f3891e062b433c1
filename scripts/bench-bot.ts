/**
 * bun run bench:bot — the WhatsApp bot end to end over HTTP, as it runs: the portal in a process of its own
 * (scripts/bench/portal-server.ts) and the Evolution stand-in in this one, delivering client messages to the portal's
 * webhook and taking the bot's replies through its send API. The same script (hello, CNPJ, licence status, PIX key) is
 * run twice, on fresh phones each time:
 *  - burst: every message handed to the stand-in at once (it posts each after its 0–8 ms jitter, concurrently): the
 *    messages handled per second, from the first delivery to the last reply (target ≥ 200/s);
 *  - steady: the messages arriving at that rate, 200 a second, each posted as it arrives without waiting for the
 *    answer to the one before (as Evolution 2.3 posts them): the webhook's answer time as the stand-in measured it,
 *    every delivery counted, the echoes of the bot's replies too (target p99 ≤ 20 ms).
 * Exits 1 when a target is missed or a delivery is answered other than 200.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpuSeconds } from './bench/cpu'
import { percentile } from './bench/figures'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../apps/cluster/harness'
import { openDb } from '../db/client'
import { migrateDb } from '../db/migrate'
import { createBotService } from '../modules/bot'
import { companies } from '../modules/companies'
import { completeCnpj, systemClock } from '../modules/core'
import { portalContext, silentLogger, testConfig } from '../modules/core/server'
import { startEvolutionStandin } from '../modules/evolution'
import { representatives } from '../modules/resellers'
import { saveSettings } from '../modules/settings'

const PHONES = Number(process.env.BENCH_PHONES ?? 500)
const TARGET_RATE = 200
const TARGET_P99_MS = 20
const KEY = 'bench-evolution-key'
/** Each client: hello, its CNPJ, licence status, PIX key — four messages, four replies. */
const SCRIPT = (cnpj: string) => ['Oi', cnpj, '1', '4']

const dir = mkdtempSync(join(tmpdir(), 'kportal-bench-bot-'))
const database = join(dir, 'bench.sqlite')
let portal: ReturnType<typeof Bun.spawn> | null = null
let standin: ReturnType<typeof startEvolutionStandin> | null = null

try {
	const db = openDb(database)
	migrateDb(db)
	const rep = completeCnpj('700000000001')
	await db.insert(representatives).values({ nome: 'Representante', cnpj: rep, data: '2025-01-01' })
	const clients = Array.from({ length: 2 * PHONES }, (_, i) => ({
		phone: `55859${String(91_000_000 + i).padStart(8, '0')}`,
		cnpj: completeCnpj(`8${String(i).padStart(11, '0')}`)
	}))
	await db.insert(companies).values(
		clients.map((c, i) => ({
			razao: `Empresa ${i}`,
			cnpj: c.cnpj,
			cnpj_representante: rep,
			fone: c.phone.slice(2),
			serial: `serial-${i}`,
			validade_licenca: '2030-01-01',
			data: '2025-01-01'
		}))
	)

	// The stand-in times every delivery: how long the portal took to answer the webhook, as Evolution sees it.
	let latencies: number[] = []
	standin = startEvolutionStandin({
		apiKey: KEY,
		// The bot asks for 0.8–3 s of "typing…" before each reply, a pause of its own choosing that Evolution waits: a
		// hundredth of it is waited here, so the figures are the portal's work, not that pause.
		typingDelayScale: 0.01,
		fetch: async (url, init) => {
			const t = performance.now()
			const res = await fetch(url, init)
			latencies.push(performance.now() - t)
			return res
		}
	})
	const port = freePort()
	const ctx = portalContext({
		db,
		clock: systemClock,
		config: testConfig({ dataDir: join(dir, 'data'), publicOrigin: `http://127.0.0.1:${port}` }),
		log: silentLogger
	})
	await saveSettings(db, ctx.clock, ctx.secrets, [
		{ chave: 'evolution_api_url', valor: standin.url },
		{ chave: 'evolution_api_key', valor: KEY },
		{ chave: 'evolution_instance_name', valor: 'k-licencas' },
		{ chave: 'bot_chave_pix', valor: '11222333000181' }
	])
	// Enabling the bot sets the instance's webhook (the portal's URL, its secret header) on the stand-in.
	await createBotService(ctx).setEnabled(true)
	if (standin.instances.get('k-licencas')?.webhook?.url !== `http://127.0.0.1:${port}/api/whatsapp/webhook`)
		throw new Error('the bot did not set the webhook on the stand-in')

	portal = Bun.spawn([process.execPath, 'scripts/bench/portal-server.ts', database, String(port)], {
		stdout: 'pipe',
		stderr: 'inherit',
		env: { ...process.env, LICENCE_WORKERS: '0' }
	})
	const { value } = await (portal.stdout as ReadableStream<Uint8Array>).getReader().read()
	if (!new TextDecoder().decode(value).includes('ready')) throw new Error('the portal did not start')
	const portalPid = portal.pid

	console.log(
		`${PHONES} clients a run, ${4 * PHONES} inbound messages through the webhook (targets: ≥ ${TARGET_RATE}/s, p99 ≤ ${TARGET_P99_MS} ms); load average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`
	)

	/** One run: the script of these clients' phones, round by round (each phone's messages in order, as a person types them). */
	async function run(name: string, phones: typeof clients, paceMs: number) {
		const s = standin!
		const messages = phones.flatMap((c) => SCRIPT(c.cnpj).map((text, step) => ({ from: c.phone, text, step })))
		messages.sort((a, b) => a.step - b.step)
		latencies = []
		const sentBefore = s.sent.length
		const deliveredBefore = s.deliveries.length
		const cpuBefore = cpuSeconds(portalPid)
		const t0 = performance.now()
		const deliveries: ReturnType<typeof s.deliverInbound>[] = []
		for (const [i, m] of messages.entries()) {
			const wait = t0 + i * paceMs - performance.now()
			if (wait > 0) await Bun.sleep(wait)
			deliveries.push(s.deliverInbound({ from: m.from, text: m.text }))
		}
		await Promise.all(deliveries)
		while (s.sent.length - sentBefore < messages.length) {
			await Bun.sleep(5)
			if (performance.now() - t0 > 120_000)
				throw new Error(`${name}: only ${s.sent.length - sentBefore} of ${messages.length} replies after 2 minutes`)
		}
		const seconds = (performance.now() - t0) / 1000
		await s.settled()
		const cpuAfter = cpuSeconds(portalPid)
		const sorted = [...latencies].sort((a, b) => a - b)
		const failed = s.deliveries.slice(deliveredBefore).filter((d) => d.status !== 200).length
		const figures = {
			rate: messages.length / seconds,
			p50: percentile(sorted, 50),
			p99: percentile(sorted, 99),
			failed,
			cpu: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / seconds
		}
		console.log(
			`${name}: ${messages.length} messages and ${s.sent.length - sentBefore} replies in ${seconds.toFixed(2)} s, ${figures.rate.toFixed(0)} messages/s; ` +
				`webhook answer p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms ` +
				`(${sorted.length} deliveries, ${failed} not 200); the portal used ${figures.cpu === null ? '—' : `${(figures.cpu * 100).toFixed(0)}%`} of a core`
		)
		return figures
	}

	// The burst's answer times are printed, not judged: its deliveries all start within 8 ms, and a server that answers
	// at once, doing nothing, is past 20 ms at p99 under them (docs/benchmarks.md).
	const burst = await run('burst ', clients.slice(0, PHONES), 0)
	const steady = await run('steady', clients.slice(PHONES), 1000 / TARGET_RATE)
	const rateOk = burst.rate >= TARGET_RATE
	const p99Ok = steady.p99 <= TARGET_P99_MS
	console.log(
		`messages/s (burst) ${burst.rate.toFixed(0)}: ${rateOk ? 'ok' : 'MISSED'}; webhook answer p99 at ${TARGET_RATE}/s ${steady.p99.toFixed(2)} ms: ${p99Ok ? 'ok' : 'MISSED'}`
	)
	const ok = rateOk && p99Ok && burst.failed + steady.failed === 0
	console.log(ok ? 'OK: targets met' : 'MISSED: a target was not met')
	process.exitCode = ok ? 0 : 1
} finally {
	portal?.kill()
	standin?.stop()
	rmSync(dir, { recursive: true, force: true })
}
