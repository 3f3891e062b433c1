/**
 * A local Evolution API (v2.3.6 or v1.8.6 bodies), in memory: sends are validated and recorded, webhooks are
 * delivered with the configured headers, and a chat page lets a person write as a client's phone.
 * `bun modules/evolution/standin.ts [--port 3302] [--key …] [--instance …] [--version 1.8.6]`.
 */
import { serveStandin } from '../core/server'
import type { FetchLike } from './client'
import { type ConnectionState, normaliseBrazilianPhone, phoneKey } from './webhook'

export interface EvolutionStandinOptions {
	apiKey: string
	/** Default ['k-licencas']. */
	instances?: string[]
	version?: '2.3.6' | '1.8.6'
	/** Used to deliver webhooks (a test can route them to an in-process app.handle). */
	fetch?: FetchLike
	/** Also deliver our own sends as messages.upsert with fromMe (Evolution issue #1340). */
	echoOwnSendsAsUpsert?: boolean
	/** Numbers that "have no WhatsApp": sends to them fail like Evolution's check does. */
	numbersWithoutWhatsapp?: string[]
	/** The instance's own number (the webhook `sender`). */
	ownerPhone?: string
	/** The `server_url` of deliveries. */
	serverUrl?: string
}

export interface SentRecord {
	id: string
	instance: string
	/** As the portal sent it. */
	number: string
	remoteJid: string
	type: 'text' | 'document'
	text: string | null
	fileName: string | null
	caption: string | null
	mimetype: string | null
	/** Bytes of a base64 document. */
	size: number | null
	/** The typing delay asked for (ms), recorded, not waited. */
	delay: number | null
	/** Order across sent and inbound messages (two can share a millisecond). */
	seq: number
	at: string
}

export interface InboundRecord {
	id: string
	instance: string
	from: string
	text: string
	fromMe: boolean
	seq: number
	at: string
}

export interface WebhookDelivery {
	event: string
	url: string
	status: number | null
	error: string | null
	at: string
}

interface Webhook {
	enabled: boolean
	url: string
	headers: Record<string, string>
	events: string[]
	/** Stored and read back; deliveries always go to `url` (the portal never asks for per-event URLs). */
	byEvents: boolean
	base64: boolean
}

interface Instance {
	name: string
	token: string
	state: ConnectionState
	webhook: Webhook | null
}

const STATES: ConnectionState[] = ['open', 'close', 'connecting', 'refused']
const MEDIA_TYPES_V2 = ['image', 'document', 'video', 'audio']
const MEDIA_TYPES_V1 = [...MEDIA_TYPES_V2, 'sticker']
const NUMBER = /^\d+[.@\w-]+/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

const record = (v: unknown): Record<string, unknown> | null =>
	typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const json = (data: unknown, status = 200) =>
	new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } })
/** Evolution's error body. */
const failure = (status: number, error: string, message: unknown) => json({ status, error, response: { message } }, status)
const badRequest = (...message: unknown[]) => failure(400, 'Bad Request', message)
const hex = (n: number) =>
	Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** A phone as a person types it on the chat page (85 99999-0001) → 5585999990001. */
const digitsOf = (phone: string) => normaliseBrazilianPhone(phone) ?? phone.replace(/\D/g, '')

export type InboundContent = 'text' | 'reaction' | 'sticker' | 'audio' | 'location' | 'contact' | 'document'

/** Bytes as Evolution serialises a Buffer into JSON: `{"0":255,"1":216,…}`. */
export function serialisedBytes(n: number): Record<string, number> {
	const bytes = crypto.getRandomValues(new Uint8Array(n))
	const out: Record<string, number> = {}
	for (let i = 0; i < n; i++) out[i] = bytes[i]
	return out
}

