import { createHash } from 'node:crypto'
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm'
import type { AsaasEvent } from '../asaas'
import { MINUTE } from '../core'
import { type AppContext, unauthorized, writeTransaction } from '../core/server'
import { asaasAccount, tokenMatches } from './accounts'
import { asaasEvents } from './schema'

/** An event as the inbox keeps it, handed to the modules that may own its payment. */
export interface InboxEvent {
	id: number
	eventId: string
	/** 'fornecedor' or the representative's CNPJ: whose Asaas account sent it. */
	account: string
	event: string
	paymentId: string | null
	payload: AsaasEvent
}

/**
 * A module that may own the payment of an event (carnês, credit purchases). It answers true when the payment
 * was its own; it must be idempotent (an event may be handled again after a crash) and must believe nothing
 * from the payload that it did not read back from Asaas.
 */
export interface PaymentEventHandler {
	name: string
	handle(event: InboxEvent): Promise<boolean>
}

/** Waits before the 2nd, 3rd… attempt at handling an event; after the last, the event is given up. */
const RETRY_DELAYS_MS = [30_000, MINUTE, 5 * MINUTE, 15 * MINUTE, 60 * MINUTE, 3 * 60 * MINUTE, 6 * 60 * MINUTE]
/**
 * How long one worker holds an event in hand without renewing it. The worker renews it every CLAIM_RENEW_MS while
 * it works, so a slow Asaas keeps the event with it; a worker that died lets it go within seconds, and the inbox
 * job (every 5 s, in every process) takes it up.
 */
export const CLAIM_MS = 20_000
const CLAIM_RENEW_MS = 5_000

type Ctx = Pick<AppContext, 'db' | 'clock' | 'log' | 'secrets'>

/** What Asaas posts, checked field by field: nothing else of a hostile body is trusted or kept. */
function readEnvelope(body: unknown): { eventId: string; event: string; paymentId: string | null } | null {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return null
	const { id, event, payment } = body as Record<string, unknown>
	if (typeof id !== 'string' || !id || id.length > 200 || typeof event !== 'string' || !/^[A-Z_]{1,80}$/.test(event)) return null
	const paymentId =
		payment && typeof payment === 'object' && typeof (payment as { id?: unknown }).id === 'string' ? (payment as { id: string }).id : null
	return { eventId: id, event, paymentId: paymentId && paymentId.length <= 100 ? paymentId : null }
}

