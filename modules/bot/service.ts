/**
 * The bot's runner: the webhook's events in, one phone at a time across every portal instance; for a client's
 * message it reads the facts, lets conversation.ts decide, does the effects and sends the replies; the monitor and the
 * instance's webhook. What it keeps in memory is in `Bot` (nothing another instance needs); what it reads and writes
 * in the database is in store.ts.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Db, Tx } from '../../db/client'
import { withoutTransactionCheck } from '../../db/transaction'
import { AppError, type AppContext, type Logger, unauthorized, unprocessable, writeTransaction } from '../core/server'
import { type EvolutionClient, EvolutionError, parseEvolutionEvent, phoneKey, webhookPlan, withoutBinaryFields } from '../evolution'
import { evolutionGateway, isOwnSend } from '../messaging'
import { getSetting, getSettingsMap, openSetting, saveSettings } from '../settings'
import { type Effect, type Session, decide, freshSession, isPaused, paced, pausedSession, resumedSession } from './conversation'
import { BOT_SILENCE_WARNING_MS, BOT_WEBHOOK_EVENTS, BOT_WEBHOOK_HEADER, type BotMonitor } from './model'
import {
	type InboxMessage,
	type PhoneTurn,
	acceptMessage,
	applyOtherModulesEffects,
	botEnabled,
	hasWaitingMessages,
	listSessions,
	loadFacts,
	normalisedPhone,
	pausedPhones,
	phonesLeftWaiting,
	readBotState,
	readSession,
	releasePhone,
	removeFromInbox,
	saveSession,
	takeNextMessage,
	takePhone,
	writeBotEffects,
	writeBotState
} from './store'

/**
 * Replies one phone may get per minute. A person reads each reply and types the next option: with the bot's own
 * "typing…" of 0.8–3 s that is at most about 15 exchanges a minute, so 20 never stops a person. A loop with another
 * bot (or a flood) answers at once and reaches it in its first minute; it stays stopped while it keeps writing (every
 * message counts, answered or not) and is told so once.
 */
export const REPLIES_PER_MINUTE = 20
/**
 * An event's size once its binary fields (thumbnails, media keys) are dropped: far more than any text the bot reads.
 * The raw body has its own cap, checked on the bytes as they arrive (apps/server/app.ts), after the secret.
 */
export const WEBHOOK_EVENT_LIMIT = 64 * 1024
/**
 * How long an instance holds a phone without giving it back: a message's work (the facts, the replies with their
 * "typing…", the commit) takes seconds; an instance that died lets its phones go after this.
 */
const PHONE_LEASE_MS = 60_000
/** How long a message waits for its phone, held by another instance (or one that died), before it is given up. */
const PHONE_WAIT_MS = 2 * PHONE_LEASE_MS
const PHONE_RETRY_MS = 100
/**
 * A message waiting this long in the inbox, its phone in no instance's hands, is taken up by the inbox job: the
 * instance that answered the webhook died before handling it, or gave up waiting for the phone.
 */
const LEFT_WAITING_MS = 10_000
/** Instances that may take a message in turn and die handling it before it is given up (a message that kills them). */
const MAX_TAKES = 3

/** "Typing…" before a reply, as a person would: longer texts take longer, within 0.8–3 s. */
export const typingDelayMs = (text: string) => Math.min(3000, Math.max(800, text.length * 25))

export type BotService = ReturnType<typeof createBotService>

/**
 * What the bot keeps in memory, per portal process: the order of each phone's work in this process, the commits
 * being grouped, caches of settings. A phone's state (its session, its lease, what it was told, its replies of the
 * last minute) and the messages already taken are in the database, where every instance reads them.
 */
interface Bot {
	ctx: AppContext
	queue: PhoneQueue
	commits: GroupCommit
	gateway: () => Promise<EvolutionClient | null>
	secret: WebhookSecret
	/** Who holds a phone's lease: this bot of this process. */
	holder: string
	/** Phones whose waiting messages this process will handle once their turn in `queue` comes; whether it waits for the phone. */
	waking: Map<string, { waitForPhone: boolean }>
	/** The time of the last event is written at most once a second, per process. */
	lastEventWrittenMs: number
	/** Settles once the webhook request that came last has queued its write (or given up): see receive. */
	arrivals: Promise<void>
	/** Each webhook request's place in that order, taken as it arrives (before its secret is checked). */
	turns: WeakMap<Request, ArrivalTurn>
}

