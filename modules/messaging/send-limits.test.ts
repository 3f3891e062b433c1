import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CNPJ, TEST_ORIGIN, type TestWorld, createTestApp, testWorld, saveGateway } from '../../apps/server/testing'
import { MINUTE, WHATSAPP_SEND_LIMITS } from '../core'
import type { AppConfig } from '../core/server'

type Call = TestWorld['call']

/** A portal with its WhatsApp gateway saved and a carnê for each representative (Rafael's and Sara's first parcels). */
async function sendWorld(options: { config?: Partial<AppConfig>; dbFile?: string } = {}) {
	const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN, ...options.config }, dbFile: options.dbFile })
	expect((await saveGateway(w)).status).toBe(200)
	const parcelOf = async (cookie: string, rep: string, key: string) => {
		const saved = await w.call('PUT', '/api/representantes/asaas-config', {
			cookie,
			body: { ativar_api_asaas: 'S', asaas_api_key: key, asaas_ambiente: 'sandbox' }
		})
		expect(saved.status).toBe(200)
		const empresa = await w.company(rep, `Cliente de ${rep}`)
		const created = await w.call('POST', '/api/carnes', {
			cookie,
			body: {
				empresa_codigo: empresa.codigo,
				valor_total: 300,
				numero_parcelas: 3,
				data_primeiro_vencimento: '2026-12-10',
				tipo_cobranca: 'BOLETO',
				descricao: 'Mensalidades'
			}
		})
		expect(created.status).toBe(201)
		const parcels = (await w.call('GET', `/api/carnes/${created.json.carne.id}/parcelas`, { cookie })).json as { id: number }[]
		return { carne: created.json.carne.id as number, parcel: parcels[0].id }
	}
	const rep = await parcelOf(w.cookies.rep, CNPJ.rep, '$aact_hmlg_000000000000000000000000000000abcd')
	const rep2 = await parcelOf(w.cookies.rep2, CNPJ.rep2, '$aact_hmlg_000000000000000000000000000000efgh')
	return { w, rep, rep2 }
}

/** A valid phone per number, so every send goes to a different stranger as in the issue. */
const phone = (n: number) => `55859${String(10_000_000 + n)}`
const sendParcel = (w: TestWorld, cookie: string, parcel: number, n = 0) =>
	w.call('POST', `/api/carnes/pagamentos/${parcel}/whatsapp`, { cookie, body: { phone: phone(n) } })
const testSend = (call: Call, cookie: string, n = 0) =>
	call('POST', '/api/evolution-api/test', { cookie, body: { phone: phone(n), message: 'Teste' } })

const L = WHATSAPP_SEND_LIMITS

