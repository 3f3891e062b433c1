import { afterAll, describe, expect, it } from 'bun:test'
import { createEvolutionClient } from './client'
import { STANDIN_VERSIONS, createEvolutionStandin, createJid, startEvolutionStandin } from './standin'
import { parseEvolutionEvent, samePhone } from './webhook'

const KEY = 'evo-standin-key'
const stops: (() => unknown)[] = []
afterAll(async () => {
	for (const stop of stops) await stop()
})

/** A portal-like HTTP receiver recording every delivery. */
function receiver() {
	const received: { headers: Headers; body: Record<string, unknown> }[] = []
	const server = Bun.serve({
		port: 0,
		async fetch(req) {
			received.push({ headers: req.headers, body: (await req.json()) as Record<string, unknown> })
			return new Response(null, { status: 200 })
		}
	})
	stops.push(() => server.stop(true))
	return { url: `${server.url.origin}/api/whatsapp/webhook`, received }
}

async function setup(
	version: '2.3.6' | '1.8.6' = '2.3.6',
	events = ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
	echoOwnSendsAsUpsert?: boolean
) {
	const standin = startEvolutionStandin({ apiKey: KEY, instances: ['loja'], version, echoOwnSendsAsUpsert })
	stops.push(standin.stop)
	const rx = receiver()
	const evo = createEvolutionClient({ baseUrl: standin.url, apiKey: KEY, instance: 'loja' })
	await evo.setWebhook({ url: rx.url, headers: { Authorization: 'Bearer segredo-do-portal' }, events, enabled: true })
	return { standin, rx, evo }
}

const post = (url: string, body: unknown, headers: Record<string, string> = { apikey: KEY }) =>
	fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('inbound messages', () => {
	it('a client’s message reaches the webhook with the configured header, in the v2 envelope, without the ninth digit', async () => {
		const { standin, rx } = await setup()
		const { id, delivery } = await standin.deliverInbound({ from: '5585999990001', text: 'Quero a segunda via', pushName: 'Maria' })
		expect(delivery).toMatchObject({ event: 'messages.upsert', status: 200, error: null })
		expect(rx.received).toHaveLength(1)
		const { headers, body } = rx.received[0]
		expect(headers.get('authorization')).toBe('Bearer segredo-do-portal')
		expect(body).toMatchObject({
			event: 'messages.upsert',
			instance: 'loja',
			destination: rx.url,
			sender: '5585900000000@s.whatsapp.net',
			server_url: standin.url
		})
		expect(body.data).toMatchObject({
			key: { remoteJid: '558599990001@s.whatsapp.net', fromMe: false, id },
			message: { conversation: 'Quero a segunda via' },
			status: 'DELIVERY_ACK'
		})
		const event = parseEvolutionEvent(body)
		expect(event).toMatchObject({ kind: 'message', id, phone: '558599990001', pushName: 'Maria', text: 'Quero a segunda via' })
		expect(event.kind === 'message' && samePhone(event.phone, '5585999990001')).toBe(true)
	})

	it('keeps the ninth digit where Evolution keeps it (DDD below 31, or a digit below 7 after the 9)', () => {
		expect(createJid('5511987654321')).toBe('5511987654321@s.whatsapp.net')
		expect(createJid('5585966554433')).toBe('5585966554433@s.whatsapp.net')
		expect(createJid('5531971234567')).toBe('553171234567@s.whatsapp.net')
		expect(createJid('120363025246125486@g.us')).toBe('120363025246125486@g.us')
	})

	it('an @lid sender carries the phone in remoteJidAlt; a v1 payload uses extendedTextMessage', async () => {
		const { standin, rx } = await setup()
		await standin.deliverInbound({ from: '5585999990001', text: 'via lid', lid: true })
		await standin.deliverInbound({ from: '5585999990001', text: 'formato v1', v1: true })
		const [lid, v1] = rx.received.map((r) => r.body)
		expect(lid.data).toMatchObject({ key: { addressingMode: 'lid', remoteJidAlt: '558599990001@s.whatsapp.net' } })
		expect(String((lid.data as { key: { remoteJid: string } }).key.remoteJid)).toEndWith('@lid')
		expect(parseEvolutionEvent(lid)).toMatchObject({ kind: 'message', phone: '558599990001', text: 'via lid' })
		expect(v1.data).toMatchObject({ message: { extendedTextMessage: { text: 'formato v1' } }, owner: 'loja' })
		expect(parseEvolutionEvent(v1)).toMatchObject({ kind: 'message', text: 'formato v1' })
	})

	it('a v1 stand-in delivers v1 payloads; a person typing on the phone comes as fromMe', async () => {
		const { standin, rx } = await setup('1.8.6')
		await standin.deliverInbound({ from: '5585999990001', text: 'já te atendo', fromMe: true })
		expect(rx.received[0].body.data).toMatchObject({ key: { fromMe: true }, messageType: 'extendedTextMessage' })
		expect(parseEvolutionEvent(rx.received[0].body)).toMatchObject({ kind: 'message', fromMe: true })
	})

	it('no webhook, or one not subscribed: nothing is delivered', async () => {
		const bare = createEvolutionStandin({ apiKey: KEY })
		expect((await bare.deliverInbound({ from: '5585999990001', text: 'oi' })).delivery).toBeNull()
		const { standin, rx } = await setup('2.3.6', ['CONNECTION_UPDATE'])
		expect((await standin.deliverInbound({ from: '5585999990001', text: 'oi' })).delivery).toBeNull()
		expect(rx.received).toHaveLength(0)
	})
})