interface ArrivalTurn {
	/** Settles once the request before this one has queued its write. */
	before: Promise<void>
	/** Lets the next request go (once `before` has settled). */
	queued: () => void
}

/** The next place in the order of arrival. */
function arrivalTurn(bot: Bot): ArrivalTurn {
	const before = bot.arrivals
	let resolve!: () => void
	bot.arrivals = new Promise<void>((r) => {
		resolve = r
	})
	// Refused or ignored early, a request still lets the next one go only after the one before it.
	return { before, queued: () => void before.then(resolve) }
}

export function createBotService(ctx: AppContext) {
	const { db, clock } = ctx
	const bot: Bot = {
		ctx,
		queue: new PhoneQueue(ctx.log),
		commits: new GroupCommit(db),
		gateway: cachedGateway(ctx),
		secret: new WebhookSecret(ctx),
		holder: `${process.pid}-${crypto.randomUUID()}`,
		waking: new Map(),
		lastEventWrittenMs: 0,
		arrivals: Promise.resolve(),
		turns: new WeakMap()
	}
	return {
		/** A webhook request has arrived: its place in the order its messages are written in (receive). */
		arrive: (request: Request) => void bot.turns.set(request, arrivalTurn(bot)),
		/** A webhook request refused before receive: the next one may go. */
		refused: (request: Request) => bot.turns.get(request)?.queued(),
		receive: (token: string | null, body: unknown, request?: Request) =>
			receive(bot, token, body, (request && bot.turns.get(request)) ?? arrivalTurn(bot)),
		/**
		 * Checked before the body is read: a sender without the secret never makes the portal read a large body. The
		 * secret as last read does for a match (receive reads it again before anything is done); a mismatch reads it anew.
		 */
		webhookTokenMatches: async (token: string | null) =>
			bot.secret.matchesLastRead(token) || bot.secret.matches(token, await getSetting(db, 'bot_webhook_secret')),
		/** Sets the instance's webhook (URL, secret header, events); the outcome is shown on the monitor. */
		configureWebhook: () => bot.queue.run('webhook', () => configureWebhook(bot)).catch(() => undefined),
		/** Resolves when every queued message has been handled (tests, the benchmark). */
		idle: () => bot.queue.idle(),
		/** The inbox job: the phones whose messages were left waiting (see phonesLeftWaiting) are handled here. */
		async takeUpLeftWaiting(): Promise<number> {
			const keys = await phonesLeftWaiting(db, clock.now(), LEFT_WAITING_MS)
			for (const key of keys) handleSoon(bot, key, false)
			return keys.length
		},
		/** POST /api/whatsapp/bot/test: the message as if the phone sent it; the replies that went out. */
		test(input: string, message: string): Promise<string[]> {
			const phone = normalisedPhone(input)
			return onPhone(bot, phoneKey(phone), (turn) => fromClient(bot, turn, phone, message, null))
		},
		answerAsAttendant: (input: string, message: string) => answerAsAttendant(bot, normalisedPhone(input), message),
		resume(input: string): Promise<boolean> {
			return onPhone(bot, phoneKey(normalisedPhone(input)), async (turn) => {
				const s = await readSession(db, turn.key)
				if (!s || !isPaused(s, clock.now().toISOString())) return false
				await commit(bot, turn, resumedSession(s))
				return true
			})
		},
		enabled: () => botEnabled(db),
		async setEnabled(on: boolean) {
			await writeBotState(db, { enabled: on })
			if (on) await configureWebhook(bot)
		},
		sessions: () => listSessions(db, clock.now()),
		pausedPhones: () => pausedPhones(db, clock.now()),
		async status() {
			const now = clock.now()
			return {
				enabled: await botEnabled(db),
				activeSessions: (await listSessions(db, now)).length,
				pausedConversations: (await pausedPhones(db, now)).length
			}
		},
		monitor: () => monitor(bot)
	}
}

/**
 * POST /api/whatsapp/webhook: checks the secret (401 without it), reads the event, and records what must outlive the
 * answer in one grouped commit: a message in the inbox (once per `data.key.id`, whichever instance it reached), what
 * the gateway said. Answers once that is on disk; the bot handles the message afterwards, off the answer's path.
 */