describe('WhatsApp sends a click sets off are limited (issue 33.6)', () => {
	it('of thirty-one parcel sends in one minute, the first six go out; the rest answer 429 with the wait and Retry-After', async () => {
		const { w, rep, rep2 } = await sendWorld()
		const answers = await Promise.all(Array.from({ length: 31 }, (_, i) => sendParcel(w, w.cookies.rep, rep.parcel, i)))
		expect(answers.filter((a) => a.status === 200)).toHaveLength(L.perUserPerMinute)
		const refused = answers.filter((a) => a.status === 429)
		expect(refused).toHaveLength(31 - L.perUserPerMinute)
		expect(w.evolution.sent).toHaveLength(L.perUserPerMinute)
		const last = answers[30]
		expect(last.status).toBe(429)
		expect(last.json.message).toBe(
			'Limite de envios pelo WhatsApp atingido (no máximo 6 mensagens por minuto). Tente novamente em 1 minuto.'
		)
		expect(last.headers.get('retry-after')).toBe('60')
		// Half a minute later the wait says so.
		w.clock.advance(30_000)
		const later = await sendParcel(w, w.cookies.rep, rep.parcel, 40)
		expect(later.json.message).toContain('Tente novamente em 30 segundos.')
		expect(later.headers.get('retry-after')).toBe('30')
		// Another representative is not held back by Rafael's sends.
		expect((await sendParcel(w, w.cookies.rep2, rep2.parcel, 50)).status).toBe(200)
		// The administrador has sent nothing, but Rafael's carnês have had their six this minute, whoever clicks.
		const forRafael = await sendParcel(w, w.cookies.admin, rep.parcel, 51)
		expect(forRafael.status).toBe(429)
		expect(forRafael.json.message).toContain('Limite de envios pelo WhatsApp deste representante atingido')
		// Once the minute has passed Rafael sends again.
		w.clock.advance(30_000)
		expect((await sendParcel(w, w.cookies.rep, rep.parcel, 52)).status).toBe(200)
		expect(w.evolution.sent).toHaveLength(L.perUserPerMinute + 2)
	})

	it('has a daily cap of 100 per user, told in hours', async () => {
		const { w, rep, rep2 } = await sendWorld()
		for (let i = 0; i < L.perUserPerDay; i++) {
			if (i > 0 && i % L.perUserPerMinute === 0) w.clock.advance(MINUTE)
			const sent = await sendParcel(w, w.cookies.rep, rep.parcel, i)
			expect(sent.status).toBe(200)
		}
		w.clock.advance(MINUTE)
		const refused = await sendParcel(w, w.cookies.rep, rep.parcel, 200)
		expect(refused.status).toBe(429)
		// The first send leaves the day 24 hours after it: 17 minutes have passed since.
		expect(refused.json.message).toBe(
			'Limite diário de envios pelo WhatsApp atingido (no máximo 100 mensagens por dia). Tente novamente em 23 horas e 43 minutos.'
		)
		expect(Number(refused.headers.get('retry-after'))).toBe(24 * 3600 - 17 * 60)
		expect(w.evolution.sent).toHaveLength(L.perUserPerDay)
		expect((await sendParcel(w, w.cookies.rep2, rep2.parcel, 201)).status).toBe(200)
		// The next day (a new session: the old one has expired meanwhile) Rafael sends again.
		w.clock.advance(24 * 60 * MINUTE)
		expect((await sendParcel(w, await w.login(CNPJ.rep), rep.parcel, 202)).status).toBe(200)
	})

	it('a send refused for what it asked (a wrong phone, someone else’s parcel) sends nothing and keeps its place', async () => {
		const { w, rep, rep2 } = await sendWorld()
		for (let i = 0; i < 10; i++) {
			const wrong = await w.call('POST', `/api/carnes/pagamentos/${rep.parcel}/whatsapp`, {
				cookie: w.cookies.rep,
				body: { phone: '85999' }
			})
			expect(wrong.status).toBe(400)
			expect((await sendParcel(w, w.cookies.rep, rep2.parcel, i)).status).toBe(404)
		}
		// Twenty refusals later Rafael still has his six sends of the minute, and only six.
		for (let i = 0; i < L.perUserPerMinute; i++) expect((await sendParcel(w, w.cookies.rep, rep.parcel, i)).status).toBe(200)
		expect((await sendParcel(w, w.cookies.rep, rep.parcel, 7)).status).toBe(429)
		// Sara's count was not touched by Rafael's tries at her parcel.
		for (let i = 0; i < L.perUserPerMinute; i++) expect((await sendParcel(w, w.cookies.rep2, rep2.parcel, i)).status).toBe(200)
	})

	it('counts in the database: two portals on one file share it, and a restarted one forgets nothing', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-sends-')), 'portal.sqlite')
		const w = await testWorld({ dbFile })
		expect((await saveGateway(w)).status).toBe(200)
		const other = await createTestApp({ dbFile })
		const otherAdmin = await other.login(CNPJ.admin)
		for (let i = 0; i < 3; i++) {
			expect((await testSend(w.call, w.cookies.admin, i)).json.success).toBe(true)
			expect((await testSend(other.call, otherAdmin, 10 + i)).json.success).toBe(true)
		}
		const here = await testSend(w.call, w.cookies.admin, 20)
		const there = await testSend(other.call, otherAdmin, 21)
		expect([here.status, there.status]).toEqual([429, 429])
		expect(there.json.message).toContain('no máximo 6 mensagens por minuto')
		expect(w.evolution.sent.length + other.evolution.sent.length).toBe(6)
		// A portal started afresh on the file is refused as well.
		const restarted = await createTestApp({ dbFile })
		expect((await testSend(restarted.call, await restarted.login(CNPJ.admin), 22)).status).toBe(429)
	})

	it('the bot’s test send counts as a send too', async () => {
		const { w } = await sendWorld()
		expect((await w.call('POST', '/api/whatsapp/bot-enable', { cookie: w.cookies.admin })).status).toBe(200)
		for (let i = 0; i < L.perUserPerMinute; i++) {
			const res = await w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone: phone(i), message: 'Oi' } })
			expect(res.json.success).toBe(true)
		}
		const refused = await w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone: phone(9), message: 'Oi' } })
		expect(refused.status).toBe(429)
		expect(refused.json.message).toContain('Limite de envios pelo WhatsApp atingido')
		expect((await testSend(w.call, w.cookies.admin, 10)).status).toBe(429)
	})
})

describe('WhatsApp sends a click sets off are paced like the automatic ones (issue 33.6)', () => {
	it('sends through one number leave WHATSAPP_PAUSE_MS apart (up to twice that), whoever clicks', async () => {
		const pause = 100
		const { w, rep } = await sendWorld({ config: { whatsappPauseMs: pause } })
		// Turns are moments: the clock runs, as it does in production.
		w.clock.run()
		const answers = await Promise.all([
			sendParcel(w, w.cookies.rep, rep.parcel, 1),
			sendParcel(w, w.cookies.rep, rep.parcel, 2),
			testSend(w.call, w.cookies.admin, 3),
			testSend(w.call, w.cookies.admin, 4)
		])
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
		const times = w.evolution.sent.map((s) => Date.parse(s.at)).sort((a, b) => a - b)
		expect(times).toHaveLength(4)
		for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(pause - 5)
		expect(times[3] - times[0]).toBeLessThan(6 * pause + 500)
	})

	it('a send whose turn is more than 30 seconds away is refused at once, not kept waiting', async () => {
		const { w, rep } = await sendWorld({ config: { whatsappPauseMs: 60_000 } })
		const started = Date.now()
		expect((await sendParcel(w, w.cookies.rep, rep.parcel, 1)).status).toBe(200)
		const queued = await testSend(w.call, w.cookies.admin, 2)
		expect(Date.now() - started).toBeLessThan(5_000)
		expect(queued.status).toBe(429)
		expect(queued.json.message).toMatch(/^O WhatsApp está enviando outras mensagens agora\. Tente novamente em \d+ (segundos|minutos?)\.$/)
		expect(Number(queued.headers.get('retry-after'))).toBeGreaterThanOrEqual(30)
		expect(w.evolution.sent).toHaveLength(1)
		// Refused for the queue, a send keeps its place in the count: six more such refusals, and once the pause is
		// gone the administrador still has the minute's six sends.
		for (let i = 0; i < L.perUserPerMinute; i++) expect((await testSend(w.call, w.cookies.admin, 3 + i)).status).toBe(429)
		w.ctx.config.whatsappPauseMs = 0
		for (let i = 0; i < L.perUserPerMinute; i++) expect((await testSend(w.call, w.cookies.admin, 10 + i)).status).toBe(200)
		expect((await testSend(w.call, w.cookies.admin, 20)).json.message).toContain('no máximo 6 mensagens por minuto')
	})
})