describe('events of the instance', () => {
	it('send.message for our own sends when subscribed, with the id the send returned', async () => {
		const { standin, rx, evo } = await setup('2.3.6', ['SEND_MESSAGE'])
		const sent = await evo.sendText('5585999990001', 'Seu boleto')
		await standin.settled()
		expect(rx.received.map((r) => r.body.event)).toEqual(['send.message'])
		expect(parseEvolutionEvent(rx.received[0].body)).toMatchObject({
			kind: 'sent',
			id: sent.messageId,
			text: 'Seu boleto',
			phone: '558599990001'
		})
	})

	it('echoes our own sends as messages.upsert fromMe by default (issue #1340)', async () => {
		const { standin, rx, evo } = await setup('2.3.6', ['MESSAGES_UPSERT'])
		const sent = await evo.sendText('5585999990001', 'eco')
		await standin.settled()
		expect(parseEvolutionEvent(rx.received[0].body)).toMatchObject({ kind: 'message', fromMe: true, id: sent.messageId })
	})

	it('connection.update when the state is switched; sends fail while closed', async () => {
		const { standin, rx, evo } = await setup()
		await standin.setConnectionState('close')
		expect(parseEvolutionEvent(rx.received[0].body)).toEqual({ kind: 'connection', instance: 'loja', state: 'close' })
		const e = await evo.sendText('5585999990001', 'oi').catch((x: Error) => x)
		expect(e).toMatchObject({ code: 'rejected', message: 'A Evolution API recusou o pedido: Connection Closed.' })
		await standin.setConnectionState('open')
		expect(rx.received[1].body.data).toMatchObject({ state: 'open', wuid: '5585900000000@s.whatsapp.net' })
	})
})