async function receive(bot: Bot, token: string | null, body: unknown, turn: ArrivalTurn): Promise<{ received: boolean }> {
	// Messages are queued for writing in the order their requests reached this process (`turn`, taken on arrival): a
	// phone's messages that arrive together are then handled in that order. The reads before it (the secret, here and
	// in the route's first check) run side by side and may end in any order (on PostgreSQL each goes out on a
	// connection of its own), so each request waits for the one before it to have queued its write, not its commit.
	try {
		return await receiveInTurn(bot, token, body, turn.before, turn.queued)
	} finally {
		turn.queued()
	}
}

async function receiveInTurn(
	bot: Bot,
	token: string | null,
	body: unknown,
	before: Promise<void>,
	queued: () => void
): Promise<{ received: boolean }> {
	const { db, clock } = bot.ctx
	const settings = await getSettingsMap(db, ['bot_webhook_secret', 'evolution_instance_name'])
	if (!bot.secret.matches(token, settings.bot_webhook_secret)) throw unauthorized('Token do webhook inválido.')
	const slim = withoutBinaryFields(body)
	if (Buffer.byteLength(JSON.stringify(slim) ?? '') > WEBHOOK_EVENT_LIMIT) {
		throw new AppError(413, 'O evento da Evolution excede 64 KB mesmo sem as miniaturas e as chaves de mídia.', 'PAYLOAD_TOO_LARGE')
	}
	const event = parseEvolutionEvent(slim)
	if (event.kind === 'ignored') return { received: false }
	if (event.instance !== settings.evolution_instance_name) return { received: false }
	const state = lastEvent(
		bot,
		event.kind === 'connection' ? { connection_state: event.state, connection_at: clock.now().toISOString() } : {}
	)
	// The echo of a send already known as the portal's own changes nothing: there is nothing to keep of it.
	const message =
		event.kind === 'message' && !(event.fromMe && (await isOwnSend(db, event.phone, event.id, { wait: false }))) ? event : null
	await before
	if (!message) {
		const stateWritten = state ? bot.commits.add((tx) => writeBotState(tx, state)) : null
		queued()
		await stateWritten
		return { received: true }
	}
	const key = phoneKey(message.phone)
	// With nothing of the phone under way in this process, the phone is taken in the same commit as the message: its
	// handling (queued now, before anything else of the phone) starts without a write of its own.
	const takeWith = bot.queue.isIdle(key)
	const written = bot.commits.add(async (tx) => {
		if (state) await writeBotState(tx, state)
		const at = clock.now()
		const accepted = await acceptMessage(
			tx,
			{ id: message.id, phoneKey: key, phone: message.phone, fromMe: message.fromMe, text: message.text },
			at.toISOString()
		)
		return accepted && takeWith ? takeNextMessage(tx, key, bot.holder, at, PHONE_LEASE_MS) : null
	})
	queued()
	handleSoon(
		bot,
		key,
		true,
		written.catch(() => null)
	)
	await written
	return { received: true }
}

type Taken = Awaited<ReturnType<typeof takeNextMessage>>

/**
 * Handles the phone's waiting messages once this process's earlier work on the phone is done, starting with `taken`
 * (a message taken with the phone as it was received). One queued run serves every message that arrives before it
 * starts: it handles all the phone's waiting messages.
 */
function handleSoon(bot: Bot, key: string, waitForPhone: boolean, taken: Promise<Taken> | null = null) {
	const queued = bot.waking.get(key)
	if (queued && !taken) {
		queued.waitForPhone ||= waitForPhone
		return
	}
	const run = { waitForPhone }
	bot.waking.set(key, run)
	void bot.queue
		.run(key, async () => {
			if (bot.waking.get(key) === run) bot.waking.delete(key)
			const first = await taken
			if (first?.message) await handleMessage(bot, first.turn, first.message)
			await handleWaiting(bot, key, run.waitForPhone)
		})
		.catch(() => undefined) // logged by the queue
}

/**
 * Handles the phone's messages in the inbox, oldest first, each under the phone's lease. While another instance has
 * the phone, waits for it (`waitForPhone`, up to PHONE_WAIT_MS), or leaves the messages to that instance and to the
 * inbox job.
 */
