import { afterAll, describe, expect, it } from 'bun:test'
import { rejection } from '../../apps/server/testing'
import { createEvolutionClient, type EvolutionClientOptions, EvolutionError } from './client'
import { startEvolutionStandin } from './standin'

const KEY = 'evo-test-key'
const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`
const stops: (() => unknown)[] = []
afterAll(async () => {
	for (const stop of stops) await stop()
})

function setup(version: '2.3.6' | '1.8.6' = '2.3.6', options: Partial<EvolutionClientOptions> = {}) {
	const standin = startEvolutionStandin({ apiKey: KEY, instances: ['loja'], version, numbersWithoutWhatsapp: ['5585988887777'] })
	stops.push(standin.stop)
	const evo = createEvolutionClient({ baseUrl: standin.url, apiKey: KEY, instance: 'loja', timeoutMs: 500, ...options })
	return { standin, evo }
}

const failure = (p: Promise<unknown>) => rejection(p, EvolutionError)

for (const version of ['2.3.6', '1.8.6'] as const) {
	describe(`every call against Evolution ${version}`, () => {
		const { standin, evo } = setup(version)

		it('serverInfo reports the version', async () => {
			expect(await evo.serverInfo()).toEqual({ version })
		})

		it('sendText in the version’s body shape; the JID drops the ninth digit as Evolution does', async () => {
			const fortaleza = await evo.sendText('+55 (85) 99999-0001', 'Seu boleto vence amanhã')
			expect(fortaleza.messageId).toMatch(/^3EB0[0-9A-F]{18}$/)
			expect(fortaleza.remoteJid).toBe('558599990001@s.whatsapp.net')
			expect((await evo.sendText('5511987654321', 'oi')).remoteJid).toBe('5511987654321@s.whatsapp.net')
			expect((await evo.sendText('5585966554433', 'oi')).remoteJid).toBe('5585966554433@s.whatsapp.net')
			expect(standin.sent[0]).toMatchObject({
				id: fortaleza.messageId,
				number: '5585999990001',
				type: 'text',
				text: 'Seu boleto vence amanhã'
			})
		})

		it('sendDocument sends raw base64 (a data: prefix removed) with its file name and caption', async () => {
			const sent = await evo.sendDocument('5585999990001', {
				base64: PDF,
				fileName: 'carne.pdf',
				mimetype: 'application/pdf',
				caption: 'Seu carnê'
			})
			const record = standin.sent.find((s) => s.id === sent.messageId)
			expect(record).toMatchObject({ type: 'document', fileName: 'carne.pdf', caption: 'Seu carnê', size: 15 })
			const file = await fetch(`${standin.url}/__standin/sent/${sent.messageId}/media`)
			expect(await file.text()).toBe('%PDF-1.4\n%%EOF\n')
		})

		it('connectionState follows the instance', async () => {
			expect(await evo.connectionState()).toEqual({ state: 'open' })
			await standin.setConnectionState('close')
			expect(await evo.connectionState()).toEqual({ state: 'close' })
			await standin.setConnectionState('open')
		})

		it('setWebhook then findWebhook (headers only in v2: v1 has none)', async () => {
			expect(await evo.findWebhook()).toBeNull()
			await evo.setWebhook({
				url: 'https://portal.example/api/whatsapp/webhook',
				headers: { Authorization: 'Bearer segredo' },
				events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
				enabled: true
			})
			const found = await evo.findWebhook()
			expect(found).toMatchObject({
				url: 'https://portal.example/api/whatsapp/webhook',
				enabled: true,
				events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE']
			})
			expect(found?.headers).toEqual(version === '2.3.6' ? { Authorization: 'Bearer segredo' } : undefined)
		})

		it('a number without WhatsApp is named in the message', async () => {
			const e = await failure(evo.sendText('5585988887777', 'oi'))
			expect(e).toMatchObject({
				code: 'not_on_whatsapp',
				upstreamStatus: 400,
				uncertain: false,
				message: 'O número 5585988887777 não tem WhatsApp.'
			})
			expect('status' in e).toBe(false)
		})
	})
}

describe('errors', () => {
	const { standin, evo } = setup()

	it('a wrong key', async () => {
		const e = await failure(createEvolutionClient({ baseUrl: standin.url, apiKey: 'errada', instance: 'loja' }).connectionState())
		expect(e).toMatchObject({
			code: 'unauthorized',
			upstreamStatus: 401,
			message: 'A Evolution API recusou a chave (apikey): confira a chave salva nas configurações.'
		})
	})

	it('an unknown instance', async () => {
		const e = await failure(createEvolutionClient({ baseUrl: standin.url, apiKey: KEY, instance: 'outra' }).sendText('5585999990001', 'oi'))
		expect(e).toMatchObject({
			code: 'instance_not_found',
			upstreamStatus: 404,
			message: 'A instância "outra" não existe na Evolution API: confira o nome da instância.'
		})
	})

	it('a refused connection names the URL', async () => {
		const gone = startEvolutionStandin({ apiKey: KEY })
		await gone.stop()
		const e = await failure(createEvolutionClient({ baseUrl: gone.url, apiKey: KEY, instance: 'loja' }).connectionState())
		expect(e).toMatchObject({ code: 'network', uncertain: false })
		expect(e.message).toBe(`Não foi possível conectar à Evolution API em ${gone.url}: confira o endereço e se o servidor está no ar.`)
	})

	it('a send that times out is uncertain and not repeated: the stand-in recorded it once', async () => {
		await evo.serverInfo()
		const before = standin.sent.length
		standin.delayResponses(1000)
		try {
			const e = await failure(evo.sendText('5585999990001', 'lento'))
			expect(e).toMatchObject({ code: 'timeout', uncertain: true, upstreamStatus: null })
			expect(e.message).toBe(
				`A Evolution API não respondeu a tempo (${standin.url}). A mensagem pode ter sido enviada: confira antes de reenviar.`
			)
		} finally {
			standin.delayResponses(0)
		}
		expect(standin.sent.length).toBe(before + 1)
	})

	it('a GET is tried three times before it times out for good', async () => {
		let calls = 0
		const counting = createEvolutionClient({
			baseUrl: standin.url,
			apiKey: KEY,
			instance: 'loja',
			timeoutMs: 100,
			fetch: (url, init) => {
				calls++
				return fetch(url, init)
			}
		})
		standin.delayResponses(400)
		try {
			const e = await failure(counting.connectionState())
			expect(e).toMatchObject({ code: 'timeout', uncertain: false })
		} finally {
			standin.delayResponses(0)
		}
		expect(calls).toBe(3)
	})

	it('asks the version once per client', async () => {
		const paths: string[] = []
		const counting = createEvolutionClient({
			baseUrl: standin.url,
			apiKey: KEY,
			instance: 'loja',
			fetch: (url, init) => {
				paths.push(`${init.method} ${new URL(url).pathname}`)
				return fetch(url, init)
			}
		})
		await counting.sendText('5585999990001', 'a')
		await counting.sendText('5585999990001', 'b')
		expect(paths).toEqual(['GET /', 'POST /message/sendText/loja', 'POST /message/sendText/loja'])
	})

	it('a server that is not Evolution says so', async () => {
		const other = Bun.serve({ port: 0, fetch: () => Response.json({ hello: 'world' }) })
		stops.push(() => other.stop(true))
		const e = await failure(
			createEvolutionClient({ baseUrl: other.url.origin, apiKey: KEY, instance: 'loja' }).sendText('5585999990001', 'oi')
		)
		expect(e.message).toBe('A Evolution API não informou a versão: confira se o endereço é o do servidor da Evolution.')
	})
})
