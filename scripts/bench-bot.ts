/**
 * bun run bench:bot — the WhatsApp bot end to end: the Evolution stand-in (over HTTP) delivers client messages to
 * the portal's webhook (over HTTP), the bot answers each through the stand-in's send API. Figures: inbound
 * messages handled per second, from the first delivery to the last reply received by the stand-in (target ≥ 200/s),
 * and the webhook's answer time p99 as Evolution sees it (target ≤ 20 ms). Exits 1 when a target is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, createServices } from '../apps/server/app'
import { openDb } from '../db/client'
import { migrateDb } from '../db/migrate'
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
const latencies: number[] = []
let portal: ReturnType<typeof Bun.serve> | null = null
let standin: ReturnType<typeof startEvolutionStandin> | null = null

try {
	const db = openDb(join(dir, 'bench.sqlite'))
	migrateDb(db)
	const rep = completeCnpj('700000000001')
	await db.insert(representatives).values({ nome: 'Representante', cnpj: rep, data: '2025-01-01' })
	const clients = Array.from({ length: PHONES }, (_, i) => ({
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

	// The stand-in times every delivery: how long the portal took to answer the webhook.
	standin = startEvolutionStandin({
		apiKey: KEY,
		fetch: async (url, init) => {
			const t = performance.now()
			const res = await fetch(url, init)
			latencies.push(performance.now() - t)
			return res
		}
	})
	const port = 40_000 + Math.floor(Math.random() * 20_000)
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
	const services = await createServices(ctx)
	const app = await createApp(ctx, services)
	portal = Bun.serve({ port, hostname: '127.0.0.1', fetch: (req) => app.handle(req) })
	await services.bot.setEnabled(true)
	if (standin.instances.get('k-licencas')?.webhook?.url !== `http://127.0.0.1:${port}/api/whatsapp/webhook`)
		throw new Error('the bot did not set the webhook on the stand-in')

	const messages = clients.flatMap((c) => SCRIPT(c.cnpj).map((text, step) => ({ from: c.phone, text, step })))
	// Round by round, so each phone's messages arrive in order, as a person types them.
	messages.sort((a, b) => a.step - b.step)
	console.log(
		`${PHONES} clients, ${messages.length} inbound messages through the webhook (targets: ≥ ${TARGET_RATE}/s, p99 ≤ ${TARGET_P99_MS} ms)`
	)
	const t0 = performance.now()
	const deliveries = messages.map((m) => standin!.deliverInbound({ from: m.from, text: m.text }))
	await Promise.all(deliveries)
	const s = standin
	while (s.sent.length < messages.length) {
		await services.bot.idle()
		if (s.sent.length < messages.length) await Bun.sleep(5)
		if (performance.now() - t0 > 120_000) throw new Error(`only ${s.sent.length} of ${messages.length} replies after 2 minutes`)
	}
	const seconds = (performance.now() - t0) / 1000
	const rate = messages.length / seconds
	latencies.sort((a, b) => a - b)
	const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
	const failed = (await Promise.all(deliveries)).filter((d) => d.delivery?.status !== 200).length
	console.log(
		`handled ${messages.length} messages and sent ${s.sent.length} replies in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} messages/s`
	)
	console.log(
		`webhook answer: p50 ${p(0.5).toFixed(2)} ms, p99 ${p(0.99).toFixed(2)} ms, max ${latencies.at(-1)!.toFixed(2)} ms (${latencies.length} deliveries, ${failed} not 200)`
	)
	const ok = rate >= TARGET_RATE && p(0.99) <= TARGET_P99_MS && failed === 0
	console.log(ok ? 'OK: targets met' : 'MISSED: a target was not met')
	process.exitCode = ok ? 0 : 1
} finally {
	portal?.stop(true)
	standin?.stop()
	rmSync(dir, { recursive: true, force: true })
}
