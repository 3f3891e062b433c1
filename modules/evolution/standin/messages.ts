/**
 * The stand-in's messages: the portal's sends (validated in the version's body, recorded, answered as Evolution
 * answers, echoed back), and what a client's phone sends: text, reactions, stickers, audio, locations, contacts and
 * documents with their binary fields serialised as Evolution serialises them.
 */
import { phoneKey } from '../webhook'
import {
	type Instance,
	type SentRecord,
	type StandinState,
	badRequest,
	createJid,
	digitsOf,
	hex,
	json,
	record,
	serialisedBytes
} from './shared'
import type { createWebhookQueue } from './webhooks'

const MEDIA_TYPES_V2 = ['image', 'document', 'video', 'audio']
const MEDIA_TYPES_V1 = [...MEDIA_TYPES_V2, 'sticker']
const NUMBER = /^\d+[.@\w-]+/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

export type InboundContent = 'text' | 'reaction' | 'sticker' | 'audio' | 'location' | 'contact' | 'document'

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

export function createMessages(state: StandinState, queue: ReturnType<typeof createWebhookQueue>) {
	const { v1, options } = state
	const withoutWhatsapp = new Set((options.numbersWithoutWhatsapp ?? []).map(phoneKey))
	const media = new Map<string, { bytes: Uint8Array<ArrayBuffer>; mimetype: string; fileName: string }>()
	const post = queue.post

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

	async function send(i: Instance, kind: 'text' | 'media', body: Record<string, unknown>): Promise<Response> {
		const invalid = validateSend(kind, body)
		if (invalid) return invalid
		const number = body.number as string
		const remoteJid = createJid(number)
		if (withoutWhatsapp.has(phoneKey(number))) return badRequest({ exists: false, jid: remoteJid, number })
		if (i.state !== 'open') return badRequest('Connection Closed')
		const delay =
			typeof (v1 ? record(body.options)?.delay : body.delay) === 'number' ? Number(v1 ? record(body.options)?.delay : body.delay) : null
		// Evolution shows "typing…" for the delay asked, then sends, and only then answers the request.
		const typing = (delay ?? 0) * (options.typingDelayScale ?? 1)
		if (typing > 0) {
			await Bun.sleep(typing)
			if (i.state !== 'open') return badRequest('Connection Closed')
		}
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
			delay,
			seq: state.nextSeq(),
			at: new Date().toISOString()
		}
		state.sent.push(entry)
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
		// Evolution issue #1340: the send may come back as messages.upsert too (on by default, as reality may).
		if (options.echoOwnSendsAsUpsert !== false) void post(i, 'messages.upsert', raw)
		return json(raw, 201)
	}

	/** A client's message (or one typed on the linked phone, fromMe) delivered as messages.upsert. */
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
		const i = state.instance(input.instance)
		const id = input.id ?? hex(16)
		const from = digitsOf(input.from)
		const phoneJid = createJid(from)
		const fromMe = input.fromMe === true
		const timestamp = Math.floor(Date.now() / 1000)
		const pushName = input.pushName ?? (fromMe ? 'Você' : 'Cliente')
		state.inbound.push({ id, instance: i.name, from, text: input.text, fromMe, seq: state.nextSeq(), at: new Date().toISOString() })
		const data =
			(input.v1 ?? v1)
				? {
						key: { remoteJid: phoneJid, fromMe, id },
						pushName,
						...(input.content && input.content !== 'text'
							? inboundMessage(input.content, input.text, { jid: phoneJid, reactTo: input.reactTo, thumbnailBytes: input.thumbnailBytes })
							: { message: { extendedTextMessage: { text: input.text } }, messageType: 'extendedTextMessage' }),
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

	return { send, deliverInbound, media, withoutWhatsapp }
}
