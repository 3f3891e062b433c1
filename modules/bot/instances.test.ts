import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CNPJ, EVOLUTION_TEST_KEY, createTestApp, testWorld } from '../../apps/server/testing'
import { formatCnpj } from '../core'
import { phoneKey } from '../evolution'

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
	const saved = await a.call('POST', '/api/configuracoes/bulk', {
		cookie: a.cookies.admin,
		body: {
			configuracoes: [
				{ chave: 'evolution_api_url', valor: 'http://evolution.local' },
				{ chave: 'evolution_api_key', valor: EVOLUTION_TEST_KEY },
				{ chave: 'evolution_instance_name', valor: 'k-licencas' }
			]
		}
	})
	expect(saved.status).toBe(200)
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
})