async function handleWaiting(bot: Bot, key: string, waitForPhone: boolean): Promise<void> {
	const { db, clock } = bot.ctx
	const deadline = performance.now() + PHONE_WAIT_MS
	while (await hasWaitingMessages(db, key)) {
		const taken = await bot.commits.add((tx) => takeNextMessage(tx, key, bot.holder, clock.now(), PHONE_LEASE_MS))
		if (!taken) {
			if (!waitForPhone || performance.now() > deadline) return
			await Bun.sleep(PHONE_RETRY_MS)
			continue
		}
		if (taken.message) await handleMessage(bot, taken.turn, taken.message)
	}
}

/**
 * One message of the inbox, the phone held: handled, and off the inbox with what it changed. A message whose handling
 * fails is given up, logged (some of its replies may have gone out: it is not tried again).
 */
async function handleMessage(bot: Bot, turn: PhoneTurn, message: InboxMessage): Promise<void> {
	const { log } = bot.ctx
	try {
		if (message.takes > MAX_TAKES) {
			log('bot.message_given_up', { phoneKey: turn.key, takes: message.takes - 1 })
			await commit(bot, turn, null, [], message.seq)
		} else if (message.from_me) await fromLinkedPhone(bot, turn, message.phone, message.message_id, message.seq)
		else await fromClient(bot, turn, message.phone, message.text, message.seq)
	} catch (error) {
		log('bot.error', { phoneKey: turn.key, message: String((error as Error)?.message ?? error) })
		if (turn.released) return
		// The phone back and the message off the inbox; failing that, the lease runs out and the inbox job takes it again.
		await commit(bot, turn, null, [], message.seq).catch((failed) =>
			log('bot.release_failed', { phoneKey: turn.key, message: String((failed as Error)?.message ?? failed) })
		)
	}
}

/**
 * Runs `task` with the phone, for an administrador's action on it (the bot test, resuming, an attendant's answer):
 * after this process's earlier work on the phone, holding its lease (waiting while another instance has it), and
 * gives the phone back if the task did not (it failed before its commit).
 */
function onPhone<T>(bot: Bot, key: string, task: (turn: PhoneTurn) => Promise<T>): Promise<T> {
	const { db, clock, log } = bot.ctx
	return bot.queue.run(key, async () => {
		const deadline = performance.now() + PHONE_WAIT_MS
		let turn = await takePhone(db, key, bot.holder, clock.now(), PHONE_LEASE_MS)
		while (!turn) {
			if (performance.now() > deadline) throw new Error(`O telefone ${key} seguiu ocupado por outra instância do portal.`)
			await Bun.sleep(PHONE_RETRY_MS)
			turn = await takePhone(db, key, bot.holder, clock.now(), PHONE_LEASE_MS)
		}
		const held = turn
		try {
			return await task(held)
		} finally {
			if (!held.released)
				await releasePhone(db, held, clock.now().toISOString()).catch((error) =>
					log('bot.release_failed', { phoneKey: held.key, message: String((error as Error)?.message ?? error) })
				)
		}
	})
}

/** What the bot state records of an event: its time, at most once a second per process, and what `values` add. */
function lastEvent(bot: Bot, values: Parameters<typeof writeBotState>[1] = {}): Parameters<typeof writeBotState>[1] | null {
	const now = bot.ctx.clock.now()
	if (Object.keys(values).length === 0 && now.getTime() - bot.lastEventWrittenMs < 1000) return null
	bot.lastEventWrittenMs = now.getTime()
	return { last_event_at: now.toISOString(), ...values }
}

/**
 * A client's message: the facts, the decision, the effects of other modules, the replies out, then the session, the
 * bot's own effects, the message off the inbox (`handled`) and the phone given back in one transaction. Answers the
 * texts that went out.
 */
async function fromClient(bot: Bot, turn: PhoneTurn, from: string, text: string, handled: number | null): Promise<string[]> {
	const { db, clock } = bot.ctx
	const now = clock.now()
	const message = { key: phoneKey(from), phone: normalisedPhone(from), text }
	const previous = await readSession(db, message.key)
	const decision = decide(previous, message, await loadFacts(db, previous, message, now, turn.toldTextOnly))
	turn.toldTextOnly = decision.toldTextOnly
	const replies = [...decision.replies, ...(await applyOtherModulesEffects(bot.ctx, decision.effects))]
	const sent = decision.session && replies.length ? await sendReplies(bot, turn, decision.session.phone, replies) : []
	await commit(bot, turn, decision.session, decision.effects, handled)
	return sent
}