/** `message` and `messageType` of a v2 messages.upsert as Baileys builds them, binary fields included. */
export function inboundMessage(
	content: InboundContent,
	text: string,
	options: { jid: string; reactTo?: string; thumbnailBytes?: number }
): { message: Record<string, unknown>; messageType: string } {
	const media = (mimetype: string) => ({
		url: `https://mmg.whatsapp.net/v/t62.7119-24/${hex(12)}.enc`,
		mimetype,
		fileSha256: serialisedBytes(32),
		fileLength: String(10_000 + Math.floor(Math.random() * 90_000)),
		mediaKey: serialisedBytes(32),
		fileEncSha256: serialisedBytes(32),
		directPath: `/v/t62.7119-24/${hex(12)}.enc`,
		mediaKeyTimestamp: String(Math.floor(Date.now() / 1000))
	})
	const context = { messageContextInfo: { deviceListMetadata: { senderKeyHash: serialisedBytes(10) }, messageSecret: serialisedBytes(32) } }
	switch (content) {
		case 'reaction':
			return {
				message: {
					reactionMessage: {
						key: { remoteJid: options.jid, fromMe: true, id: options.reactTo ?? hex(10) },
						text: text || '👍',
						senderTimestampMs: String(Date.now())
					}
				},
				messageType: 'reactionMessage'
			}
		case 'sticker':
			return {
				message: { stickerMessage: { ...media('image/webp'), height: 512, width: 512, isAnimated: false }, ...context },
				messageType: 'stickerMessage'
			}
		case 'audio':
			return {
				message: { audioMessage: { ...media('audio/ogg; codecs=opus'), seconds: 4, ptt: true, waveform: serialisedBytes(64) }, ...context },
				messageType: 'audioMessage'
			}
		case 'location':
			return {
				message: {
					locationMessage: { degreesLatitude: -3.7319, degreesLongitude: -38.5267, jpegThumbnail: serialisedBytes(3_000) },
					...context
				},
				messageType: 'locationMessage'
			}
		case 'contact':
			return {
				message: {
					contactMessage: {
						displayName: 'Fulano',
						vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Fulano\nTEL;type=CELL:+55 85 99999-1234\nEND:VCARD'
					},
					...context
				},
				messageType: 'contactMessage'
			}
		case 'document': {
			const documentMessage = {
				...media('application/pdf'),
				title: 'comprovante',
				pageCount: 1,
				fileName: 'comprovante.pdf',
				jpegThumbnail: serialisedBytes(options.thumbnailBytes ?? 40_000),
				...(text ? { caption: text } : {})
			}
			return text
				? {
						message: { documentWithCaptionMessage: { message: { documentMessage } }, ...context },
						messageType: 'documentWithCaptionMessage'
					}
				: { message: { documentMessage, ...context }, messageType: 'documentMessage' }
		}
		default:
			return { message: { conversation: text }, messageType: 'conversation' }
	}
}

/**
 * Evolution's createJid: digits + @s.whatsapp.net, dropping a Brazilian mobile's ninth digit when the DDD is 31 or
 * more and the digit after the 9 is 7 or more (WhatsApp's JID for those numbers never had it).
 */
export function createJid(number: string): string {
	if (number.includes('@')) return number
	const d = number.replace(/\D/g, '')
	const m = /^(55)(\d{2})9(\d{8})$/.exec(d)
	const drop = m && Number(m[2]) >= 31 && Number(m[3][0]) >= 7
	return `${drop ? m[1] + m[2] + m[3] : d}@s.whatsapp.net`
}

