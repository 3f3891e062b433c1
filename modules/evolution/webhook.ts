/**
 * Inbound Evolution webhook bodies (integrations.md §2.3–2.5), v1 and v2, read as hostile input: odd shapes become
 * `ignored`, nothing throws, and nothing of the body is kept beyond the fields returned (never its `apikey`).
 */

import { whatsappNumber } from '../core'

export type ConnectionState = 'open' | 'close' | 'connecting' | 'refused'

export type EvolutionEvent =
	/**
	 * messages.upsert: from the client (fromMe false) or typed by a person on the linked phone (fromMe true). `text`
	 * is '' for a message without text (a sticker, an audio, a location, a contact, an image without caption).
	 */
	| {
			kind: 'message'
			instance: string
			id: string
			fromMe: boolean
			/** Digits of the chat's phone JID: the client's number, whoever wrote. */
			phone: string
			jid: string
			text: string
			pushName: string | null
			/** Unix seconds, as sent (null when absent or unreadable). */
			timestamp: number | null
	  }
	/** send.message: a message our own API call sent. */
	| { kind: 'sent'; instance: string; id: string; phone: string; jid: string; text: string; timestamp: number | null }
	| { kind: 'connection'; instance: string; state: ConnectionState }
	| { kind: 'ignored'; reason: string }

const MAX_TEXT = 4096
const STATES: ConnectionState[] = ['open', 'close', 'connecting', 'refused']
/** Message types that carry the real message one level down. */
const WRAPPERS = ['ephemeralMessage', 'viewOnceMessage', 'viewOnceMessageV2', 'documentWithCaptionMessage', 'editedMessage']

const record = (v: unknown): Record<string, unknown> | null =>
	typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const string = (v: unknown, max: number): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, max) : null)
const ignored = (reason: string): EvolutionEvent => ({ kind: 'ignored', reason })

/** `5585…@s.whatsapp.net` (a device suffix `:12` is dropped) → its normalised JID and digits. */
function phoneJid(v: unknown): { jid: string; phone: string } | null {
	const m = typeof v === 'string' && v.length <= 64 ? /^(\d{8,15})(?::\d+)?@s\.whatsapp\.net$/.exec(v) : null
	return m ? { jid: `${m[1]}@s.whatsapp.net`, phone: m[1] } : null
}

/** Seconds from a number, a digit string (v1) or a protobuf Long `{low, high}` (raw Baileys). */
function seconds(v: unknown): number | null {
	if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.floor(v) : null
	if (typeof v === 'string') return /^\d{1,12}$/.test(v) ? Number(v) : null
	const long = record(v)
	if (long && typeof long.low === 'number' && typeof long.high === 'number') return (long.low >>> 0) + long.high * 2 ** 32
	return null
}

/**
 * Not a message a person wrote to the bot: a reaction (👍 on a message), a deletion or an edit notice, a poll vote,
 * a pin. These arrive as messages.upsert too and are ignored.
 */
const NOT_A_MESSAGE = [
	'reactionMessage',
	'encReactionMessage',
	'protocolMessage',
	'pollUpdateMessage',
	'keepInChatMessage',
	'pinInChatMessage'
]

function notAMessage(message: unknown, messageType: unknown, depth = 0): string | null {
	const m = record(message)
	if (typeof messageType === 'string' && NOT_A_MESSAGE.includes(messageType)) return messageType
	if (!m) return null
	for (const wrapper of WRAPPERS) {
		const inner = record(record(m[wrapper])?.message)
		if (inner && depth < 3) return notAMessage(inner, null, depth + 1)
	}
	return NOT_A_MESSAGE.find((k) => k in m) ?? null
}

function messageText(message: unknown, depth = 0): string {
	const m = record(message)
	if (!m) return ''
	for (const wrapper of WRAPPERS) {
		const inner = record(record(m[wrapper])?.message)
		if (inner && depth < 3) return messageText(inner, depth + 1)
	}
	const text =
		string(m.conversation, MAX_TEXT) ??
		string(record(m.extendedTextMessage)?.text, MAX_TEXT) ??
		string(record(m.imageMessage)?.caption, MAX_TEXT) ??
		string(record(m.videoMessage)?.caption, MAX_TEXT) ??
		string(record(m.documentMessage)?.caption, MAX_TEXT)
	return text ?? ''
}

