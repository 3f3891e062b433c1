import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CNPJ, createTestApp, saveGateway, testWorld } from '../../apps/server/testing'
import { MINUTE, formatCnpj } from '../core'
import { writeTransaction } from '../core/server'
import { phoneKey } from '../evolution'
import { botInbox } from './schema'
import { acceptMessage, takeNextMessage } from './store'

const CLIENT = '5585999990001'

/**
 * Two portal instances on one database, as behind a balancer: A's Evolution stand-in delivers each webhook to both
 * (`fanOut`) or to one of them (`only`); each instance sends its replies through its own stand-in.
 */
async function twoInstances() {
	const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-bot-')), 'portal.sqlite')
	const targets: ((request: Request) => Promise<Response>)[] = []
	let deliverTo: 'both' | 0 | 1 = 'both'
	const fanOut = async (url: string, init: RequestInit) => {
		const chosen = deliverTo === 'both' ? targets : [targets[deliverTo]]
		const answers = await Promise.all(chosen.map((handle) => handle(new Request(url, init))))
		return answers[0]
	}
	const config = { publicOrigin: 'http://localhost' }
	const a = await testWorld({ dbFile, config, evolution: { fetch: fanOut, deliveryJitterMs: 0 } })
	const b = await createTestApp({ dbFile, config })
	targets.push(
		(r) => a.app.handle(r),
		(r) => b.app.handle(r)
	)
	expect((await saveGateway(a)).status).toBe(200)
	expect((await a.call('POST', '/api/whatsapp/bot-enable', { cookie: a.cookies.admin })).status).toBe(200)
	await a.services.bot.idle()
	const company = await a.company(CNPJ.rep, 'Padaria Pão Quente', { fone: '(85) 99999-0001', validade_licenca: '2026-12-20' })

	/** What the client's phone received from both instances, in order. */
	const received = () =>
		[...a.evolution.sent, ...b.evolution.sent].filter((s) => phoneKey(s.number) === phoneKey(CLIENT)).map((s) => s.text ?? '')
	async function say(text: string, to: 'both' | 0 | 1, id?: string) {
		deliverTo = to
		await a.evolution.deliverInbound({ from: CLIENT, text, id })
		await a.evolution.settled()
		await Promise.all([a.services.bot.idle(), b.services.bot.idle()])
	}
	return { a, b, company, received, say }
}

/**
 * What an instance leaves when it dies right after answering a webhook 200: the message in the inbox, taken with the
 * phone (its lease held by the dead instance) `takes` times.
 */
async function diedAfterAnswering(world: Awaited<ReturnType<typeof twoInstances>>['a'], id: string, text: string, takes = 1) {
	const at = world.clock.now()
	const key = phoneKey(CLIENT)
	await writeTransaction(world.db, async (tx) => {
		await acceptMessage(tx, { id, phoneKey: key, phone: CLIENT, fromMe: false, text }, at.toISOString())
		await takeNextMessage(tx, key, 'an-instance-that-died', at, MINUTE)
	})
	await world.db.update(botInbox).set({ takes })
}

describe('the bot on several portal instances (issue 36)', () => {
	it('answers a message once however many instances it is delivered to, and however often', async () => {
		const { received, say } = await twoInstances()
		for (let i = 0; i < 3; i++) await say('Oi', 'both', 'mensagem-repetida')
		expect(received()).toEqual([expect.stringContaining('assistente virtual')])
	})

	it('keeps one conversation whichever instance each message of the phone reaches', async () => {
		const { a, company, received, say } = await twoInstances()
		await say('Oi', 0)
		await say(formatCnpj(company.cnpj), 1)
		await say('1', 0)
		// Each instance's stand-in saw its own replies: one per message, the menu after the CNPJ, the status after "1".
		const replies = received()
		expect(replies).toHaveLength(3)
		expect(replies).toEqual(
			expect.arrayContaining([expect.stringContaining('Escolha uma opção'), expect.stringContaining('*Situação da licença*')])
		)
		const sessions = (await a.call('GET', '/api/whatsapp/sessions', { cookie: a.cookies.admin })).json
		expect(sessions.find((s) => phoneKey(s.phone) === phoneKey(CLIENT))).toMatchObject({ step: 'consulting' })
	})

	it('handles a message whose instance died after answering the webhook: another instance takes it up once the phone is free', async () => {
		const { a, b, received } = await twoInstances()
		await diedAfterAnswering(a, 'mensagem-aceita', 'Oi')
		// The dead instance's lease still holds the phone: nobody answers yet.
		b.clock.advance(30_000)
		expect(await b.services.bot.takeUpLeftWaiting()).toBe(0)
		await b.services.bot.idle()
		expect(received()).toEqual([])
		// The lease ran out: the inbox job of any instance answers it, once.
		b.clock.advance(31_000)
		expect(await b.services.bot.takeUpLeftWaiting()).toBe(1)
		await b.services.bot.idle()
		expect(await b.services.bot.takeUpLeftWaiting()).toBe(0)
		await Promise.all([a.services.bot.idle(), b.services.bot.idle()])
		expect(received()).toEqual([expect.stringContaining('assistente virtual')])
		expect(await b.db.select().from(botInbox)).toEqual([])
	})

	it('gives up a message after three instances died handling it, and answers the phone’s next one', async () => {
		const { a, b, received, say } = await twoInstances()
		await diedAfterAnswering(a, 'mensagem-fatal', 'Oi', 3)
		b.clock.advance(MINUTE + 1_000)
		expect(await b.services.bot.takeUpLeftWaiting()).toBe(1)
		await b.services.bot.idle()
		expect(received()).toEqual([])
		expect(b.logs.filter((l) => l.event === 'bot.message_given_up')).toEqual([
			{ event: 'bot.message_given_up', fields: { phoneKey: phoneKey(CLIENT), takes: 3 } }
		])
		expect(await b.db.select().from(botInbox)).toEqual([])
		await say('Oi', 1)
		expect(received()).toEqual([expect.stringContaining('assistente virtual')])
	})
})
