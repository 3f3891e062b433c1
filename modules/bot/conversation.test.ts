import { describe, expect, it } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { CNPJ, TEST_GATEWAY, type TestWorld, runPortalJob, saveGateway, testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { carneParcelas, carnes } from '../billing'
import { companies } from '../companies'
import { HOUR, MINUTE, completeCnpj, formatCnpj } from '../core'
import { type EvolutionStandinOptions, type InboundContent, STANDIN_VERSIONS, phoneKey, webhookPlan } from '../evolution'
import { createNotificationSetting, notificationSends, notificationSettings, NOTIFICATIONS_JOB } from '../messaging'
import { saveSettings } from '../settings'
import { sqlRun } from '../../db/query'
import { REPLIES_PER_MINUTE } from './service'

/** The company's registered phone, and how WhatsApp spells it in webhooks (Fortaleza: the ninth digit dropped). */
const CLIENT = '5585999990001'
const STRANGER = '5585988887777'

type World = TestWorld & { clock: { advance(ms: number): void; set(to: string): void } }

/** A portal whose gateway is the Evolution stand-in, with the bot enabled (which sets the instance's webhook). */
async function botWorld(now = '2026-11-20T12:00:00.000Z', evolution: Partial<EvolutionStandinOptions> = {}) {
	const w = (await testWorld({ now, config: { publicOrigin: 'http://localhost' }, evolution })) as World
	expect((await saveGateway(w, { ...TEST_GATEWAY, 'app.fornecedor_nome': 'Kaizen Sistemas' })).status).toBe(200)
	const enabled = await w.call('POST', '/api/whatsapp/bot-enable', { cookie: w.cookies.admin })
	expect(enabled.json).toEqual({ message: 'Bot ativado com sucesso' })
	await w.services.bot.idle()
	const company = await w.company(CNPJ.rep, 'Padaria Pão Quente', {
		fone: '(85) 99999-0001',
		validade_licenca: '2026-12-20',
		bloqueadopdv: 'S'
	})
	return { w, company }
}

/** The client (or anyone) writes; answers the texts the bot sent to that phone because of it. */
async function say(
	w: World,
	from: string,
	text: string,
	extra: { v1?: boolean; lid?: boolean; fromMe?: boolean; id?: string; content?: InboundContent; reactTo?: string } = {}
) {
	const before = w.evolution.sent.length
	const { delivery } = await w.evolution.deliverInbound({ from, text, ...extra })
	expect(delivery?.status).toBe(200)
	await w.services.bot.idle()
	await w.evolution.settled()
	return w.evolution.sent
		.slice(before)
		.filter((s) => phoneKey(s.number) === phoneKey(from))
		.map((s) => s.text ?? '')
}

const sessionOf = async (w: World, phone: string) =>
	(await w.call('GET', '/api/whatsapp/sessions', { cookie: w.cookies.admin })).json.find((s) => phoneKey(s.phone) === phoneKey(phone))!

/** A carnê of three parcels (paid, overdue, pending) with their boleto, digitable line and PIX code. */
async function seedCarne(w: World, empresa: number) {
	const now = w.clock.now().toISOString()
	const carne = (
		await w.db
			.insert(carnes)
			.values({
				referencia: 'carne-1',
				empresa_codigo: empresa,
				representante_cnpj: CNPJ.rep,
				asaas_installment_id: 'inst_1',
				asaas_customer_id: 'cus_1',
				valor_total_centavos: 45_000,
				valor_parcela_centavos: 15_000,
				numero_parcelas: 3,
				data_primeiro_vencimento: '2026-11-10',
				tipo_cobranca: 'BOLETO',
				status: 'ativo',
				created_at: now,
				updated_at: now
			})
			.returning()
	)[0]
	const parcel = (numero: number, vencimento: string, status: string) => ({
		carne_id: carne.id,
		empresa_codigo: empresa,
		representante_cnpj: CNPJ.rep,
		asaas_payment_id: `pay_${numero}`,
		numero,
		valor_centavos: 15_000,
		vencimento,
		status,
		boleto_url: `https://www.asaas.com/b/pdf/pay_${numero}`,
		linha_digitavel: `23793.38128 6000000${numero}.00000 00000.000000 1 9999000001500${numero}`,
		pix_copia_cola: `00020101021226820014br.gov.bcb.pix${numero}`,
		updated_at: now
	})
	await w.db
		.insert(carneParcelas)
		.values([parcel(1, '2026-11-10', 'RECEIVED'), parcel(2, '2026-11-15', 'OVERDUE'), parcel(3, '2026-12-10', 'PENDING')])
	return carne
}

async function toMenu(w: World, cnpj: string, from = CLIENT) {
	await say(w, from, 'Oi')
	return say(w, from, formatCnpj(cnpj))
}

describe('the webhook', () => {
	it('is set on the instance when the bot is enabled: URL, secret header, the two events', async () => {
		const { w } = await botWorld()
		const hook = w.evolution.instances.get('k-licencas')!.webhook!
		expect(hook.url).toBe('http://localhost/api/whatsapp/webhook')
		expect(hook.events).toEqual(['MESSAGES_UPSERT', 'CONNECTION_UPDATE'])
		const monitor = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json
		expect(hook.headers).toEqual({ 'x-webhook-token': monitor.webhook.secret })
		expect(monitor.webhook.secret).toMatch(/^[\w-]{32,}$/)
		expect(monitor.webhook).toMatchObject({ status: 'configurado', url: 'http://localhost/api/whatsapp/webhook' })
		// The secret is kept sealed with the other secrets.
		const listed = (await w.call('GET', '/api/configuracoes', { cookie: w.cookies.admin })).json
		expect(listed.find((s) => s.chave === 'bot_webhook_secret')!.valor).not.toContain(monitor.webhook.secret)
	})

	it('is set again when the gateway settings are saved', async () => {
		const { w } = await botWorld()
		w.evolution.instances.get('k-licencas')!.webhook = null
		await w.call('POST', '/api/configuracoes/bulk', {
			cookie: w.cookies.admin,
			body: { configuracoes: [{ chave: 'evolution_instance_name', valor: 'k-licencas' }] }
		})
		await w.services.bot.idle()
		expect(w.evolution.instances.get('k-licencas')!.webhook?.url).toBe('http://localhost/api/whatsapp/webhook')
	})

	it('refuses a forged delivery (no secret, wrong secret) with 401 and does nothing', async () => {
		const { w } = await botWorld()
		const body = {
			event: 'messages.upsert',
			instance: 'k-licencas',
			data: { key: { remoteJid: '558599990001@s.whatsapp.net', fromMe: false, id: 'FORGED1' }, message: { conversation: 'Oi' } }
		}
		for (const headers of [{}, { 'x-webhook-token': 'x'.repeat(43) }] as Record<string, string>[]) {
			const res = await w.app.handle(
				new Request('http://localhost/api/whatsapp/webhook', {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...headers },
					body: JSON.stringify(body)
				})
			)
			expect(res.status).toBe(401)
		}
		const forgedToken = await w.app.handle(
			new Request('http://localhost/api/whatsapp/webhook?token=nope', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body)
			})
		)
		expect(forgedToken.status).toBe(401)
		await w.services.bot.idle()
		expect(w.evolution.sent).toHaveLength(0)
		expect(await sessionOf(w, CLIENT)).toBeUndefined()
	})

	it('takes the secret as ?token= (Evolution v1 has no headers) and ignores other instances', async () => {
		const { w } = await botWorld()
		const secret = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json.webhook.secret
		const post = (instance: string, id: string) =>
			w.app.handle(
				new Request(`http://localhost/api/whatsapp/webhook?token=${secret}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						event: 'messages.upsert',
						instance,
						data: { key: { remoteJid: '558599990001@s.whatsapp.net', fromMe: false, id }, message: { conversation: 'Oi' } }
					})
				})
			)
		expect(await (await post('outra-instancia', 'A1')).json()).toEqual({ received: false })
		await w.services.bot.idle()
		expect(w.evolution.sent).toHaveLength(0)
		expect(await (await post('k-licencas', 'A2')).json()).toEqual({ received: true })
		await w.services.bot.idle()
		expect(w.evolution.sent.map((s) => s.text)).toEqual([expect.stringContaining('envie o *CNPJ*')])
	})

	for (const version of STANDIN_VERSIONS) {
		it(`is set in the body Evolution ${version} takes, with the secret where that version carries it; the client is answered`, async () => {
			const { w } = await botWorld(undefined, { version })
			const monitor = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json
			expect(monitor.webhook).toMatchObject({ status: 'configurado', message: null })
			const hook = w.evolution.instances.get('k-licencas')!.webhook!
			const headers = version === '2.3.6' || version === '2.1.1'
			expect(hook.url).toBe((headers ? monitor.webhook.url : monitor.webhook.urlWithToken)!)
			expect(hook.headers).toEqual(headers ? { 'x-webhook-token': monitor.webhook.secret } : {})
			expect(await say(w, CLIENT, 'Oi')).toEqual([expect.stringContaining('assistente virtual')])
		})
	}

	it('says in plain Portuguese, on Bot WhatsApp and on the API tab, when the Evolution version cannot be served', () => {
		for (const version of ['1.7.4', '3.0.0', '0.9']) {
			const plan = webhookPlan(version)
			expect(plan).toMatchObject({
				served: false,
				message: expect.stringContaining(`A Evolution API ${version} não é atendida pelo portal`)
			})
		}
		expect(webhookPlan('2.3.6')).toEqual({ served: true, body: 'nested', headers: true })
		expect(webhookPlan('2.1.0')).toEqual({ served: true, body: 'nested', headers: false })
		expect(webhookPlan('2.0.10')).toEqual({ served: true, body: 'flat', headers: false })
		expect(webhookPlan('1.8.6')).toEqual({ served: true, body: 'v1', headers: false })
	})

	it('feeds the gateway status from connection.update and warns when a connected gateway has been silent 30 minutes', async () => {
		const { w } = await botWorld()
		await w.evolution.setConnectionState('close')
		let monitor = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json
		expect(monitor).toMatchObject({ enabled: true, connection: { state: 'close' }, lastEventAt: '2026-11-20T12:00:00.000Z', warning: null })
		await w.evolution.setConnectionState('open')
		w.clock.advance(31 * MINUTE)
		monitor = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json
		expect(monitor.connection.state).toBe('open')
		expect(monitor.warning).toContain('nenhum evento chegou ao portal nos últimos 30 minutos')
		await say(w, CLIENT, 'Oi')
		monitor = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json
		expect(monitor.warning).toBeNull()
	})
})

describe('the conversation', () => {
	it('welcome → CNPJ (wrong twice, then right) → menu → options 1 and 4 → anything else repeats the menu', async () => {
		const { w, company } = await botWorld()
		await saveSettings(w.db, w.clock, w.ctx.secrets, [{ chave: 'bot_chave_pix', valor: '11.222.333/0001-81' }])
		const welcome = await say(w, CLIENT, 'Bom dia')
		expect(welcome).toEqual([expect.stringContaining('assistente virtual da *Kaizen Sistemas*')])
		expect((await sessionOf(w, CLIENT)).step).toBe('awaiting_cnpj')

		expect(await say(w, CLIENT, '11.111.111/1111-11')).toEqual([expect.stringContaining('Esse CNPJ não é válido')])
		const second = await say(w, CLIENT, completeCnpj('999999999999'))
		expect(second[0]).toContain('Não é possível atender o CNPJ')
		expect(second[0]).toContain('digite *5* para falar com um atendente')

		const menu = await say(w, CLIENT, `meu cnpj é ${formatCnpj(company.cnpj)}`)
		expect(menu[0]).toContain('Empresa: *Padaria Pão Quente*')
		expect(menu[0]).toContain('5 - Falar com um atendente')
		expect(menu[0]).not.toContain('6 - Liberar')
		expect(await sessionOf(w, CLIENT)).toMatchObject({ step: 'menu', cnpj: company.cnpj, isPaused: false })

		const licence = (await say(w, CLIENT, '1'))[0]
		expect(licence).toContain('Vencimento: 20/12/2026 (30 dias restantes)')
		expect(licence).toContain('• K-RETA: liberado')
		expect(licence).toContain('• K-PDV: bloqueado')
		expect((await sessionOf(w, CLIENT)).step).toBe('consulting')

		const pix = (await say(w, CLIENT, '4'))[0]
		expect(pix).toContain('Chave PIX (CNPJ): 11.222.333/0001-81')
		expect(pix).toContain('Favorecido: Kaizen Sistemas')

		expect((await say(w, CLIENT, 'quero falar sobre outra coisa'))[0]).toContain('Escolha uma opção')
		expect((await say(w, CLIENT, '9'))[0]).toContain('Escolha uma opção')
		// Replies are paced like a person typing (Evolution's delay, shown as "digitando…").
		expect(w.evolution.sent.every((s) => (s as { delay: number | null }).delay! >= 800)).toBe(true)
	})

	it('options 2 and 3: the open parcels (number, value, due date), then a second copy with link, digitable line and PIX', async () => {
		const { w, company } = await botWorld()
		await seedCarne(w, company.codigo)
		await toMenu(w, company.cnpj)
		const open = (await say(w, CLIENT, '2'))[0].replace(/\u00a0/g, ' ')
		expect(open).toContain('1) Parcela 2/3 — R$ 150,00 — vence 15/11/2026 (vencida)')
		expect(open).toContain('2) Parcela 3/3 — R$ 150,00 — vence 10/12/2026')
		expect(open).not.toContain('Parcela 1/3')

		expect((await say(w, CLIENT, '3'))[0]).toContain('Envie o *número da parcela*')
		expect((await sessionOf(w, CLIENT)).step).toBe('generating_boleto')
		expect(await say(w, CLIENT, '7')).toEqual([expect.stringContaining('envie o número de uma parcela da lista')])
		const copy = (await say(w, CLIENT, '2'))[0]
		expect(copy).toContain('Segunda via — Parcela 3/3')
		expect(copy).toContain('Boleto: https://www.asaas.com/b/pdf/pay_3')
		expect(copy).toContain('Linha digitável:\n23793.38128 60000003')
		expect(copy).toContain('PIX copia e cola:\n00020101021226820014br.gov.bcb.pix3')
		expect((await sessionOf(w, CLIENT)).step).toBe('consulting')

		// A company with nothing open is told so.
		await w.db.update(carneParcelas).set({ status: 'RECEIVED' })
		expect(await say(w, CLIENT, '3')).toEqual([expect.stringContaining('Não há parcelas em aberto')])
	})

	it('goes back to the start after 30 minutes of silence', async () => {
		const { w, company } = await botWorld()
		await toMenu(w, company.cnpj)
		w.clock.advance(31 * MINUTE)
		expect(await say(w, CLIENT, '1')).toEqual([expect.stringContaining('envie o *CNPJ*')])
		expect((await sessionOf(w, CLIENT)).step).toBe('awaiting_cnpj')
	})

	it('gives a company’s data only to a phone registered for it; a stranger is offered an attendant', async () => {
		const { w, company } = await botWorld()
		const reply = await toMenu(w, company.cnpj, STRANGER)
		expect(reply).toEqual([expect.stringContaining('só são enviados ao telefone cadastrado')])
		expect(reply[0]).not.toContain('Padaria')
		expect(await sessionOf(w, STRANGER)).toMatchObject({ step: 'awaiting_cnpj', cnpj: null })
		expect(await say(w, STRANGER, '1')).toEqual([expect.stringContaining('Envie o *CNPJ*')])
		// The attendant offer works from there.
		expect(await say(w, STRANGER, '5')).toEqual([expect.stringContaining('Um atendente vai continuar')])
		expect((await sessionOf(w, STRANGER)).isPaused).toBe(true)
	})

	it('answers a stranger typing a client’s CNPJ exactly as it answers a CNPJ of no one: nothing to probe (issue 33)', async () => {
		const { w, company } = await botWorld()
		const OTHER = '5585977776666'
		const unknown = completeCnpj('999999999999')
		await say(w, STRANGER, 'Oi')
		await say(w, OTHER, 'Oi')
		const asClient = [await say(w, STRANGER, company.cnpj), await say(w, STRANGER, company.cnpj)]
		const asNoOne = [await say(w, OTHER, unknown), await say(w, OTHER, unknown)]
		const neutral = (replies: string[][], cnpj: string) => replies.map((r) => r.map((t) => t.replace(formatCnpj(cnpj), '<cnpj>')))
		expect(neutral(asClient, company.cnpj)).toEqual(neutral(asNoOne, unknown))
		expect(asClient[1][0]).toContain('digite *5* para falar com um atendente')
		const strip = ({ phone, lastActivity, ...rest }: { phone: string; lastActivity: string }) => rest
		expect(strip(await sessionOf(w, STRANGER))).toEqual(strip(await sessionOf(w, OTHER)))
		// The client, from the phone registered for the company, is served.
		await say(w, CLIENT, 'Oi')
		expect((await say(w, CLIENT, company.cnpj))[0]).toContain('Empresa: *Padaria Pão Quente*')
	})

	it('stops answering a phone that tries more than 5 different CNPJs in an hour, with a warning in the activity log', async () => {
		const { w } = await botWorld()
		await say(w, STRANGER, 'Oi')
		for (let i = 1; i <= 5; i++) {
			const other = await w.company(CNPJ.rep, `Alvo ${i}`, { fone: `(85) 3222-000${i}` })
			expect(await say(w, STRANGER, other.cnpj)).toEqual([expect.stringContaining('telefone cadastrado')])
		}
		const sixth = await w.company(CNPJ.rep, 'Alvo 6', { fone: '(85) 3222-0006' })
		expect(await say(w, STRANGER, sixth.cnpj)).toEqual([])
		expect(await say(w, STRANGER, 'Oi?')).toEqual([])
		const warning = (await w.db.select().from(activities).where(eq(activities.event, 'whatsapp.bot-phone-blocked')))[0]
		expect(warning).toMatchObject({ type: 'warning', subtitle: '5585988887777 enviou 6 CNPJs diferentes em uma hora: ignorado por 1 hora' })
		w.clock.advance(HOUR + MINUTE)
		expect(await say(w, STRANGER, 'Oi')).toEqual([expect.stringContaining('assistente virtual')])
	})

	it('a 👍 on its message moves nothing; a sticker, an audio, a location, a contact get one “só entendo texto” per session', async () => {
		const { w, company } = await botWorld()
		await toMenu(w, company.cnpj)
		const menuId = w.evolution.sent.at(-1)!.id
		expect(await say(w, CLIENT, '👍', { content: 'reaction', reactTo: menuId })).toEqual([])
		expect(await say(w, CLIENT, '', { content: 'sticker' })).toEqual([expect.stringContaining('só entendo mensagens de texto')])
		for (const content of ['audio', 'location', 'contact', 'document', 'reaction'] as const)
			expect(await say(w, CLIENT, '', { content, reactTo: menuId })).toEqual([])
		// The conversation is where it was: the menu's options still work.
		expect((await sessionOf(w, CLIENT)).step).toBe('menu')
		expect((await say(w, CLIENT, '1'))[0]).toContain('Situação da licença')
		// A new session (30 idle minutes later) may be told once more; a reaction never gets an answer.
		w.clock.advance(31 * MINUTE)
		expect(await say(w, CLIENT, '👍', { content: 'reaction', reactTo: menuId })).toEqual([])
		expect(await say(w, CLIENT, '', { content: 'audio' })).toEqual([expect.stringContaining('só entendo mensagens de texto')])
		expect(await say(w, CLIENT, '', { content: 'audio' })).toEqual([])
	})

	it('takes a document with a large binary thumbnail (hundreds of KB of JSON); refuses a body that large in text, and a forged one unread', async () => {
		const { w } = await botWorld()
		const { delivery } = await w.evolution.deliverInbound({
			from: CLIENT,
			text: 'Segue o comprovante',
			content: 'document',
			thumbnailBytes: 40_000
		})
		await w.services.bot.idle()
		expect(delivery?.status).toBe(200)
		expect(w.evolution.sent.map((m) => m.text)).toEqual([expect.stringContaining('assistente virtual')])
		const secret = (await w.call('GET', '/api/whatsapp/bot/status', { cookie: w.cookies.admin })).json.webhook.secret
		const post = (body: BodyInit, headers: Record<string, string> = {}) =>
			w.app.handle(
				new Request('http://localhost/api/whatsapp/webhook', {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-webhook-token': secret, ...headers },
					body
				})
			)
		const text = JSON.stringify({
			event: 'messages.upsert',
			instance: 'k-licencas',
			data: { key: { remoteJid: '558599990001@s.whatsapp.net', fromMe: false, id: 'BIG1' }, message: { conversation: 'x'.repeat(300_000) } }
		})
		const tooMuchText = await post(text)
		expect(tooMuchText.status).toBe(413)
		expect((await tooMuchText.json()).message).toContain('excede 64 KB')
		const huge = await post(JSON.stringify({ event: 'messages.upsert', pad: 'x'.repeat(3 * 1024 * 1024) }))
		expect(huge.status).toBe(413)
		// Without the secret the answer comes before the body is read: this body never ends.
		const endless = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"event":')) })
		const forged = await Promise.race([post(endless, { 'x-webhook-token': 'errado' }), Bun.sleep(2000).then(() => null)])
		expect(forged?.status).toBe(401)
		await w.services.bot.idle()
		expect(w.evolution.sent).toHaveLength(1)
	})

	it('handles a repeated delivery (same data.key.id) once', async () => {
		const { w } = await botWorld()
		expect(await say(w, CLIENT, 'Oi')).toHaveLength(1)
		const id = w.evolution.inbound.at(-1)!.id
		expect(await say(w, CLIENT, 'Oi', { id })).toEqual([])
	})

	it('answers Evolution 200 only once the message is written down: one that could not be is refused and, delivered again, handled once', async () => {
		const { w } = await botWorld()
		await sqlRun(w.db, sql`alter table bot_inbox rename to bot_inbox_fora`)
		const failed = await w.evolution.deliverInbound({ from: CLIENT, text: 'Oi' })
		expect(failed.delivery?.status).toBe(500)
		await w.services.bot.idle()
		expect(w.evolution.sent).toHaveLength(0)
		await sqlRun(w.db, sql`alter table bot_inbox_fora rename to bot_inbox`)
		// Evolution delivers it again (a retry of its own): written this time, answered once however often it comes.
		expect(await say(w, CLIENT, 'Oi', { id: failed.id })).toEqual([expect.stringContaining('assistente virtual')])
		expect(await say(w, CLIENT, 'Oi', { id: failed.id })).toEqual([])
	})

	it('answers the webhook before the bot replies: a slow gateway does not hold Evolution’s delivery', async () => {
		const { w } = await botWorld()
		w.evolution.delayResponses(2_000)
		const started = performance.now()
		const { delivery } = await w.evolution.deliverInbound({ from: CLIENT, text: 'Oi' })
		expect(delivery?.status).toBe(200)
		expect(performance.now() - started).toBeLessThan(1_000)
		await w.services.bot.idle()
		expect(w.evolution.sent.map((s) => s.text)).toEqual([expect.stringContaining('assistente virtual')])
	}, 15_000)

	it('handles a phone’s messages in the order they came, even when they arrive together', async () => {
		const { w, company } = await botWorld(undefined, { deliveryJitterMs: 0 })
		const deliveries = await Promise.all(
			['Oi', formatCnpj(company.cnpj), '1'].map((text) => w.evolution.deliverInbound({ from: CLIENT, text }))
		)
		expect(deliveries.map((d) => d.delivery?.status)).toEqual([200, 200, 200])
		await w.services.bot.idle()
		expect(w.evolution.sent.map((s) => s.text)).toEqual([
			expect.stringContaining('assistente virtual'),
			expect.stringContaining('Escolha uma opção'),
			expect.stringContaining('Situação da licença')
		])
	})

	it('reads a v1 payload (extendedTextMessage) and an @lid sender with remoteJidAlt, both answered on the phone', async () => {
		const { w, company } = await botWorld()
		expect(await say(w, CLIENT, 'Oi', { v1: true })).toEqual([expect.stringContaining('assistente virtual')])
		expect((await say(w, CLIENT, company.cnpj, { lid: true }))[0]).toContain('Padaria Pão Quente')
		// The stand-in's JID for this Fortaleza mobile has no ninth digit; the session keeps the full number.
		expect(w.evolution.inbound.at(-1)?.from).toBe(CLIENT)
		expect((await sessionOf(w, CLIENT)).phone).toBe(CLIENT)
	})

	it('option 5 hands over to a person: paused, nothing sent, until an administrador resumes it', async () => {
		const { w, company } = await botWorld()
		await toMenu(w, company.cnpj)
		expect(await say(w, CLIENT, '5')).toEqual([expect.stringContaining('Um atendente vai continuar')])
		expect(await say(w, CLIENT, 'Alô?')).toEqual([])
		expect((await w.call('GET', '/api/whatsapp/paused-conversations', { cookie: w.cookies.admin })).json).toEqual([CLIENT])
		const resumed = await w.call('POST', '/api/whatsapp/resume-conversation', { cookie: w.cookies.admin, body: { phone: CLIENT } })
		expect(resumed.json).toEqual({ message: 'Conversa retomada com sucesso' })
		expect((await say(w, CLIENT, '0'))[0]).toContain('Escolha uma opção')
	})

	it('the attendant typing on the linked phone pauses the bot; its own sends and their echoes never do; 12 hours later it answers again', async () => {
		const { w, company } = await botWorld()
		w.evolution.echoOwnSends(true)
		await toMenu(w, company.cnpj)
		expect((await say(w, CLIENT, '1'))[0]).toContain('Situação da licença')
		// The echoes of those replies came back as messages.upsert with fromMe: still not paused.
		expect((await sessionOf(w, CLIENT)).isPaused).toBe(false)

		await say(w, CLIENT, 'Olá, aqui é a Ana do suporte', { fromMe: true })
		expect(await sessionOf(w, CLIENT)).toMatchObject({ isPaused: true, waitingSince: null })
		expect(await say(w, CLIENT, '1')).toEqual([])
		w.clock.advance(16 * MINUTE)
		const waiting = await sessionOf(w, CLIENT)
		expect(waiting).toMatchObject({ isPaused: true, waitingSince: '2026-11-20T12:00:00.000Z', waitingTooLong: true })
		// The attendant answers: no longer waiting; 12 hours after the attendant's last message the bot is back.
		await say(w, CLIENT, 'Já vou verificar', { fromMe: true })
		expect((await sessionOf(w, CLIENT)).waitingSince).toBeNull()
		w.clock.advance(12 * HOUR + MINUTE)
		expect(await say(w, CLIENT, 'Oi')).toEqual([expect.stringContaining('assistente virtual')])
	})

	it('every other send of the portal (a test send, a licence notice, a parcel by WhatsApp) echoes back as ours: the bot is not paused', async () => {
		const { w, company } = await botWorld()
		w.evolution.echoOwnSends(true)
		const test = await w.call('POST', '/api/evolution-api/test', { cookie: w.cookies.admin, body: { phone: CLIENT, message: 'Teste' } })
		expect(test.json.success).toBe(true)
		await w.db.update(companies).set({ validade_licenca: '2026-11-25' }).where(eq(companies.codigo, company.codigo))
		await createNotificationSetting(w.ctx, w.admin, { tipo: 'whatsapp_expiracao', ativo: true })
		await runPortalJob(w, NOTIFICATIONS_JOB)
		await seedCarne(w, company.codigo)
		const parcel = (await w.db.select().from(carneParcelas).where(eq(carneParcelas.status, 'PENDING')))[0]!
		const sentParcel = await w.call('POST', `/api/carnes/pagamentos/${parcel.id}/whatsapp`, {
			cookie: w.cookies.admin,
			body: { phone: CLIENT }
		})
		expect(sentParcel.status).toBe(200)
		await w.evolution.settled()
		await w.services.bot.idle()
		expect(w.evolution.sent).toHaveLength(3)
		const echoes = w.evolution.deliveries.filter((d) => d.event === 'messages.upsert')
		expect(echoes.map((d) => d.status)).toEqual([200, 200, 200])
		expect((await sessionOf(w, CLIENT))?.isPaused ?? false).toBe(false)
		expect(await say(w, CLIENT, 'Oi')).toEqual([expect.stringContaining('assistente virtual')])
	})

	it('option 5 alerts the administradores and the company representative (top bar and activity log) and puts the client first on Admin Bot with the wait', async () => {
		const { w, company } = await botWorld()
		// A stranger asks for a person before identifying a company: administradores only.
		await say(w, STRANGER, 'Oi')
		expect(await say(w, STRANGER, '5')).toEqual([expect.stringContaining('Um atendente vai continuar')])
		w.clock.advance(5 * MINUTE)
		await toMenu(w, company.cnpj)
		expect(await say(w, CLIENT, '5')).toEqual([expect.stringContaining('Um atendente vai continuar')])
		// A third conversation an attendant already took on the linked phone: paused, nobody waiting, the newest.
		w.clock.advance(MINUTE)
		await say(w, '5585977776666', 'Bom dia, aqui é o atendente', { fromMe: true })

		const titles = async (cookie: string) =>
			(await w.call('GET', '/api/notifications', { cookie })).json
				.filter((n: { title: string }) => n.title === 'Cliente aguardando atendente')
				.map((n: { message: string }) => n.message)
		expect(await titles(w.cookies.admin)).toEqual(
			expect.arrayContaining([
				expect.stringContaining('+55 (85) 99999-0001 (Padaria Pão Quente) pediu para falar com um atendente'),
				expect.stringContaining('+55 (85) 98888-7777 (empresa não identificada) pediu para falar com um atendente')
			])
		)
		expect(await titles(w.cookies.rep)).toEqual([expect.stringContaining('+55 (85) 99999-0001 (Padaria Pão Quente)')])
		expect(await titles(w.cookies.rep2)).toEqual([])
		const lines = await w.db.select().from(activities).where(eq(activities.event, 'whatsapp.attendant-requested'))
		expect(lines.map((l) => [l.title, l.subtitle, l.user_nome])).toEqual([
			['Cliente pediu um atendente no WhatsApp', '+55 (85) 98888-7777 — empresa não identificada', 'Bot WhatsApp'],
			['Cliente pediu um atendente no WhatsApp', '+55 (85) 99999-0001 — Padaria Pão Quente', 'Bot WhatsApp']
		])

		// Admin Bot: the waiting clients first, the longest wait first, with when they started waiting.
		const paused = (await w.call('GET', '/api/whatsapp/paused-conversations', { cookie: w.cookies.admin })).json
		expect(paused.map(phoneKey)).toEqual([STRANGER, CLIENT, '5585977776666'].map(phoneKey))
		const sessions = (await w.call('GET', '/api/whatsapp/sessions', { cookie: w.cookies.admin })).json
		expect(sessions.map((s: { phone: string; waitingSince: string | null }) => [phoneKey(s.phone), s.waitingSince])).toEqual([
			[phoneKey(STRANGER), '2026-11-20T12:00:00.000Z'],
			[phoneKey(CLIENT), '2026-11-20T12:05:00.000Z'],
			[phoneKey('5585977776666'), null]
		])
		// A client asking again while waiting alerts nobody twice.
		expect(await say(w, CLIENT, '5')).toEqual([])
		expect(await titles(w.cookies.rep)).toHaveLength(1)
	})

	it('"Simular Mensagem de Atendente" sends the text to the client through the gateway and pauses the conversation', async () => {
		const { w, company } = await botWorld()
		await toMenu(w, company.cnpj)
		await say(w, CLIENT, '5')
		expect((await sessionOf(w, CLIENT))?.waitingSince).not.toBeNull()
		const before = w.evolution.sent.length
		const res = await w.call('POST', '/api/whatsapp/simulate-attendant-message', {
			cookie: w.cookies.admin,
			body: { phone: '(85) 99999-0001', message: 'Olá! Aqui é a Ana, como posso ajudar?' }
		})
		expect(res.json).toEqual({ message: 'Mensagem de atendente simulada - bot pausado automaticamente' })
		await w.services.bot.idle()
		await w.evolution.settled()
		expect(w.evolution.sent.slice(before).map((m) => [m.number, m.text])).toEqual([[CLIENT, 'Olá! Aqui é a Ana, como posso ajudar?']])
		// Answered: paused, nobody waiting any more; the echo of the send is known as the portal's own.
		expect(await sessionOf(w, CLIENT)).toMatchObject({ isPaused: true, waitingSince: null })
		expect(await say(w, CLIENT, 'Oi')).toEqual([])
		expect((await w.call('GET', '/api/whatsapp/bot-status', { cookie: w.cookies.admin })).json).toEqual({
			enabled: true,
			activeSessions: 1,
			pausedConversations: 1
		})
	})

	it('"Simular Mensagem de Atendente" without a gateway, or refused by it, says why and changes nothing', async () => {
		const { w } = await botWorld()
		await say(w, STRANGER, 'Oi')
		await w.evolution.setConnectionState('close')
		const refused = await w.call('POST', '/api/whatsapp/simulate-attendant-message', {
			cookie: w.cookies.admin,
			body: { phone: STRANGER, message: 'Olá!' }
		})
		expect(refused.status).toBe(502)
		expect(refused.json.message).toBe('A mensagem não foi enviada ao cliente: A Evolution API recusou o pedido: Connection Closed.')
		expect((await sessionOf(w, STRANGER))?.isPaused).toBe(false)
		await saveSettings(w.db, w.clock, w.ctx.secrets, [{ chave: 'evolution_api_url', valor: '' }])
		const none = await w.call('POST', '/api/whatsapp/simulate-attendant-message', {
			cookie: w.cookies.admin,
			body: { phone: STRANGER, message: 'Olá!' }
		})
		expect(none.status).toBe(422)
		expect(none.json.message).toBe('Configure a Evolution API (Notificações › API) para enviar a mensagem ao cliente.')
		expect((await sessionOf(w, STRANGER))?.isPaused).toBe(false)
	})

	it('the bot disabled sends nothing to anyone', async () => {
		const { w, company } = await botWorld()
		await toMenu(w, company.cnpj)
		expect((await w.call('POST', '/api/whatsapp/bot-disable', { cookie: w.cookies.admin })).json).toEqual({
			message: 'Bot desativado com sucesso'
		})
		expect(await say(w, CLIENT, '1')).toEqual([])
		expect(await say(w, STRANGER, 'Oi')).toEqual([])
		const test = await w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone: CLIENT, message: '1' } })
		expect(test.json).toMatchObject({ success: false, replies: [] })
	})

	it('option 6 offers the trust release when the licence has expired: the same release as the Empresas screen, audited as the bot', async () => {
		const { w, company } = await botWorld()
		await w.db.update(companies).set({ validade_licenca: '2026-11-18' }).where(eq(companies.codigo, company.codigo))
		const menu = (await toMenu(w, company.cnpj))[0]
		expect(menu).toContain('6 - Liberar por 24 horas')
		expect((await say(w, CLIENT, '1'))[0]).toContain('Vencimento: 18/11/2026 (vencida há 2 dias)')
		expect((await say(w, CLIENT, '6'))[0]).toContain('liberado até 21/11/2026 09:00')
		const check = await w.app.handle(
			new Request('http://localhost/api/licenca/verificar', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ cnpj: company.cnpj, chave: company.serial, sistema: 'K-RETA', mac: 'AA:BB:CC:00:00:01' })
			})
		)
		expect((await check.json()).status).toBe('liberada_confianca')
		const line = (await w.db.select().from(activities).where(eq(activities.event, 'companies.trust-released')))[0]
		expect(line).toMatchObject({ user_nome: 'Bot WhatsApp', title: 'Liberação em confiança pelo bot WhatsApp' })
		// Not offered again within 30 days.
		expect((await say(w, CLIENT, '0'))[0]).not.toContain('6 - Liberar')
		expect((await say(w, CLIENT, '6'))[0]).toContain('Escolha uma opção')
	})

	it('PARAR opts the number out of automatic notifications (the notifications job skips it); VOLTAR opts it back in', async () => {
		const { w, company } = await botWorld()
		await w.db.update(companies).set({ validade_licenca: '2026-11-25' }).where(eq(companies.codigo, company.codigo))
		await createNotificationSetting(w.ctx, w.admin, { tipo: 'whatsapp_expiracao', ativo: true })
		expect(await say(w, CLIENT, 'parar')).toEqual([expect.stringContaining('não receberá mais avisos automáticos')])
		await runPortalJob(w, NOTIFICATIONS_JOB)
		expect((await w.db.select().from(notificationSends))[0]).toMatchObject({
			status: 'ignorada',
			erro: 'Número descadastrado pelo cliente (PARAR).'
		})
		expect(await say(w, CLIENT, 'VOLTAR')).toEqual([expect.stringContaining('voltará a receber')])
		// Today's run again, as if it had not happened yet.
		await w.db.delete(notificationSends)
		await w.db.update(notificationSettings).set({ ultima_execucao: null })
		await runPortalJob(w, NOTIFICATIONS_JOB)
		expect((await w.db.select().from(notificationSends))[0]?.status).toBe('enviada')
	})

	it('answers a client using the menu briskly for a whole minute: every message gets its reply', async () => {
		const { w, company } = await botWorld()
		await seedCarne(w, company.codigo)
		expect(await toMenu(w, company.cnpj)).toEqual([expect.stringContaining('Escolha uma opção')])
		// A quick person: an option every 4 seconds (the bot's own "typing…" takes 0.8–3 s of that).
		const options = ['1', '0', '2', '0', '3', '1', '0', '4', '0', '1', '0', '2', '0', '3', '2']
		for (const option of options) {
			w.clock.advance(4_000)
			const replies = await say(w, CLIENT, option)
			expect(replies).toHaveLength(1)
			expect(replies[0]).not.toContain('aguarde um instante')
		}
	})

	it('stops a phone that floods the bot (a loop with another bot), says so once, and answers again after a quiet minute', async () => {
		const { w } = await botWorld()
		const replies: string[] = []
		for (let i = 0; i < 60; i++) replies.push(...(await say(w, STRANGER, `mensagem ${i}`)))
		expect(replies).toHaveLength(REPLIES_PER_MINUTE + 1)
		expect(replies.filter((r) => r.includes('aguarde um instante'))).toEqual([replies[REPLIES_PER_MINUTE]])
		w.clock.advance(MINUTE + 1)
		expect(await say(w, STRANGER, 'de novo')).toEqual([expect.not.stringContaining('aguarde')])
	})

	it('POST /api/whatsapp/bot/test runs the message as that phone: replies sent there and answered', async () => {
		const { w } = await botWorld()
		const res = await w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone: '85 99999-0001', message: 'Oi' } })
		expect(res.json).toMatchObject({ success: true, replies: [expect.stringContaining('assistente virtual')] })
		expect(w.evolution.sent.map((s) => s.number)).toEqual([CLIENT])
		const empty = await w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone: '', message: '' } })
		expect(empty.status).toBe(400)
		expect(empty.json.message).toBe('Informe o telefone.')
	})

	it('is for administradores only', async () => {
		const { w } = await botWorld()
		for (const cookie of [w.cookies.gerente, w.cookies.rep]) {
			expect((await w.call('GET', '/api/whatsapp/bot-status', { cookie })).status).toBe(403)
			expect((await w.call('POST', '/api/whatsapp/bot-disable', { cookie })).status).toBe(403)
		}
	})
})
