/**
 * The bot's runner: the webhook's events in, one phone at a time across every portal instance; for a client's
 * message it reads the facts, lets conversation.ts decide, does the effects and sends the replies; the monitor and the
 * instance's webhook. What it keeps in memory is in `Bot` (nothing another instance needs); what it reads and writes
 * in the database is in store.ts.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Db, Tx } from '../../db/client'
import { AppError, type AppContext, type Logger, unauthorized, unprocessable, writeTransaction } from '../core/server'
import { type EvolutionClient, EvolutionError, parseEvolutionEvent, phoneKey, webhookPlan, withoutBinaryFields } from '../evolution'
import { evolutionGateway, isOwnSend } from '../messaging'
import { getSetting, openSetting, saveSettings } from '../settings'
import { type Effect, type Session, decide, freshSession, isPaused, paced, pausedSession, resumedSession } from './conversation'
import { BOT_SILENCE_WARNING_MS, BOT_WEBHOOK_EVENTS, BOT_WEBHOOK_HEADER, type BotMonitor } from './model'
import {
	type PhoneTurn,
	applyOtherModulesEffects,
	botEnabled,
	claimMessage,
	listSessions,
	loadFacts,
	normalisedPhone,
	pausedPhones,
	readBotState,
	readSession,
	releasePhone,
	saveSession,
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
	/** The time of the last event is written at most once a second, per process. */
	lastEventWrittenMs: number
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
		lastEventWrittenMs: 0
	}
	return {
		receive: (token: string | null, body: unknown) => receive(bot, token, body),
		/** Checked before the body is read: a sender without the secret never makes the portal read a large body. */
		webhookTokenMatches: (token: string | null) => bot.secret.matches(token),
		/** Sets the instance's webhook (URL, secret header, events); the outcome is shown on the monitor. */
		configureWebhook: () => bot.queue.run('webhook', () => configureWebhook(bot)).catch(() => undefined),
		/** Resolves when every queued message has been handled (tests, the benchmark). */
		idle: () => bot.queue.idle(),
		/** POST /api/whatsapp/bot/test: the message as if the phone sent it; the replies that went out. */
		test(input: string, message: string): Promise<string[]> {
			const phone = normalisedPhone(input)
			return onPhone(bot, phoneKey(phone), (turn) => fromClient(bot, turn, phone, message))
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
 * POST /api/whatsapp/webhook: checks the secret (401 without it), reads the event, records what the gateway said
 * and queues a new message for its phone; answers at once, writing nothing for a message there. The queued work
 * takes the message's id (a repeated `data.key.id`, delivered to any instance, is handled once) and the phone.
 */
async function receive(bot: Bot, token: string | null, body: unknown): Promise<{ received: boolean }> {
	const { db, clock } = bot.ctx
	if (!(await bot.secret.matches(token))) throw unauthorized('Token do webhook inválido.')
	const slim = withoutBinaryFields(body)
	if (Buffer.byteLength(JSON.stringify(slim) ?? '') > WEBHOOK_EVENT_LIMIT) {
		throw new AppError(413, 'O evento da Evolution excede 64 KB mesmo sem as miniaturas e as chaves de mídia.', 'PAYLOAD_TOO_LARGE')
	}
	const event = parseEvolutionEvent(slim)
	if (event.kind === 'ignored') return { received: false }
	if (event.instance !== (await getSetting(db, 'evolution_instance_name'))) return { received: false }
	const nowIso = clock.now().toISOString()
	if (event.kind === 'connection') {
		await eventArrived(bot, { connection_state: event.state, connection_at: nowIso })
		return { received: true }
	}
	await eventArrived(bot)
	if (event.kind === 'sent') return { received: true }
	const key = phoneKey(event.phone)
	void bot.queue
		.run(key, async () => {
			// The message's id and the phone, taken in one grouped commit: a repeat (here or on another instance) stops here.
			const at = clock.now()
			let claimed = false
			let turn: PhoneTurn | null = null
			await bot.commits.add(async (tx) => {
				claimed = await claimMessage(tx, event.id, at.toISOString())
				if (claimed) turn = await takePhone(tx, key, bot.holder, at, PHONE_LEASE_MS)
			})
			if (!claimed) return
			await withPhone(bot, key, turn, async (held) => {
				if (event.fromMe) await fromLinkedPhone(bot, held, event.phone, event.id)
				else await fromClient(bot, held, event.phone, event.text)
			})
		})
		.catch(() => undefined) // logged by the queue
	return { received: true }
}

/** Runs `task` with the phone: after this process's earlier work on it, and once no other instance handles it. */
function onPhone<T>(bot: Bot, key: string, task: (turn: PhoneTurn) => Promise<T>): Promise<T> {
	return bot.queue.run(key, () => withPhone(bot, key, null, task))
}

/**
 * Runs `task` holding the phone's lease (`taken`, or taken now, waiting while another instance has it), and gives
 * the phone back if the task did not (it failed before its commit).
 */
async function withPhone<T>(bot: Bot, key: string, taken: PhoneTurn | null, task: (turn: PhoneTurn) => Promise<T>): Promise<T> {
	const { db, clock, log } = bot.ctx
	let turn = taken
	const deadline = performance.now() + PHONE_WAIT_MS
	while (!turn) {
		turn = await takePhone(db, key, bot.holder, clock.now(), PHONE_LEASE_MS)
		if (turn) break
		if (performance.now() > deadline) throw new Error(`O telefone ${key} seguiu ocupado por outra instância do portal.`)
		await Bun.sleep(PHONE_RETRY_MS)
	}
	try {
		return await task(turn)
	} finally {
		if (!turn.released) {
			const held = turn
			await releasePhone(db, held, clock.now().toISOString()).catch((error) =>
				log('bot.release_failed', { phoneKey: held.key, message: String((error as Error)?.message ?? error) })
			)
		}
	}
}

async function eventArrived(bot: Bot, values: Parameters<typeof writeBotState>[1] = {}) {
	const now = bot.ctx.clock.now()
	if (Object.keys(values).length === 0 && now.getTime() - bot.lastEventWrittenMs < 1000) return
	bot.lastEventWrittenMs = now.getTime()
	await writeBotState(bot.ctx.db, { last_event_at: now.toISOString(), ...values })
}

/**
 * A client's message: the facts, the decision, the effects of other modules, the replies out, then the session, the
 * bot's own effects and the phone given back in one transaction. Answers the texts that went out.
 */
async function fromClient(bot: Bot, turn: PhoneTurn, from: string, text: string): Promise<string[]> {
	const { db, clock } = bot.ctx
	const now = clock.now()
	const message = { key: phoneKey(from), phone: normalisedPhone(from), text }
	const previous = await readSession(db, message.key)
	const decision = decide(previous, message, await loadFacts(db, previous, message, now, turn.toldTextOnly))
	turn.toldTextOnly = decision.toldTextOnly
	const replies = [...decision.replies, ...(await applyOtherModulesEffects(bot.ctx, decision.effects))]
	const sent = decision.session && replies.length ? await sendReplies(bot, turn, decision.session.phone, replies) : []
	await commit(bot, turn, decision.session, decision.effects)
	return sent
}

/** A fromMe message: the echo of any send of the portal, or a person typing on the linked phone. */
async function fromLinkedPhone(bot: Bot, turn: PhoneTurn, phone: string, id: string) {
	await ((await isOwnSend(bot.ctx.db, phone, id)) ? commit(bot, turn, null) : attendantWrote(bot, turn, phone))
}

/** A person has the conversation: paused, nobody waiting any more. */
async function attendantWrote(bot: Bot, turn: PhoneTurn, from: string) {
	const now = bot.ctx.clock.now()
	const who = { key: phoneKey(from), phone: normalisedPhone(from) }
	const session = (await readSession(bot.ctx.db, who.key)) ?? freshSession(who, now.toISOString())
	return commit(bot, turn, pausedSession(session, now))
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
		await attendantWrote(bot, turn, phone)
	})
}