/** A fromMe message: the echo of any send of the portal, or a person typing on the linked phone. */
async function fromLinkedPhone(bot: Bot, turn: PhoneTurn, phone: string, id: string, handled: number) {
	await ((await isOwnSend(bot.ctx.db, phone, id)) ? commit(bot, turn, null, [], handled) : attendantWrote(bot, turn, phone, handled))
}

/** A person has the conversation: paused, nobody waiting any more. */
async function attendantWrote(bot: Bot, turn: PhoneTurn, from: string, handled: number | null) {
	const now = bot.ctx.clock.now()
	const who = { key: phoneKey(from), phone: normalisedPhone(from) }
	const session = (await readSession(bot.ctx.db, who.key)) ?? freshSession(who, now.toISOString())
	return commit(bot, turn, pausedSession(session, now), [], handled)
}

/**
 * POST /api/whatsapp/simulate-attendant-message: an administrador answers from the portal. The text goes to the
 * client through the gateway as the attendant's, and the bot leaves the conversation to people, as when an
 * attendant writes on the linked phone (paused, nobody waiting). A send that fails changes nothing.
 */
async function answerAsAttendant(bot: Bot, phone: string, message: string): Promise<void> {
	const client = await bot.gateway()
	if (!client) throw unprocessable('Configure a Evolution API (Notificações › API) para enviar a mensagem ao cliente.')
	return onPhone(bot, phoneKey(phone), async (turn) => {
		try {
			await client.sendText(phone, message)
		} catch (error) {
			if (error instanceof EvolutionError) throw new AppError(502, `A mensagem não foi enviada ao cliente: ${error.message}`, 'WHATSAPP')
			throw error
		}
		await attendantWrote(bot, turn, phone, null)
	})
}

/**
 * What one message changed, written with the other messages handled at the same moment (`GroupCommit`), the message
 * off the inbox (`handled`) and the phone given back with what it was told and sent. A turn that passed to another
 * instance meanwhile (this one stalled past its lease) writes nothing but the message's removal: the other instance
 * has the phone now, and the message's replies went out from here.
 */
async function commit(bot: Bot, turn: PhoneTurn, session: Session | null, effects: Effect[] = [], handled: number | null = null) {
	const at = bot.ctx.clock.now().toISOString()
	await bot.commits.add(async (tx) => {
		if (handled !== null) await removeFromInbox(tx, handled)
		if (!(await releasePhone(tx, turn, at))) {
			bot.ctx.log('bot.turn_lost', { phoneKey: turn.key })
			return
		}
		if (session) await saveSession(tx, session)
		await writeBotEffects(tx, bot.ctx.clock, effects)
	})
	turn.released = true
}

/** Counts a reply to the phone; true when it goes over the limit of the last minute. */
function countReply(turn: PhoneTurn, nowMs: number): boolean {
	turn.replies = [...turn.replies.filter((at) => nowMs - at < 60_000), nowMs].slice(-(REPLIES_PER_MINUTE + 1))
	return turn.replies.length > REPLIES_PER_MINUTE
}

/** Sends the replies, unless the bot is off or the phone is paused, within the reply limit; answers the texts that went out. */
async function sendReplies(bot: Bot, turn: PhoneTurn, phone: string, replies: string[]): Promise<string[]> {
	const { db, clock, log } = bot.ctx
	const sent: string[] = []
	const client = await bot.gateway()
	if (!client) {
		if (replies.length) log('bot.no_gateway', { replies: replies.length })
		return sent
	}
	for (const [i, reply] of replies.entries()) {
		// The decision read both just now; between replies (each after its "typing…") the bot may be switched off or a person take over.
		if (i > 0 && (!(await botEnabled(db)) || isPaused(await readSession(db, turn.key), clock.now().toISOString()))) break
		const overLimit = countReply(turn, clock.now().getTime())
		if (overLimit) log('bot.rate_limited', { phoneKey: turn.key })
		const { text, toldToWait } = paced(reply, overLimit, turn.toldToWait)
		turn.toldToWait = toldToWait
		if (text === null) break
		try {
			await client.sendText(phone, text, { delayMs: typingDelayMs(text) })
			sent.push(text)
		} catch (error) {
			if (!(error instanceof EvolutionError)) throw error
			log('bot.send_failed', { code: error.code, message: error.message })
			break
		}
		if (text !== reply) break
	}
	return sent
}