describe('protocol checks like the real server', () => {
	it('refuses the other version’s body shape and media that is neither URL nor base64', async () => {
		const v2 = startEvolutionStandin({ apiKey: KEY, instances: ['loja'] })
		const v1 = startEvolutionStandin({ apiKey: KEY, instances: ['loja'], version: '1.8.6' })
		stops.push(v2.stop, v1.stop)
		const v1Body = { number: '5585999990001', options: {}, textMessage: { text: 'oi' } }
		const wrongForV2 = await post(`${v2.url}/message/sendText/loja`, v1Body)
		expect(wrongForV2.status).toBe(400)
		expect(await wrongForV2.json()).toEqual({
			status: 400,
			error: 'Bad Request',
			response: { message: ['instance requires property "text"'] }
		})
		const wrongForV1 = await post(`${v1.url}/message/sendText/loja`, { number: '5585999990001', text: 'oi' })
		expect(((await wrongForV1.json()) as { response: { message: string[] } }).response.message).toEqual([
			'instance requires property "textMessage"'
		])
		const noName = await post(`${v2.url}/message/sendMedia/loja`, {
			number: '5585999990001',
			mediatype: 'document',
			media: 'JVBERi0xLjQK'
		})
		expect(((await noName.json()) as { response: { message: string[] } }).response.message).toEqual([
			'For base64 the file name must be informed.'
		])
		const dataUri = await post(`${v2.url}/message/sendMedia/loja`, {
			number: '5585999990001',
			mediatype: 'document',
			media: 'data:application/pdf;base64,JVBERi0xLjQK',
			fileName: 'a.pdf'
		})
		expect(((await dataUri.json()) as { response: { message: string[] } }).response.message).toEqual([
			'Owned media must be a url or base64'
		])
		expect(v2.sent).toHaveLength(0)
	})

	it('waits the typing delay a send asks for before it sends and answers, as Evolution does (v2 and v1 bodies)', async () => {
		const s = createEvolutionStandin({ apiKey: KEY })
		const started = performance.now()
		const v2 = await s.handle(
			new Request('http://evo.local/message/sendText/k-licencas', {
				method: 'POST',
				headers: { apikey: KEY, 'content-type': 'application/json' },
				body: JSON.stringify({ number: '5585999990001', text: 'digitando', delay: 300 })
			})
		)
		expect(v2.status).toBe(201)
		expect(performance.now() - started).toBeGreaterThanOrEqual(290)
		expect(s.sent.map((m) => [m.text, m.delay])).toEqual([['digitando', 300]])
		const v1 = createEvolutionStandin({ apiKey: KEY, version: '1.8.6', typingDelayScale: 0.5 })
		const v1Started = performance.now()
		const answer = await v1.handle(
			new Request('http://evo.local/message/sendText/k-licencas', {
				method: 'POST',
				headers: { apikey: KEY, 'content-type': 'application/json' },
				body: JSON.stringify({ number: '5585999990001', options: { delay: 400 }, textMessage: { text: 'v1' } })
			})
		)
		expect(answer.status).toBe(201)
		expect(performance.now() - v1Started).toBeGreaterThanOrEqual(190)
	})

	it('401 without the key, 404 for an unknown route', async () => {
		const s = createEvolutionStandin({ apiKey: KEY })
		const noKey = await s.handle(new Request('http://evo.local/instance/connectionState/k-licencas'))
		expect([noKey.status, await noKey.json()]).toEqual([401, { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } }])
		const route = await s.handle(new Request('http://evo.local/chat/findChats/k-licencas', { headers: { apikey: KEY } }))
		expect(route.status).toBe(404)
	})
})

describe('controls and the chat page', () => {
	it('HTTP controls: write as a client, read what was sent to a number, switch the state', async () => {
		const { standin, rx, evo } = await setup()
		const inbound = await post(`${standin.url}/__standin/inbound`, { from: '(85) 99999-0001', text: 'oi pelo navegador' }, {})
		expect(((await inbound.json()) as { delivery: { status: number } }).delivery.status).toBe(200)
		expect(rx.received).toHaveLength(1)
		expect((await post(`${standin.url}/__standin/inbound`, { text: 'sem número' }, {})).status).toBe(400)
		await evo.sendText('558599990001', 'resposta do portal')
		const sent = (await (await fetch(`${standin.url}/__standin/sent?number=5585999990001`)).json()) as { text: string }[]
		expect(sent.map((s) => s.text)).toEqual(['resposta do portal'])
		const chat = (await (await fetch(`${standin.url}/__standin/chat?phone=5585999990001`)).json()) as {
			messages: { direction: string; text: string }[]
		}
		expect(chat.messages.map((m) => [m.direction, m.text])).toEqual([
			['in', 'oi pelo navegador'],
			['out', 'resposta do portal']
		])
		expect((await post(`${standin.url}/__standin/state`, { state: 'connecting' }, {})).status).toBe(200)
		expect(await evo.connectionState()).toEqual({ state: 'connecting' })
		await standin.settled()
		// The client's message, the echo of the portal's send (issue #1340), the connection.update.
		const deliveries = (await (await fetch(`${standin.url}/__standin/deliveries`)).json()) as { event: string }[]
		expect(deliveries.map((d) => d.event).sort()).toEqual(['connection.update', 'messages.upsert', 'messages.upsert'])
	})

	it('serves the chat page to a browser and the welcome JSON to a client', async () => {
		const s = createEvolutionStandin({ apiKey: KEY, instances: ['loja'] })
		const page = await s.handle(new Request('http://evo.local/', { headers: { accept: 'text/html,application/xhtml+xml' } }))
		const html = await page.text()
		expect(page.headers.get('content-type')).toStartWith('text/html')
		expect(html).toContain('Enviar como cliente')
		expect(html).toContain('/__standin/chat?phone=')
		expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/)
		const welcome = await s.handle(new Request('http://evo.local/', { headers: { accept: 'application/json' } }))
		expect(await welcome.json()).toMatchObject({
			status: 200,
			version: '2.3.6',
			message: 'Welcome to the Evolution API, it is working!'
		})
	})
})