/**
 * What one message changed, written with the other messages handled at the same moment (`GroupCommit`), and the
 * phone given back with what it was told and sent. A turn that passed to another instance meanwhile (this one
 * stalled past its lease) writes nothing: the other instance has the phone now.
 */
async function commit(bot: Bot, turn: PhoneTurn, session: Session | null, effects: Effect[] = []): Promise<void> {
	const at = bot.ctx.clock.now().toISOString()
	await bot.commits.add(async (tx) => {
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
	for (const reply of replies) {
		if (!(await botEnabled(db)) || isPaused(await readSession(db, turn.key), clock.now().toISOString())) break
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
 * The database syncs every commit to disk, so the changes of the messages handled at the same moment are written
 * together in one transaction (a group commit); each phone's next message waits for its write.
 */
class GroupCommit {
	private batch: { work: ((tx: Tx) => void)[]; done: Promise<void> } | null = null

	constructor(private readonly db: Db) {}

	add(work: (tx: Tx) => Promise<void>): Promise<void> {
		this.batch ??= this.open()
		this.batch.work.push(work)
		return this.batch.done
	}

	private open() {
		const work: ((tx: Tx) => Promise<void>)[] = []
		const done = new Promise<void>((resolve, reject) =>
			setImmediate(async () => {
				this.batch = null
				try {
					await writeTransaction(this.db, async (tx) => {
						for (const w of work) await w(tx)
					})
					resolve()
				} catch (error) {
					reject(error)
				}
			})
		)
		return { work, done }
	}
}

const GATEWAY_SETTINGS = ['evolution_api_url', 'evolution_instance_name', 'evolution_api_key'] as const

/** The gateway's client, kept while its settings stay the same: a new client would ask the server's version again before every send. */
function cachedGateway(ctx: AppContext): () => Promise<EvolutionClient | null> {
	let cache: { settings: string; client: EvolutionClient | null } | null = null
	return async () => {
		const settings = (await Promise.all(GATEWAY_SETTINGS.map((k) => getSetting(ctx.db, k)))).join('\n')
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

	async matches(given: string | null): Promise<boolean> {
		const { db, secrets } = this.ctx
		const sealed = await getSetting(db, 'bot_webhook_secret')
		if (!given || !sealed) return false
		if (this.opened?.sealed !== sealed) this.opened = { sealed, open: Buffer.from(await openSetting(db, secrets, 'bot_webhook_secret')) }
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