/** One chain per phone: its messages are handled in order, and an echo waits for the send that caused it. */
class PhoneQueue {
	private readonly chains = new Map<string, Promise<unknown>>()
	private inFlight = 0
	private idleWaiters: (() => void)[] = []

	constructor(private readonly log: Logger) {}

	/** Nothing of the phone is queued or under way in this process. */
	isIdle(key: string): boolean {
		return !this.chains.has(key)
	}

	run<T>(key: string, task: () => Promise<T>): Promise<T> {
		this.inFlight++
		const run = (this.chains.get(key) ?? Promise.resolve()).then(task)
		const settled = run.then(
			() => undefined,
			(error) => this.log('bot.error', { message: String((error as Error)?.message ?? error) })
		)
		this.chains.set(key, settled)
		void settled.then(() => {
			if (this.chains.get(key) === settled) this.chains.delete(key)
			if (--this.inFlight === 0) {
				for (const wake of this.idleWaiters) wake()
				this.idleWaiters = []
			}
		})
		return run
	}

	idle(): Promise<void> {
		return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve))
	}
}

/**
 * The database syncs every commit to disk, so what the webhook records and what the messages handled at the same
 * moment changed are written together in one transaction (a group commit); each caller waits for its write.
 */
interface GroupedWrite {
	work: (tx: Tx) => Promise<unknown>
	resolve: (value: unknown) => void
	reject: (error: unknown) => void
}

class GroupCommit {
	private batch: GroupedWrite[] | null = null
	/** Settles when the last batch started has been written. */
	private written: Promise<void> = Promise.resolve()

	constructor(private readonly db: Db) {}

	add<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			if (!this.batch) {
				const batch: GroupedWrite[] = []
				this.batch = batch
				// One batch at a time, in the order they were made: on PostgreSQL a batch run again after a serialization
				// failure would otherwise commit after a later one, and a phone's messages that came together would be
				// numbered out of the order they came. What arrives meanwhile joins the waiting batch.
				const previous = this.written
				this.written = new Promise<void>((done) =>
					// Outside any job's lease check: other flows' writes share the batch.
					withoutTransactionCheck(() => setImmediate(() => void previous.then(() => this.write(batch)).then(done)))
				)
			}
			this.batch.push({ work, resolve: resolve as (value: unknown) => void, reject })
		})
	}

	private async write(batch: GroupedWrite[]) {
		this.batch = null
		try {
			const results = await writeTransaction(this.db, async (tx) => {
				const out: unknown[] = []
				for (const item of batch) out.push(await item.work(tx))
				return out
			})
			for (const [i, item] of batch.entries()) item.resolve(results[i])
		} catch (error) {
			for (const item of batch) item.reject(error)
		}
	}
}

const GATEWAY_SETTINGS = ['evolution_api_url', 'evolution_instance_name', 'evolution_api_key'] as const

/** The gateway's client, kept while its settings stay the same: a new client would ask the server's version again before every send. */
function cachedGateway(ctx: AppContext): () => Promise<EvolutionClient | null> {
	let cache: { settings: string; client: EvolutionClient | null } | null = null
	return async () => {
		const values = await getSettingsMap(ctx.db, [...GATEWAY_SETTINGS])
		const settings = GATEWAY_SETTINGS.map((k) => values[k]).join('\n')
		if (cache?.settings !== settings) cache = { settings, client: await evolutionGateway(ctx) }
		return cache.client
	}
}

/** The secret Evolution sends with every delivery, generated on first need and kept sealed with the other secrets. */
class WebhookSecret {
	private opened: { sealed: string; open: Buffer } | null = null

	constructor(private readonly ctx: AppContext) {}

	async value(): Promise<string> {
		const { db, clock, secrets } = this.ctx
		if (!(await getSetting(db, 'bot_webhook_secret'))) {
			// Two first needs at once (two requests, two instances) must end with one secret: the first one stored.
			await writeTransaction(db, async (tx) => {
				if (await getSetting(tx, 'bot_webhook_secret')) return
				await saveSettings(tx, clock, secrets, [{ chave: 'bot_webhook_secret', valor: randomBytes(32).toString('base64url') }])
			})
		}
		return openSetting(db, secrets, 'bot_webhook_secret')
	}

