/**
 * What every part of the Asaas stand-in shares: the options, an account's state, the refusal, Asaas' answer
 * shapes (JSON, error body, list envelope) and the small date, money and document helpers.
 */
import type { FetchLike } from '../client'
import type { AsaasCustomer, AsaasInstallment, AsaasList, AsaasPayment, AsaasWebhook, PaymentEvent, PaymentStatus } from '../types'

export interface AsaasStandinOptions {
	/** 'any' (demo): every key starting with $aact_ is an account of its own. Default 'any'. */
	keys?: 'any' | string[]
	/** Used to deliver webhooks, so a test can route them to an in-process app.handle. */
	fetch?: FetchLike
	/** Wait after the 1st, 2nd… failed delivery; the last one repeats. Default Asaas' 30 s, 1 min, 3.5 min… 3 h. */
	webhookRetryDelaysMs?: number[]
	/** How long a delivery may take before it counts as failed. Default 10 s, like Asaas. */
	webhookTimeoutMs?: number
	now?: () => Date
	/** Reality's awkward behaviours, each a switch; also changed at runtime (setModes, POST /__standin/modes). */
	modes?: Partial<StandinModes>
}

/**
 * How the stand-in behaves where Asaas is awkward or its documents are unsettled (integrations.md, "Corrections…").
 */
export interface StandinModes {
	/** At-least-once delivery: how many times each delivered event is delivered again (same event id). */
	webhookRepeats: number
	/** When a repeat comes: 0 queues it behind whatever waits; more waits that long after the delivery. */
	webhookRepeatDelayMs: number
	/** GET /payments/{id} of a removed charge: 404 (Asaas may, correction 8) or the charge with deleted: true. */
	deletedPayment: 'not-found' | 'deleted-flag'
	/** What POST /installments requires: `value` (each parcel), `totalValue`, or either (the sandbox capture). */
	installmentAmount: 'value' | 'totalValue' | 'either'
	/** Whether a webhook config needs `email`, as Asaas' form does. */
	webhookEmail: 'required' | 'optional'
	/** A paid PIX charge goes CONFIRMED (PAYMENT_CONFIRMED) before RECEIVED (PAYMENT_RECEIVED); else straight RECEIVED. */
	pixConfirmedFirst: boolean
	/** A PENDING charge turns OVERDUE by itself (PAYMENT_OVERDUE) the day after its due date, by the stand-in's clock. */
	overdueByItself: boolean
	/** The Pix QR needs a Pix key on the account (registerPixKey / POST /__standin/pix-keys). */
	pixKeyRequired: boolean
	/** Count each account's requests, answer RateLimit-* headers on every answer and 429 past quotaLimit. */
	countQuota: boolean
	/** Requests an account may make per window before 429 (Asaas: 25,000 per 12 h). */
	quotaLimit: number
	quotaWindowMs: number
	/**
	 * GET /v3/wallets/: 'list' answers the account's walletId in a list envelope (the reference page's shape), 'object'
	 * as one object, 'forbidden' refuses it (403, a key without that permission): the portal must live with each.
	 */
	wallets: 'list' | 'object' | 'forbidden'
}

/** Reality by default: where Asaas is awkward, so is the stand-in (value/totalValue, unsettled, takes either). */
export const DEFAULT_MODES: StandinModes = {
	webhookRepeats: 1,
	webhookRepeatDelayMs: 0,
	deletedPayment: 'not-found',
	installmentAmount: 'either',
	webhookEmail: 'required',
	pixConfirmedFirst: true,
	overdueByItself: true,
	pixKeyRequired: true,
	countQuota: true,
	quotaLimit: 25_000,
	quotaWindowMs: 12 * 3_600_000,
	wallets: 'list'
}

export interface QueuedEvent {
	id: string
	event: PaymentEvent
	paymentId: string
	body: string
	attempts: number
	/** 0 for the event itself, n for its n-th repeat. */
	repeat: number
	/** NON_SEQUENTIALLY: this event is being delivered, or waits for its retry. */
	busy: boolean
	timer: ReturnType<typeof setTimeout> | null
}

export interface Hook {
	config: Omit<AsaasWebhook, 'penalizedRequestsCount'>
	authToken: string | null
	queue: QueuedEvent[]
	failures: number
	/** SEQUENTIALLY: the head is being delivered, or waits for its retry. */
	busy: boolean
	timer: ReturnType<typeof setTimeout> | null
	/** NON_SEQUENTIALLY: a delivery round is due (events emitted together go out together). */
	scheduled: boolean
}

export interface StandinAccount {
	key: string
	customers: Map<string, AsaasCustomer>
	payments: Map<string, AsaasPayment>
	installments: Map<string, AsaasInstallment>
	webhooks: Map<string, Hook>
	/** The account's Pix key; without one there is no Pix QR when pixKeyRequired. */
	pixKey: string | null
	/** Requests in the current quota window, which starts at its first request. */
	quota: { windowStart: number; used: number } | null
}

/** The state the parts share: accounts by key, the public document tokens, the clock and a sequence. */
export interface StandinState {
	now: () => Date
	modes: StandinModes
	accounts: Map<string, StandinAccount>
	/** The public invoice/boleto URL token → payment. */
	tokens: Map<string, { account: StandinAccount; payment: AsaasPayment }>
	nextSeq: () => number
}

/** One /v3 request as a route handler sees it. */
export type Ctx = { a: StandinAccount; origin: string; query: URLSearchParams; body: Record<string, unknown> }
export type Route = [string, RegExp, (ctx: Ctx, ...params: string[]) => Response | Promise<Response>]

/** A refused request: the Asaas error body with this status. Also what the in-process controls throw. */
export class StandinRefusal extends Error {
	constructor(
		readonly httpStatus: number,
		readonly code: string,
		message: string
	) {
		super(message)
	}
}

export const OPEN: PaymentStatus[] = ['PENDING', 'OVERDUE']
export const PAID: PaymentStatus[] = ['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']

const BRT_MS = 3 * 3_600_000
export const isoDate = (d: Date) => new Date(d.getTime() - BRT_MS).toISOString().slice(0, 10)
export const dateTime = (d: Date) => new Date(d.getTime() - BRT_MS).toISOString().slice(0, 19).replace('T', ' ')
export const validDate = (s: unknown): s is string =>
	typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)
export const cents = (reais: number) => Math.round(reais * 100)
export const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

export function addMonths(date: string, months: number): string {
	const [y, m, d] = date.split('-').map(Number)
	const first = new Date(Date.UTC(y, m - 1 + months, 1))
	const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
	first.setUTCDate(Math.min(d, lastDay))
	return first.toISOString().slice(0, 10)
}

export function randomId(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
	return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => alphabet[b % alphabet.length]).join('')
}

export const json = (data: unknown, status = 200, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json', ...headers } })
export const errorBody = (status: number, code: string, description: string, headers: Record<string, string> = {}) =>
	json({ errors: [{ code, description }] }, status, headers)
export const refuse = (code: string, description: string): never => {
	throw new StandinRefusal(400, code, description)
}
/** Asaas answers an unknown id with a bare 404. */
export const notFound = (): never => {
	throw new StandinRefusal(404, 'not_found', 'Registro não encontrado.')
}

export function page<T>(items: T[], query: URLSearchParams): AsaasList<T> {
	const offset = Math.max(0, Number(query.get('offset')) || 0)
	const limit = Math.min(100, Math.max(1, Number(query.get('limit')) || 10))
	const data = items.slice(offset, offset + limit)
	return { object: 'list', hasMore: offset + data.length < items.length, totalCount: items.length, limit, offset, data }
}