export function createAsaasInbox(ctx: Ctx, handlers: PaymentEventHandler[]) {
	/** Deliveries waiting for the next write: stored together, so many concurrent deliveries share one disk sync. */
	let waiting: { row: typeof asaasEvents.$inferInsert; resolve: (id: number | null) => void; reject: (e: unknown) => void }[] = []

	async function storeWaiting() {
		const batch = waiting
		waiting = []
		try {
			const ids = await writeTransaction(ctx.db, async (tx) => {
				const inserted: (number | null)[] = []
				for (const { row } of batch) {
					const [stored] = await tx
						.insert(asaasEvents)
						.values(row)
						.onConflictDoNothing({ target: asaasEvents.event_id })
						.returning({ id: asaasEvents.id })
					inserted.push(stored?.id ?? null)
				}
				return inserted
			})
			for (const [i, { row, resolve }] of batch.entries()) resolve(row.status === 'pendente' ? ids[i] : null)
		} catch (error) {
			for (const { reject } of batch) reject(error)
		}
	}

	/**
	 * Authenticates a delivery and stores its event once, durably, before it is acknowledged. Answers the row to
	 * hand to the modules, or null for a repeat (acknowledged and ignored). A wrong or missing token stores nothing.
	 * Deliveries arriving together are written in one transaction (group commit).
	 */
	async function receive(accountId: string, token: string | null, body: unknown): Promise<number | null> {
		const account = await asaasAccount(ctx.db, ctx.secrets, accountId)
		if (!account || !tokenMatches(token, account.webhookToken)) throw unauthorized('Token do webhook inválido.')
		const now = ctx.clock.now().toISOString()
		const envelope = readEnvelope(body)
		// A clone: the parsed body the HTTP layer hands over serialises as a placeholder in error texts (security.ts).
		const payload = JSON.stringify(structuredClone(body))
		// An authenticated but unreadable delivery is kept (answered 200, so Asaas does not pause the queue) and set aside.
		const row = envelope
			? { ...envelope, status: 'pendente' as const, last_error: null }
			: {
					eventId: `invalido-${createHash('sha256').update(payload).digest('hex')}`,
					event: 'INVALIDO',
					paymentId: null,
					status: 'sem_dono' as const,
					last_error: 'Envelope de evento ilegível.'
				}
		return new Promise((resolve, reject) => {
			waiting.push({
				row: {
					event_id: row.eventId,
					account: accountId,
					event: row.event,
					payment_id: row.paymentId,
					payload,
					received_at: now,
					status: row.status,
					next_attempt_at: now,
					last_error: row.last_error
				},
				resolve,
				reject
			})
			if (waiting.length === 1) setImmediate(storeWaiting)
		})
	}

	/** Takes the event in hand when it is due and nobody else holds it: one worker at a time, even across processes. */
	async function claim(id: number) {
		const now = ctx.clock.now()
		return (
			await ctx.db
				.update(asaasEvents)
				.set({ claimed_until: new Date(now.getTime() + CLAIM_MS).toISOString(), attempts: sql`${asaasEvents.attempts} + 1` })
				.where(
					and(
						eq(asaasEvents.id, id),
						eq(asaasEvents.status, 'pendente'),
						lte(asaasEvents.next_attempt_at, now.toISOString()),
						sql`(${asaasEvents.claimed_until} is null or ${asaasEvents.claimed_until} <= ${now.toISOString()})`
					)
				)
				.returning()
		)[0]
	}

	/** Events being handled in this process now: idle() waits for them (a graceful stop, a test's settling). */
	const inFlight = new Set<Promise<void>>()

	/** Hands a stored event to the modules; records what became of it. */
	function process(id: number): Promise<void> {
		const work = handleEvent(id).finally(() => inFlight.delete(work))
		inFlight.add(work)
		return work
	}

	/** Resolves once nothing this process took in hand is still being handled. */
	async function idle(): Promise<void> {
		while (inFlight.size > 0) await Promise.allSettled([...inFlight])
	}

	async function handleEvent(id: number): Promise<void> {
		const row = await claim(id)
		if (!row) return
		const event: InboxEvent = {
			id: row.id,
			eventId: row.event_id,
			account: row.account,
			event: row.event,
			paymentId: row.payment_id,
			payload: JSON.parse(row.payload)
		}
		const finishedAt = () => ctx.clock.now().toISOString()
		const renew = setInterval(async () => {
			await ctx.db
				.update(asaasEvents)
				.set({ claimed_until: new Date(ctx.clock.now().getTime() + CLAIM_MS).toISOString() })
				.where(and(eq(asaasEvents.id, id), eq(asaasEvents.status, 'pendente')))
		}, CLAIM_RENEW_MS)
		try {
			let owned = false
			for (const handler of handlers) owned = (await handler.handle(event)) || owned
			await ctx.db
				.update(asaasEvents)
				.set({ status: owned ? 'processado' : 'sem_dono', processed_at: finishedAt(), claimed_until: null, last_error: null })
				.where(eq(asaasEvents.id, id))
		} catch (error) {
			const message = String((error as Error)?.message ?? error).slice(0, 500)
			const delay = RETRY_DELAYS_MS[row.attempts - 1]
			const giveUp = delay === undefined
			await ctx.db
				.update(asaasEvents)
				.set({
					status: giveUp ? 'falhou' : 'pendente',
					last_error: message,
					claimed_until: null,
					next_attempt_at: new Date(ctx.clock.now().getTime() + (delay ?? 0)).toISOString()
				})
				.where(eq(asaasEvents.id, id))
			ctx.log(giveUp ? 'asaas.event_failed' : 'asaas.event_retry', {
				event: row.event_id,
				account: row.account,
				attempts: row.attempts,
				message
			})
		} finally {
			clearInterval(renew)
		}
	}

	/**
	 * Every event that is due and in nobody's hands (a failed attempt's time came, or a process died holding it),
	 * oldest first.
	 */
	async function processDue(limit = 200): Promise<number> {
		const now = ctx.clock.now().toISOString()
		const due = await ctx.db
			.select({ id: asaasEvents.id })
			.from(asaasEvents)
			.where(
				and(
					eq(asaasEvents.status, 'pendente'),
					lte(asaasEvents.next_attempt_at, now),
					or(isNull(asaasEvents.claimed_until), lte(asaasEvents.claimed_until, now))
				)
			)
			.orderBy(asc(asaasEvents.id))
			.limit(limit)
		for (const { id } of due) await process(id)
		return due.length
	}

	return { receive, process, processDue, idle }
}
export type AsaasInbox = ReturnType<typeof createAsaasInbox>
