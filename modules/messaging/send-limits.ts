import { DAY, MINUTE, WHATSAPP_SEND_LIMITS } from '../core'
import {
	type AppContext,
	AppError,
	type SharedLimit,
	giveBackShared,
	reserveTurn,
	takeShared,
	tooManyRequests,
	waitInWords
} from '../core/server'
import { findRepresentativeByCnpj } from '../resellers'
import { getSetting } from '../settings'

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>

/** Who a click's send is counted against. */
export interface ClickSender {
	/** The user who clicked. */
	userId: number
	/** Whose carnê the message is about (it leaves through their number, or the portal's); null for the portal's tests. */
	representanteCnpj: string | null
}

export interface PaceOptions {
	/** How the wait for a send's turn is waited (production: Bun.sleep). */
	sleep?: (ms: number) => Promise<void>
}

/** A few seconds between two sends through one number, with jitter, like a person: never a burst to the gateway. */
export const pauseBetweenSends = (base: number) => base + Math.floor(Math.random() * base)

const L = WHATSAPP_SEND_LIMITS
const perMinute = (n: number) => `no máximo ${n} mensagens por minuto`
const perDay = (n: number) => `no máximo ${n} mensagens por dia`

/** The limits of one click's send, each with the sentence that explains it when it refuses. */
function limitsOf(sender: ClickSender): { limit: SharedLimit; message: (wait: string) => string }[] {
	const user = `whatsapp:user:${sender.userId}`
	const limits = [
		{
			limit: { key: user, limit: L.perUserPerMinute, windowMs: MINUTE },
			message: (wait: string) => `Limite de envios pelo WhatsApp atingido (${perMinute(L.perUserPerMinute)}). Tente novamente em ${wait}.`
		},
		{
			limit: { key: user, limit: L.perUserPerDay, windowMs: DAY },
			message: (wait: string) => `Limite diário de envios pelo WhatsApp atingido (${perDay(L.perUserPerDay)}). Tente novamente em ${wait}.`
		}
	]
	if (!sender.representanteCnpj) return limits
	const rep = `whatsapp:rep:${sender.representanteCnpj}`
	return [
		...limits,
		{
			limit: { key: rep, limit: L.perRepresentativePerMinute, windowMs: MINUTE },
			message: (wait: string) =>
				`Limite de envios pelo WhatsApp deste representante atingido (${perMinute(L.perRepresentativePerMinute)}). Tente novamente em ${wait}.`
		},
		{
			limit: { key: rep, limit: L.perRepresentativePerDay, windowMs: DAY },
			message: (wait: string) =>
				`Limite diário de envios pelo WhatsApp deste representante atingido (${perDay(L.perRepresentativePerDay)}). Tente novamente em ${wait}.`
		}
	]
}

/** The WhatsApp number (Evolution instance) a representative's messages leave through: their own, else the portal's. */
async function sendingInstance(ctx: Ctx, representanteCnpj: string | null): Promise<string> {
	const own = representanteCnpj ? (await findRepresentativeByCnpj(ctx.db, representanteCnpj))?.evo_instancia?.trim() : null
	return own || (await getSetting(ctx.db, 'evolution_instance_name')) || 'portal'
}

/**
 * A message a person's click sends through the WhatsApp gateway (a carnê, a parcel, a test, the bot's test): counted
 * against the per-user and per-representative limits (core/policy.ts WHATSAPP_SEND_LIMITS; 429 with Retry-After and
 * the wait in words), then held until its turn on the number, WHATSAPP_PAUSE_MS (plus up to as much again) after the
 * number's previous click-send, in this process or another; then `send`. A send refused for what it asked (a 4xx:
 * a wrong phone, a carnê not found) sent nothing and gives its place back.
 */
export async function clickSend<T>(ctx: Ctx, sender: ClickSender, send: () => Promise<T>, options: PaceOptions = {}): Promise<T> {
	const limits = limitsOf(sender)
	const taken = await takeShared(
		ctx.db,
		ctx.clock.now(),
		limits.map((l) => l.limit)
	)
	if ('refused' in taken) {
		const { limit, waitMs } = taken.refused
		const message = limits.find((l) => l.limit === limit)!.message(waitInWords(waitMs))
		throw tooManyRequests(message, waitMs / 1000)
	}
	const maxWaitMs = L.maxQueueSeconds * 1000
	const turn = await waitForTurnOf(ctx, sender.representanteCnpj, maxWaitMs, options)
	if (!turn.reserved) {
		await giveBackShared(ctx.db, taken.taken)
		const wait = turn.waitMs - maxWaitMs
		throw tooManyRequests(`O WhatsApp está enviando outras mensagens agora. Tente novamente em ${waitInWords(wait)}.`, wait / 1000)
	}
	try {
		return await send()
	} catch (error) {
		if (error instanceof AppError && error.status < 500) await giveBackShared(ctx.db, taken.taken)
		throw error
	}
}

/**
 * The next turn of the number a representative's messages leave through, reserved and waited for, when it is at most
 * `maxWaitMs` away (WHATSAPP_PAUSE_MS plus up to as much again after the number's previous send, in this process or
 * another); not reserved, nothing waited, otherwise.
 */
async function waitForTurnOf(ctx: Ctx, representanteCnpj: string | null, maxWaitMs: number, options: PaceOptions) {
	const key = `whatsapp:turn:${await sendingInstance(ctx, representanteCnpj)}`
	const askedAt = performance.now()
	const turn = await reserveTurn(ctx.db, ctx.clock.now(), key, pauseBetweenSends(ctx.config.whatsappPauseMs), maxWaitMs)
	// The turn is a moment: the time the reservation itself took (a retried transaction) is already waited.
	const wait = turn.waitMs - (performance.now() - askedAt)
	if (turn.reserved && wait > 0) await (options.sleep ?? Bun.sleep)(wait)
	return turn
}

/**
 * An automatic message (the reminder schedule's) through the representative's number, or the portal's: held until its
 * turn on that number like a click's send, so automatic and clicked sends never make a burst together. False, waiting
 * for nothing, when the turn is more than `maxWaitMs` away: the caller leaves the message for a later run.
 */
export async function waitForTurn(
	ctx: Ctx,
	representanteCnpj: string | null,
	options: PaceOptions & { maxWaitMs?: number } = {}
): Promise<boolean> {
	return (await waitForTurnOf(ctx, representanteCnpj, options.maxWaitMs ?? L.maxQueueSeconds * 1000, options)).reserved
}