/** The stand-in without a socket: `handle` answers a Request like the server does. */
export function createEvolutionStandin(options: EvolutionStandinOptions) {
	const version = options.version ?? '2.3.6'
	const v1 = version.startsWith('1.')
	const deliver: FetchLike = options.fetch ?? fetch
	const ownerJid = createJid(options.ownerPhone ?? '5585900000000')
	const instances = new Map<string, Instance>(
		(options.instances ?? ['k-licencas']).map((name) => [
			name,
			{ name, token: crypto.randomUUID().toUpperCase(), state: 'open', webhook: null }
		])
	)
	const withoutWhatsapp = new Set((options.numbersWithoutWhatsapp ?? []).map(phoneKey))
	const sent: SentRecord[] = []
	const media = new Map<string, { bytes: Uint8Array<ArrayBuffer>; mimetype: string; fileName: string }>()
	const inbound: InboundRecord[] = []
	const deliveries: WebhookDelivery[] = []
	let queue: Promise<unknown> = Promise.resolve()
	let delayMs = 0
	let seq = 0
	const standin = { serverUrl: options.serverUrl ?? 'http://evolution.local' }

	const firstInstance = () => [...instances.values()][0]
	const subscribed = (i: Instance, event: string) =>
		!!i.webhook?.enabled && (i.webhook.events.length === 0 || i.webhook.events.includes(event.toUpperCase().replace(/\./g, '_')))

	/** One FIFO for every delivery, so events reach the portal in the order they happened. */
	function post(i: Instance, event: string, data: unknown): Promise<WebhookDelivery | null> {
		if (!subscribed(i, event) || !i.webhook) return Promise.resolve(null)
		const hook = i.webhook
		const url = hook.url
		const envelope = {
			event,
			instance: i.name,
			data,
			destination: url,
			date_time: new Date().toISOString(),
			sender: ownerJid,
			server_url: standin.serverUrl,
			apikey: i.token
		}
		const done = queue.then(async () => {
			const delivery: WebhookDelivery = { event, url, status: null, error: null, at: new Date().toISOString() }
			try {
				const res = await deliver(url, {
					method: 'POST',
					headers: { ...hook.headers, 'content-type': 'application/json' },
					body: JSON.stringify(envelope),
					signal: AbortSignal.timeout(30_000)
				})
				delivery.status = res.status
				await res.arrayBuffer().catch(() => undefined)
			} catch (e) {
				delivery.error = String((e as Error)?.message ?? e)
			}
			deliveries.push(delivery)
			return delivery
		})
		queue = done
		return done
	}

	// ── API ──

	function validateSend(kind: 'text' | 'media', body: Record<string, unknown>): Response | null {
		const required = (props: string[], obj: Record<string, unknown> | null, at = 'instance') =>
			props.filter((p) => obj?.[p] === undefined).map((p) => `${at} requires property "${p}"`)
		if (v1) {
			const inner = record(body[kind === 'text' ? 'textMessage' : 'mediaMessage'])
			const missing = [...required([kind === 'text' ? 'textMessage' : 'mediaMessage', 'number'], body)]
			if (inner) missing.push(...required(kind === 'text' ? ['text'] : ['mediatype', 'media'], inner, `instance.${kind}Message`))
			if (missing.length) return badRequest(...missing)
			if (kind === 'media' && !MEDIA_TYPES_V1.includes(String(inner?.mediatype)))
				return badRequest('instance.mediaMessage.mediatype is not one of enum values')
		} else {
			const missing = required(kind === 'text' ? ['number', 'text'] : ['number', 'mediatype', 'media'], body)
			if (missing.length) return badRequest(...missing)
			if (kind === 'media' && !MEDIA_TYPES_V2.includes(String(body.mediatype)))
				return badRequest('instance.mediatype is not one of enum values')
		}
		if (typeof body.number !== 'string' || !NUMBER.test(body.number)) return badRequest('Invalid format')
		const text = v1 ? record(body.textMessage)?.text : body.text
		if (kind === 'text' && (typeof text !== 'string' || text === ''))
			return badRequest(`instance.${v1 ? 'textMessage.' : ''}text cannot be empty`)
		if (kind === 'media') {
			const m = (v1 ? record(body.mediaMessage) : body) ?? {}
			const isBase64 = typeof m.media === 'string' && m.media.length % 4 === 0 && BASE64.test(m.media)
			if (!isBase64 && !(typeof m.media === 'string' && /^https?:\/\//.test(m.media)))
				return badRequest('Owned media must be a url or base64')
			if (isBase64 && m.mediatype === 'document' && !m.fileName) return badRequest('For base64 the file name must be informed.')
		}
		return null
	}

	function send(i: Instance, kind: 'text' | 'media', body: Record<string, unknown>): Response {
		const invalid = validateSend(kind, body)
		if (invalid) return invalid
		const number = body.number as string
		const remoteJid = createJid(number)
		if (withoutWhatsapp.has(phoneKey(number))) return badRequest({ exists: false, jid: remoteJid, number })
		if (i.state !== 'open') return badRequest('Connection Closed')
		const id = `3EB0${hex(9)}`
		const timestamp = Math.floor(Date.now() / 1000)
		const m = (kind === 'media' ? (v1 ? record(body.mediaMessage) : body) : null) ?? {}
		const text = kind === 'text' ? String(v1 ? record(body.textMessage)?.text : body.text) : null
		const str = (v: unknown) => (typeof v === 'string' ? v : null)
		const bytes =
			kind === 'media' && typeof m.media === 'string' && BASE64.test(m.media) ? new Uint8Array(Buffer.from(m.media, 'base64')) : null
		const entry: SentRecord = {
			id,
			instance: i.name,
			number,
			remoteJid,
			type: kind === 'text' ? 'text' : 'document',
			text,
			fileName: str(m.fileName),
			caption: str(m.caption),
			mimetype: str(m.mimetype) ?? (kind === 'media' ? 'application/pdf' : null),
			size: bytes?.length ?? null,
			delay:
				typeof (v1 ? record(body.options)?.delay : body.delay) === 'number' ? Number(v1 ? record(body.options)?.delay : body.delay) : null,
			seq: ++seq,
			at: new Date().toISOString()
		}
		sent.push(entry)
		if (bytes) media.set(id, { bytes, mimetype: entry.mimetype ?? 'application/octet-stream', fileName: entry.fileName ?? 'arquivo' })
		const message =
			kind === 'text'
				? v1
					? { extendedTextMessage: { text } }
					: { conversation: text }
				: {
						documentMessage: {
							fileName: entry.fileName,
							caption: entry.caption,
							mimetype: entry.mimetype,
							fileLength: entry.size
						}
					}
		const messageType = kind === 'text' ? (v1 ? 'extendedTextMessage' : 'conversation') : 'documentMessage'
		const key = { remoteJid, fromMe: true, id }
		const raw = v1
			? { key, message, messageTimestamp: String(timestamp), status: 'PENDING' }
			: {
					key,
					pushName: 'Você',
					status: 'PENDING',
					message,
					contextInfo: null,
					messageType,
					messageTimestamp: timestamp,
					instanceId: i.token,
					source: 'unknown'
				}
		void post(i, 'send.message', raw)
		if (options.echoOwnSendsAsUpsert) void post(i, 'messages.upsert', raw)
		return json(raw, 201)
	}

	function setWebhook(i: Instance, body: Record<string, unknown>): Response {
		const w = v1 ? body : record(body.webhook)
		if (!w) return badRequest('instance requires property "webhook"')
		if (typeof w.enabled !== 'boolean') return badRequest(`instance${v1 ? '' : '.webhook'} requires property "enabled"`)
		if (typeof w.url !== 'string' || !/^https?:\/\/\S+$/.test(w.url)) return badRequest('Invalid "url" property')
		const events = w.events ?? []
		if (!Array.isArray(events) || !events.every((e) => typeof e === 'string' && /^[A-Z_]+$/.test(e))) {
			return badRequest(`instance${v1 ? '' : '.webhook'}.events is not one of enum values`)
		}
		const headers = v1 ? {} : (record(w.headers) ?? {})
		i.webhook = {
			enabled: w.enabled,
			url: w.url,
			headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
			events: events as string[],
			byEvents: (v1 ? w.webhook_by_events : w.byEvents) === true,
			base64: (v1 ? w.webhook_base64 : w.base64) === true
		}
		return json(v1 ? { webhook: { instanceName: i.name, webhook: findWebhook(i) } } : findWebhook(i), 201)
	}

	function findWebhook(i: Instance) {
		const w = i.webhook
		if (v1)
			return {
				enabled: w?.enabled ?? false,
				url: w?.url ?? '',
				events: w?.events ?? [],
				webhook_by_events: w?.byEvents ?? false,
				webhook_base64: w?.base64 ?? false
			}
		if (!w) return null
		return {
			id: i.token,
			url: w.url,
			headers: w.headers,
			enabled: w.enabled,
			events: w.events,
			webhookByEvents: w.byEvents,
			webhookBase64: w.base64,
			instanceId: i.token
		}
	}

	async function api(req: Request, path: string): Promise<Response> {
		if (req.headers.get('apikey') !== options.apiKey) return failure(401, 'Unauthorized', 'Unauthorized')
		const m = /^\/(message\/sendText|message\/sendMedia|instance\/connectionState|webhook\/set|webhook\/find)\/([^/]+)$/.exec(path)
		if (!m) return failure(404, 'Not Found', [`Cannot ${req.method} ${path}`])
		const name = decodeURIComponent(m[2])
		const i = instances.get(name)
		if (!i) return failure(404, 'Not Found', [`The "${name}" instance does not exist`])
		const route = `${req.method} ${m[1]}`
		if (route === 'GET instance/connectionState') return json({ instance: { instanceName: i.name, state: i.state } })
		if (route === 'GET webhook/find') return json(findWebhook(i))
		let body: Record<string, unknown> | null = null
		try {
			body = record(await req.json())
		} catch {}
		if (!body) return badRequest('The request body must be a JSON object')
		if (route === 'POST message/sendText') return send(i, 'text', body)
		if (route === 'POST message/sendMedia') return send(i, 'media', body)
		if (route === 'POST webhook/set') return setWebhook(i, body)
		return failure(404, 'Not Found', [`Cannot ${req.method} ${path}`])
	}

	// ── Controls, the chat page ──

	/** A message from a client's phone (or typed on the linked phone, fromMe) delivered as messages.upsert. */
	function deliverInbound(input: {
		from: string
		text: string
		fromMe?: boolean
		lid?: boolean
		v1?: boolean
		pushName?: string
		instance?: string
		/** Reuse a message id: Evolution redelivering the same message. */
		id?: string
		/** What the phone sends instead of text (the text is then a caption, for a document, or ignored). */
		content?: InboundContent
		/** A reaction's target message id. */
		reactTo?: string
		/** A document's jpegThumbnail size in bytes (default 40,000: about 450 KB of JSON). */
		thumbnailBytes?: number
	}) {
		const i = (input.instance ? instances.get(input.instance) : firstInstance()) ?? firstInstance()
		const id = input.id ?? hex(16)
		const from = digitsOf(input.from)
		const phoneJid = createJid(from)
		const fromMe = input.fromMe === true
		const timestamp = Math.floor(Date.now() / 1000)
		const pushName = input.pushName ?? (fromMe ? 'Você' : 'Cliente')
		inbound.push({ id, instance: i.name, from, text: input.text, fromMe, seq: ++seq, at: new Date().toISOString() })
		const data =
			(input.v1 ?? v1)
				? {
						key: { remoteJid: phoneJid, fromMe, id },
						pushName,
						message: { extendedTextMessage: { text: input.text } },
						messageType: 'extendedTextMessage',
						messageTimestamp: timestamp,
						owner: i.name,
						source: 'android'
					}
				: {
						key: input.lid
							? {
									remoteJid: `${String(Date.now()).slice(-10)}${Math.floor(Math.random() * 1e5)}@lid`,
									fromMe,
									id,
									participant: null,
									addressingMode: 'lid',
									remoteJidAlt: phoneJid
								}
							: { remoteJid: phoneJid, fromMe, id, participant: null, addressingMode: 'pn' },
						pushName,
						status: 'DELIVERY_ACK',
						...inboundMessage(input.content ?? 'text', input.text, {
							jid: phoneJid,
							reactTo: input.reactTo,
							thumbnailBytes: input.thumbnailBytes
						}),
						contextInfo: null,
						messageTimestamp: timestamp,
						instanceId: i.token,
						source: 'android'
					}
		return post(i, 'messages.upsert', data).then((delivery) => ({ id, delivery }))
	}

	function setConnectionState(state: ConnectionState, name?: string) {
		const i = (name ? instances.get(name) : firstInstance()) ?? firstInstance()
		i.state = state
		const open = state === 'open' ? { wuid: ownerJid, profileName: 'K-Licenças' } : {}
		return post(i, 'connection.update', { instance: i.name, state, statusReason: state === 'open' ? 200 : 428, ...open })
	}

	function conversation(phone: string) {
		const key = phoneKey(digitsOf(phone))
		const out = sent
			.filter((s) => phoneKey(digitsOf(s.number)) === key)
			.map((s) => ({
				direction: 'out',
				id: s.id,
				text: s.text ?? s.caption ?? '',
				fileName: s.fileName,
				size: s.size,
				seq: s.seq,
				at: s.at
			}))
		const into = inbound
			.filter((m) => phoneKey(m.from) === key)
			.map((m) => ({ direction: m.fromMe ? 'out' : 'in', id: m.id, text: m.text, fileName: null, size: null, seq: m.seq, at: m.at }))
		return [...out, ...into].sort((a, b) => a.seq - b.seq)
	}

	async function controls(req: Request, url: URL): Promise<Response> {
		const path = url.pathname.slice('/__standin'.length)
		const file = /^\/sent\/([^/]+)\/media$/.exec(path)
		if (req.method === 'GET' && file) {
			const m = media.get(file[1])
			return m
				? new Response(m.bytes, {
						headers: { 'content-type': m.mimetype, 'content-disposition': `inline; filename="${m.fileName.replace(/"/g, '')}"` }
					})
				: new Response(null, { status: 404 })
		}
		if (req.method === 'GET' && path === '/sent') {
			const number = url.searchParams.get('number')
			return json(number ? sent.filter((s) => phoneKey(digitsOf(s.number)) === phoneKey(digitsOf(number))) : sent)
		}
		if (req.method === 'GET' && path === '/deliveries') return json(deliveries)
		if (req.method === 'GET' && path === '/chat') {
			const phones = [...new Set([...sent.map((s) => s.number.replace(/\D/g, '')), ...inbound.map((m) => m.from)].filter(Boolean))]
			const phone = url.searchParams.get('phone') ?? ''
			return json({ state: firstInstance().state, phones, messages: phone ? conversation(phone) : [] })
		}
		const body = record(await req.json().catch(() => null)) ?? {}
		if (req.method === 'POST' && path === '/inbound') {
			if (typeof body.from !== 'string' || typeof body.text !== 'string' || !/\d{8,}/.test(body.from.replace(/\D/g, ''))) {
				return json({ message: 'Informe o telefone (from) e o texto (text).' }, 400)
			}
			return json(await deliverInbound(body as Parameters<typeof deliverInbound>[0]))
		}
		if (req.method === 'POST' && path === '/state') {
			if (!STATES.includes(body.state as ConnectionState)) return json({ message: 'Estado inválido: use open, close ou connecting.' }, 400)
			return json({
				delivery: await setConnectionState(body.state as ConnectionState, typeof body.instance === 'string' ? body.instance : undefined)
			})
		}
		return new Response(null, { status: 404 })
	}

	function chatPage(): Response {
		const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>WhatsApp local (simulador)</title><style>
body{font:15px system-ui,sans-serif;margin:0;background:#efeae2;color:#111}header{background:#075e54;color:#fff;padding:.8rem 1rem}
main{max-width:44rem;margin:0 auto;padding:1rem}form{display:flex;gap:.5rem;flex-wrap:wrap;margin-bottom:.8rem}input,textarea{font:inherit;padding:.45rem;border:1px solid #ccc;border-radius:.4rem}
textarea{flex:1 1 100%;min-height:3rem}button{background:#128c7e;color:#fff;border:0;border-radius:.4rem;padding:.5rem 1rem;cursor:pointer}
#log{display:flex;flex-direction:column;gap:.4rem}.in,.out{max-width:80%;padding:.45rem .7rem;border-radius:.5rem;white-space:pre-wrap;box-shadow:0 1px 1px #0002}
.in{background:#fff;align-self:flex-start}.out{background:#d9fdd3;align-self:flex-end}.muted{color:#555;font-size:.85rem}</style></head><body>
<header><strong>WhatsApp local (simulador)</strong> · instância ${escapeHtml(firstInstance().name)} · <span id="state"></span></header><main>
<p class="muted">Escreva como se fosse o celular de um cliente: a mensagem chega ao portal pelo webhook. À direita, o que o portal enviou para esse número.</p>
<form id="f"><input id="phone" placeholder="Telefone do cliente (ex.: 5585999990001)" list="phones" required><datalist id="phones"></datalist>
<input id="name" placeholder="Nome (opcional)"><textarea id="text" placeholder="Mensagem" required></textarea><button>Enviar como cliente</button></form>
<div id="log"></div></main><script>
const $ = (id) => document.getElementById(id)
$('phone').value = new URLSearchParams(location.search).get('phone') || localStorage.getItem('phone') || ''
async function refresh() {
	const phone = $('phone').value.replace(/\\D/g, '')
	const r = await fetch('/__standin/chat?phone=' + phone).then((x) => x.json())
	$('state').textContent = r.state === 'open' ? 'conectado' : 'desconectado (' + r.state + ')'
	$('phones').innerHTML = r.phones.map((p) => '<option value="' + p + '">').join('')
	$('log').replaceChildren(...r.messages.map((m) => {
		const div = document.createElement('div')
		div.className = m.direction
		div.textContent = m.text
		if (m.fileName) {
			const a = document.createElement('a')
			a.href = '/__standin/sent/' + m.id + '/media'
			a.target = '_blank'
			a.textContent = 'Documento: ' + m.fileName + (m.size ? ' (' + Math.ceil(m.size / 1024) + ' kB)' : '')
			div.prepend(a, document.createElement('br'))
		}
		const when = document.createElement('div')
		when.className = 'muted'
		when.textContent = new Date(m.at).toLocaleTimeString('pt-BR')
		div.append(when)
		return div
	}))
}
$('f').onsubmit = async (e) => {
	e.preventDefault()
	localStorage.setItem('phone', $('phone').value)
	await fetch('/__standin/inbound', { method: 'POST', headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ from: $('phone').value, text: $('text').value, pushName: $('name').value || undefined }) })
	$('text').value = ''
	refresh()
}
refresh()
setInterval(refresh, 1500)
</script></body></html>`
		return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
	}

	async function handle(req: Request): Promise<Response> {
		const url = new URL(req.url)
		if (url.pathname.startsWith('/__standin/')) return controls(req, url)
		if (url.pathname === '/' && req.method === 'GET') {
			if (req.headers.get('accept')?.includes('text/html')) return chatPage()
			const links = { manager: `${url.origin}/manager`, documentation: 'https://doc.evolution-api.com' }
			return json(
				v1
					? {
							status: 200,
							message: 'Welcome to the Evolution API, it is working!',
							version,
							swagger: `${url.origin}/docs`,
							...links
						}
					: {
							status: 200,
							message: 'Welcome to the Evolution API, it is working!',
							version,
							clientName: 'evolution_standin',
							...links,
							whatsappWebVersion: '2.3000.1023204200'
						}
			)
		}
		const res = await api(req, url.pathname)
		if (delayMs > 0) {
			// Applied already: the answer is what comes late.
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(resolve, delayMs)
				const abort = () => {
					clearTimeout(timer)
					reject(req.signal.reason)
				}
				req.signal.addEventListener('abort', abort, { once: true })
			})
		}
		return res
	}

	return Object.assign(standin, {
		handle,
		version,
		instances,
		/** Every message the portal sent, oldest first. */
		sent,
		/** Every message written as a client's phone. */
		inbound,
		deliveries,
		/** Numbers (any spelling) whose sends fail with exists: false. */
		withoutWhatsapp: {
			add: (number: string) => withoutWhatsapp.add(phoneKey(number)),
			delete: (number: string) => withoutWhatsapp.delete(phoneKey(number))
		},
		deliverInbound,
		setConnectionState,
		/** Every API answer (the change already applied) waits this long (0 = none), to make a client time out. */
		delayResponses(ms: number) {
			delayMs = ms
		},
		/** Also deliver the portal's own sends as messages.upsert with fromMe (Evolution issue #1340), from now on. */
		echoOwnSends(on: boolean) {
			options.echoOwnSendsAsUpsert = on
		},
		/** Resolves once every delivery queued so far has finished. */
		settled: () => queue.then(() => undefined)
	})
}

export type EvolutionStandin = ReturnType<typeof createEvolutionStandin>

export function startEvolutionStandin(options: EvolutionStandinOptions & { port?: number; hostname?: string }) {
	const standin = createEvolutionStandin(options)
	const server = serveStandin(standin.handle, options)
	standin.serverUrl = server.url.origin
	return Object.assign(standin, {
		url: server.url.origin,
		stop: () => server.stop(true)
	})
}

if (import.meta.main) {
	const arg = (name: string) => {
		const i = process.argv.indexOf(`--${name}`)
		return i > 0 ? process.argv[i + 1] : undefined
	}
	const apiKey = arg('key') ?? 'evolution-local'
	const instance = arg('instance') ?? 'k-licencas'
	const standin = startEvolutionStandin({
		port: Number(arg('port') ?? 3302),
		hostname: arg('host'),
		apiKey,
		instances: [instance],
		version: arg('version') === '1.8.6' ? '1.8.6' : '2.3.6'
	})
	console.log(`Evolution local ${standin.version}: ${standin.url} · apikey ${apiKey} · instância ${instance} · conversa em ${standin.url}/`)
}