/** Reads one webhook body of Evolution v1 or v2. */
export function parseEvolutionEvent(body: unknown): EvolutionEvent {
	const b = record(body)
	if (!b) return ignored('not-an-object')
	const raw = string(b.event, 64)
	if (!raw) return ignored('no-event')
	// The config names events MESSAGES_UPSERT; deliveries call them messages.upsert.
	const event = raw.toLowerCase().replace(/_/g, '.')
	const instance = string(b.instance, 128) ?? ''
	const data = record(b.data)
	if (event === 'connection.update') {
		const state = data?.state
		return STATES.includes(state as ConnectionState)
			? { kind: 'connection', instance, state: state as ConnectionState }
			: ignored('unknown-state')
	}
	if (event !== 'messages.upsert' && event !== 'send.message') return ignored(`event:${event}`)
	const key = record(data?.key)
	const id = string(key?.id, 128)
	if (!key || !id) return ignored('no-message-id')
	const remoteJid = string(key.remoteJid, 128) ?? ''
	if (remoteJid.endsWith('@g.us')) return ignored('group')
	if (remoteJid === 'status@broadcast') return ignored('status-broadcast')
	const lid = remoteJid.endsWith('@lid')
	const who = lid ? phoneJid(key.remoteJidAlt) : phoneJid(remoteJid)
	if (!who) return ignored(lid ? 'lid-without-phone' : 'not-a-phone')
	const other = notAMessage(data?.message, data?.messageType)
	if (other) return ignored(`not-a-message:${other}`)
	const text = messageText(data?.message)
	const timestamp = seconds(data?.messageTimestamp)
	if (event === 'send.message') return { kind: 'sent', instance, id, ...who, text, timestamp }
	return { kind: 'message', instance, id, fromMe: key.fromMe === true, ...who, text, pushName: string(data?.pushName, 100), timestamp }
}

/**
 * The key two spellings of one phone share: for a Brazilian number `55` + DDD + its last 8 digits, since WhatsApp
 * often drops the ninth digit of a mobile (5585999990001 and 558599990001 are one phone). Other numbers: digits.
 */
export function phoneKey(input: string): string {
	const d = input.replace(/\D/g, '')
	return /^55\d{10,11}$/.test(d) ? d.slice(0, 4) + d.slice(-8) : d
}

export function samePhone(a: string, b: string): boolean {
	const key = phoneKey(a)
	return key !== '' && key === phoneKey(b)
}

/** A Brazilian phone as typed → 55 + DDD + number, or null: core's one reading of a WhatsApp number. */
export const normaliseBrazilianPhone = whatsappNumber

/** Keys of binary fields Evolution serialises as `{"0":255,"1":216,…}` (about 11 bytes of JSON per byte). */
const BINARY_KEYS = new Set([
	'jpegThumbnail',
	'thumbnail',
	'pngThumbnail',
	'mediaKey',
	'fileSha256',
	'fileEncSha256',
	'thumbnailSha256',
	'thumbnailEncSha256',
	'streamingSidecar',
	'waveform',
	'midQualityFileSha256',
	'midQualityFileEncSha256',
	'messageSecret',
	'base64'
])

/** A Buffer or Uint8Array as JSON: `{"0":…,"1":…}` with digit keys only, or `{type:'Buffer', data:[…]}`. */
function isSerialisedBytes(v: Record<string, unknown>): boolean {
	if (v.type === 'Buffer' && Array.isArray(v.data)) return true
	let n = 0
	for (const k in v) {
		if (!/^\d+$/.test(k) || typeof v[k] !== 'number') return false
		if (++n >= 64) break
	}
	return n > 0
}

/**
 * The body without what the portal never reads: binary fields (thumbnails, media keys, hashes) are dropped, so a
 * document with a thumbnail weighs what its text does. The size of what is left is what the webhook judges.
 */
export function withoutBinaryFields(value: unknown, depth = 0): unknown {
	if (depth > 40 || value === null || typeof value !== 'object') return value
	if (Array.isArray(value)) {
		return value
			.filter((v) => !(record(v) && isSerialisedBytes(v as Record<string, unknown>)))
			.map((v) => withoutBinaryFields(v, depth + 1))
	}
	const out: Record<string, unknown> = {}
	for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
		if (BINARY_KEYS.has(k)) continue
		const inner = record(v)
		if (inner && isSerialisedBytes(inner)) continue
		out[k] = withoutBinaryFields(v, depth + 1)
	}
	return out
}