describe('as awkward as the real Evolution', () => {
	it('delivers concurrently: twenty messages written in order do not all arrive in order', async () => {
		const { standin, rx } = await setup()
		const texts = Array.from({ length: 20 }, (_, i) => `mensagem ${i}`)
		await Promise.all(texts.map((text) => standin.deliverInbound({ from: '5585999990001', text })))
		await standin.settled()
		const arrived = rx.received.map((r) => parseEvolutionEvent(r.body)).map((e) => (e.kind === 'message' ? e.text : ''))
		expect([...arrived].sort()).toEqual([...texts].sort())
		expect(arrived).not.toEqual(texts)
	})

	it('retries a failed delivery (2.3.x drops a 401, 1.8 retries it), and on a switch delivers every event twice', async () => {
		for (const [version, status, tries] of [
			['2.3.6', 500, 2],
			['2.3.6', 401, 1],
			['1.8.6', 401, 2]
		] as const) {
			let calls = 0
			const standin = createEvolutionStandin({
				apiKey: KEY,
				instances: ['loja'],
				version,
				fetch: async () => new Response(null, { status: ++calls === 1 ? status : 200 })
			})
			standin.instances.get('loja')!.webhook = {
				enabled: true,
				url: 'http://portal/hook',
				headers: {},
				events: [],
				byEvents: false,
				base64: false
			}
			await standin.deliverInbound({ from: '5585999990001', text: 'oi' })
			await standin.settled()
			expect([version, status, standin.deliveries.map((d) => d.attempt)]).toEqual([version, status, tries === 2 ? [1, 2] : [1]])
		}
		const twice = createEvolutionStandin({
			apiKey: KEY,
			instances: ['loja'],
			duplicateDeliveries: true,
			fetch: async () => new Response(null)
		})
		twice.instances.get('loja')!.webhook = {
			enabled: true,
			url: 'http://portal/hook',
			headers: {},
			events: [],
			byEvents: false,
			base64: false
		}
		const { id } = await twice.deliverInbound({ from: '5585999990001', text: 'oi' })
		await twice.settled()
		expect(twice.deliveries.map((d) => [d.event, d.status])).toEqual([
			['messages.upsert', 200],
			['messages.upsert', 200]
		])
		expect(id).toMatch(/^[0-9A-F]{32}$/)
	})

	it('plays each version: reports it at GET /, takes only its own webhook body, keeps headers only from 2.1.1', async () => {
		const nested = { webhook: { enabled: true, url: 'http://portal/hook', headers: { 'x-webhook-token': 's' }, events: [] } }
		const flat = { enabled: true, url: 'http://portal/hook', webhookByEvents: false, webhookBase64: false, events: [] }
		const v1 = { enabled: true, url: 'http://portal/hook', webhook_by_events: false, webhook_base64: false, events: [] }
		const expected = {
			'2.3.6': { nested: 201, flat: 400, headers: true },
			'2.1.1': { nested: 201, flat: 400, headers: true },
			'2.1.0': { nested: 201, flat: 400, headers: false },
			'2.0.10': { nested: 400, flat: 201, headers: false },
			'1.8.6': { nested: 400, flat: 201, headers: false }
		}
		for (const version of STANDIN_VERSIONS) {
			const standin = createEvolutionStandin({ apiKey: KEY, instances: ['loja'], version })
			const call = (method: string, path: string, body?: unknown) =>
				standin.handle(
					new Request(`http://evo${path}`, {
						method,
						headers: { apikey: KEY, 'content-type': 'application/json' },
						body: body ? JSON.stringify(body) : undefined
					})
				)
			expect(((await (await call('GET', '/')).json()) as { version: string }).version).toBe(version)
			const flatBody = version === '1.8.6' ? v1 : flat
			expect([version, (await call('POST', '/webhook/set/loja', nested)).status]).toEqual([version, expected[version].nested])
			expect([version, (await call('POST', '/webhook/set/loja', flatBody)).status]).toEqual([version, expected[version].flat])
			if (expected[version].nested === 201) await call('POST', '/webhook/set/loja', nested)
			expect([version, Object.keys(standin.instances.get('loja')!.webhook!.headers).length > 0]).toEqual([
				version,
				expected[version].headers
			])
		}
	})
})