	/** Whether `given` is the secret; `sealed` is the stored secret, as the caller just read it. */
	matches(given: string | null, sealed: string): boolean {
		if (!given || !sealed) return false
		if (this.opened?.sealed !== sealed) this.opened = { sealed, open: Buffer.from(this.ctx.secrets.open(sealed)) }
		return this.matchesLastRead(given)
	}

	/** Whether `given` is the secret as this process last read it. */
	matchesLastRead(given: string | null): boolean {
		if (!given || !this.opened) return false
		const a = Buffer.from(given)
		return a.length === this.opened.open.length && timingSafeEqual(a, this.opened.open)
	}
}

async function configureWebhook(bot: Bot): Promise<void> {
	const { db, clock } = bot.ctx
	const at = clock.now().toISOString()
	const client = await bot.gateway()
	if (!client)
		return writeBotState(db, {
			webhook_status: 'sem_gateway',
			webhook_message: 'Configure a Evolution API (Notificações › API).',
			webhook_at: at
		})
	const urls = await webhookUrls(bot)
	if (!urls.url)
		return writeBotState(db, {
			webhook_status: 'sem_url',
			webhook_message: 'Defina PUBLIC_URL para o portal configurar o webhook sozinho.',
			webhook_at: at
		})
	try {
		const plan = webhookPlan((await client.serverInfo()).version)
		if (!plan.served) return writeBotState(db, { webhook_status: 'erro', webhook_message: plan.message, webhook_at: at })
		// Before 2.1.1 Evolution sends no headers: the secret travels in the URL.
		await client.setWebhook({
			url: plan.headers ? urls.url : urls.urlWithToken!,
			headers: { [BOT_WEBHOOK_HEADER]: await bot.secret.value() },
			events: [...BOT_WEBHOOK_EVENTS],
			enabled: true
		})
		await writeBotState(db, { webhook_status: 'configurado', webhook_message: null, webhook_at: at })
	} catch (error) {
		if (!(error instanceof EvolutionError)) throw error
		await writeBotState(db, { webhook_status: 'erro', webhook_message: error.message, webhook_at: at })
	}
}

async function webhookUrls(bot: Bot) {
	const origin = bot.ctx.config.publicOrigin
	const url = origin ? `${origin}/api/whatsapp/webhook` : null
	return { url, urlWithToken: url ? `${url}?token=${encodeURIComponent(await bot.secret.value())}` : null }
}

/** GET /api/whatsapp/bot/status: the sessions, whether the gateway is really connected and hearing, and the webhook. */
async function monitor(bot: Bot): Promise<BotMonitor> {
	const { db, clock } = bot.ctx
	const now = clock.now()
	const s = await readBotState(db)
	const list = await listSessions(db, now)
	let live: string | null = null
	const client = await bot.gateway()
	if (client)
		live = await client.connectionState().then(
			(r) => r.state,
			() => null
		)
	const connection = live ?? s?.connection_state ?? null
	const silent = !s?.last_event_at || now.getTime() - Date.parse(s.last_event_at) > BOT_SILENCE_WARNING_MS
	const warning =
		s?.webhook_status === 'erro'
			? `Não foi possível configurar o webhook na instância: ${s.webhook_message}`
			: connection === 'open' && silent
				? 'O WhatsApp está conectado, mas nenhum evento chegou ao portal nos últimos 30 minutos: confira o webhook da instância.'
				: null
	const urls = await webhookUrls(bot)
	return {
		enabled: s?.enabled === true,
		activeSessions: list.length,
		sessions: list,
		connection: { state: connection, at: live ? now.toISOString() : (s?.connection_at ?? null) },
		lastEventAt: s?.last_event_at ?? null,
		warning,
		webhook: {
			path: '/api/whatsapp/webhook',
			url: urls.url,
			urlWithToken: urls.urlWithToken,
			header: BOT_WEBHOOK_HEADER,
			secret: await bot.secret.value(),
			events: [...BOT_WEBHOOK_EVENTS],
			status: s?.webhook_status ?? null,
			message: s?.webhook_message ?? null,
			at: s?.webhook_at ?? null
		}
	}
}
