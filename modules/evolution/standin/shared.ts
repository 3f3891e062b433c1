/** What every part of the Evolution stand-in shares: its options, records, the instance, and Evolution's answer shapes. */
import type { FetchLike } from '../client'
import { type ConnectionState, normaliseBrazilianPhone } from '../webhook'

/** The versions the stand-in plays; each takes only the webhook body that version takes. */
export const STANDIN_VERSIONS = ['2.3.6', '2.1.1', '2.1.0', '2.0.10', '1.8.6'] as const
export type StandinVersion = (typeof STANDIN_VERSIONS)[number]

export interface EvolutionStandinOptions {
	apiKey: string
	/** Default ['k-licencas']. */
	instances?: string[]
	/** Default 2.3.6. 2.1.0 drops webhook headers; 2.0.10 takes only the flat webhook body; 1.8.6 speaks v1. */
	version?: StandinVersion
	/** Used to deliver webhooks (a test can route them to an in-process app.handle). */
	fetch?: FetchLike
	/** Deliver the portal's own sends back as messages.upsert fromMe (Evolution issue #1340). Default on, as reality may. */
	echoOwnSendsAsUpsert?: boolean
	/** Each delivery waits a random 0..this many ms, so events overtake each other. Default 8; 0 = in order. */
	deliveryJitterMs?: number
	/** Waits before the retries of a failed delivery (Evolution: 5 s and up; here short). Default [20, 40, 80]. */
	webhookRetryDelaysMs?: number[]
	/** Deliver every event twice, as Evolution does when an answer is lost after the portal took it. Default off. */
	duplicateDeliveries?: boolean
	/** Numbers that "have no WhatsApp": sends to them fail like Evolution's check does. */
	numbersWithoutWhatsapp?: string[]
	/** The instance's own number (the webhook `sender`). */
	ownerPhone?: string
	/**
	 * A send's typing delay (`delay`) is waited before the message goes and the request is answered, as Evolution does;
	 * times this. Default 1 (the delay asked); tests shorten it, never to 0.
	 */
	typingDelayScale?: number
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
	/** The typing delay asked for (ms), waited before the send (times `typingDelayScale`). */
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
	/** 1 for the first try, more for Evolution's retries. */
	attempt: number
	at: string
}

export interface Webhook {
	enabled: boolean
	url: string
	headers: Record<string, string>
	events: string[]
	/** Stored and read back; deliveries always go to `url` (the portal never asks for per-event URLs). */
	byEvents: boolean
	base64: boolean
}

export interface Instance {
	name: string
	token: string
	state: ConnectionState
	webhook: Webhook | null
}

export const STATES: ConnectionState[] = ['open', 'close', 'connecting', 'refused']

export const record = (v: unknown): Record<string, unknown> | null =>
	typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
export const json = (data: unknown, status = 200) =>
	new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } })
/** Evolution's error body. */
export const failure = (status: number, error: string, message: unknown) => json({ status, error, response: { message } }, status)
export const badRequest = (...message: unknown[]) => failure(400, 'Bad Request', message)
export const hex = (n: number) =>
	Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** A phone as a person types it on the chat page (85 99999-0001) → 5585999990001. */
export const digitsOf = (phone: string) => normaliseBrazilianPhone(phone) ?? phone.replace(/\D/g, '')

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

/** Bytes as Evolution serialises a Buffer into JSON: `{"0":255,"1":216,…}`. */
export function serialisedBytes(n: number): Record<string, number> {
	const bytes = crypto.getRandomValues(new Uint8Array(n))
	const out: Record<string, number> = {}
	for (let i = 0; i < n; i++) out[i] = bytes[i]
	return out
}

/** The stand-in's state, shared by its parts. */
export interface StandinState {
	options: EvolutionStandinOptions
	version: StandinVersion
	v1: boolean
	ownerJid: string
	instances: Map<string, Instance>
	sent: SentRecord[]
	inbound: InboundRecord[]
	deliveries: WebhookDelivery[]
	serverUrl: string
	nextSeq(): number
	instance(name?: string): Instance
}