describe('the real samples (shared/reference/samples/evolution)', () => {
	const dir = `${import.meta.dir}/../../../shared/reference/samples/evolution`
	const sample = (name: string) => Bun.file(`${dir}/${name}`).json()
	const answering = (status: number, body: unknown) =>
		createEvolutionClient({
			baseUrl: 'http://evo',
			apiKey: KEY,
			instance: 'teste-docs',
			fetch: async (url) =>
				url === 'http://evo/'
					? Response.json({ status: 200, message: 'Welcome', version: '2.1.1' })
					: new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
		})

	it('every Evolution sample is read by the client’s parsers, and the stand-in answers in the same shape', async () => {
		const names = (await Array.fromAsync(new Bun.Glob('*.json').scan(dir))).sort()
		expect(names).toEqual([
			'connectionState.200.v2.official-openapi.json',
			'connectionState.404.v2.official-openapi.json',
			'sendText.201.v1.official-openapi.json',
			'sendText.201.v2.official-openapi.json',
			'whatsappNumbers.200.v2.official-openapi.json'
		])
		expect(await answering(200, await sample(names[0])).connectionState()).toEqual({ state: 'open' })
		const notFound = await answering(404, await sample(names[1]))
			.connectionState()
			.catch((e) => e)
		expect(notFound).toMatchObject({ code: 'instance_not_found', upstreamStatus: 404 })
		for (const name of [names[2], names[3]])
			expect(await answering(201, await sample(name)).sendText('553198296801', 'Olá!')).toEqual({
				messageId: 'BAE594145F4C59B4',
				remoteJid: '553198296801@s.whatsapp.net'
			})
		// whatsappNumbers' items are what Evolution puts in a 400 for a number without WhatsApp.
		const [number] = (await sample(names[4])) as { exists: boolean; jid: string; number: string }[]
		const refusal = await answering(400, { status: 400, error: 'Bad Request', response: { message: [{ ...number, exists: false }] } })
			.sendText(number.number, 'Olá!')
			.catch((e) => e)
		expect(refusal).toMatchObject({ code: 'not_on_whatsapp', message: 'O número 553198296801 não tem WhatsApp.' })

		// The stand-in: the same keys, nulls present where the samples have them.
		const keysOf = (v: unknown): unknown =>
			v && typeof v === 'object' && !Array.isArray(v)
				? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'message' ? typeof x : keysOf(x)]))
				: typeof v
		const v1 = startEvolutionStandin({ apiKey: KEY, instances: ['teste-docs'], version: '1.8.6' })
		stops.push(v1.stop)
		const h = { apikey: KEY }
		expect(keysOf(await (await fetch(`${v1.url}/instance/connectionState/teste-docs`, { headers: h })).json())).toEqual(
			keysOf(await sample(names[0]))
		)
		expect(await (await fetch(`${v1.url}/instance/connectionState/invalid-instance`, { headers: h })).json()).toEqual(
			await sample(names[1])
		)
		const sentV1 = await post(`${v1.url}/message/sendText/teste-docs`, { number: '553198296801', textMessage: { text: 'Olá!' } })
		expect(keysOf(await sentV1.json())).toEqual(keysOf(await sample(names[2])))
	})
})
