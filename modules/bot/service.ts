import { randomBytes, timingSafeEqual } from 'node:crypto'
import { asc, desc, eq, gt, lt, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { AppError, type AppContext, SlidingWindow, unauthorized, unprocessable, writeTransaction } from '../core/server'
import { EvolutionError, normaliseBrazilianPhone, parseEvolutionEvent, phoneKey, webhookPlan, withoutBinaryFields } from '../evolution'
import { logActivity } from '../activity'
import { companies } from '../companies'
import { evolutionGateway, isOwnSend, notifyUsers, ownSends } from '../messaging'
import { getSetting, openSetting, saveSettings } from '../settings'
import { PAUSE_MS, SESSION_IDLE_MS, type Session, converse, freshSession, isPaused, readSession, saveSession } from './conversation'
import { words } from './messages'
import {
	BOT_SILENCE_WARNING_MS,
	BOT_WAITING_FLAG_MS,
	BOT_WEBHOOK_EVENTS,
	BOT_WEBHOOK_HEADER,
	type BotMonitor,
	type BotSession,
	formatSessionPhone
} from './model'
import { botCnpjAttempts, botSeenMessages, botSessions, botState } from './schema'

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
/** Seen message ids, own send ids and CNPJ attempts are kept this long. */
const KEEP_MS = 2 * 24 * 3_600_000

/** "Typing…" before a reply, as a person would: longer texts take longer, within 0.8–3 s. */
export const typingDelayMs = (text: string) => Math.min(3000, Math.max(800, text.length * 25))

export type BotService = ReturnType<typeof createBotService>

export function createBotService(ctx: AppContext) {
	const { db, clock } = ctx
	/** One chain per phone: its messages are handled in order, and an echo waits for the send that caused it. */
	const chains = new Map<string, Promise<unknown>>()
	const replies = new SlidingWindow(60_000, REPLIES_PER_MINUTE)
	let inFlight = 0
	let idleWaiters: (() => void)[] = []
	let secretCache: { sealed: string; open: Buffer } | null = null

	function state() {
		return db.select().from(botState).where(eq(botState.id, 1)).get() ?? null
	}
	function setState(values: Partial<typeof botState.$inferInsert>) {
		db.insert(botState)
			.values({ id: 1, ...values })
			.onConflictDoUpdate({ target: botState.id, set: values })
			.run()
	}
	const enabled = () => state()?.enabled === true

	/**
	 * The gateway's client, kept while its settings stay the same: a new client would ask the server's version
	 * again before every send.
	 */
	let gatewayCache: { settings: string; client: ReturnType<typeof evolutionGateway> } | null = null
	function gateway() {
		const settings = ['evolution_api_url', 'evolution_instance_name', 'evolution_api_key']
			.map((k) => getSetting(db, k as 'evolution_api_url'))
			.join('\n')
		if (gatewayCache?.settings !== settings) gatewayCache = { settings, client: evolutionGateway(ctx) }
		return gatewayCache.client
	}

	/** The time of the last event is written at most once a second: the webhook stays one insert per message. */
	let lastEventWrittenMs = 0
	function eventArrived(values: Partial<typeof botState.$inferInsert> = {}) {
		const now = clock.now()
		if (Object.keys(values).length === 0 && now.getTime() - lastEventWrittenMs < 1000) return
		lastEventWrittenMs = now.getTime()
		setState({ last_event_at: now.toISOString(), ...values })
	}

	/** The secret Evolution sends with every delivery, generated on first need and kept sealed with the other secrets. */
	function webhookSecret(): string {
		const sealed = getSetting(db, 'bot_webhook_secret')
		if (sealed) return openSetting(db, ctx.secrets, 'bot_webhook_secret')
		const secret = randomBytes(32).toString('base64url')
		saveSettings(db, clock, ctx.secrets, [{ chave: 'bot_webhook_secret', valor: secret }])
		return secret
	}

	function secretMatches(given: string | null): boolean {
		const sealed = getSetting(db, 'bot_webhook_secret')
		if (!given || !sealed) return false
		if (secretCache?.sealed !== sealed) secretCache = { sealed, open: Buffer.from(openSetting(db, ctx.secrets, 'bot_webhook_secret')) }
		const a = Buffer.from(given)
		return a.length === secretCache.open.length && timingSafeEqual(a, secretCache.open)
	}

	function enqueue<T>(key: string, task: () => Promise<T>): Promise<T> {
		inFlight++
		const run = (chains.get(key) ?? Promise.resolve()).then(task)
		const settled = run.then(
			() => undefined,
			(error) => ctx.log('bot.error', { message: String((error as Error)?.message ?? error) })
		)
		chains.set(key, settled)
		void settled.then(() => {
			if (chains.get(key) === settled) chains.delete(key)
			if (--inFlight === 0) {
				for (const wake of idleWaiters) wake()
				idleWaiters = []
			}
		})
		return run
	}

	/**
	 * What one message changed: the session and the message's id as handled (the gateway records the replies' ids). The
	 * database syncs every commit to disk, so the changes of the messages handled at the same moment are written
	 * together in one transaction (a group commit); each phone's next message waits for its write.
	 */
	let batch: { work: ((tx: Tx) => void)[]; done: Promise<void> } | null = null
	function commit(session: Session | null, messageId: string | null, also?: (tx: Tx) => void): Promise<void> {
		const at = clock.now().toISOString()
		if (!batch) {
			const work: ((tx: Tx) => void)[] = []
			const done = new Promise<void>((resolve, reject) =>
				setImmediate(() => {
					batch = null
					try {
						writeTransaction(db, (tx) => {
							for (const w of work) w(tx)
						})
						resolve()
					} catch (error) {
						reject(error)
					}
				})
			)
			batch = { work, done }
		}
		batch.work.push((tx) => {
			if (session) saveSession(tx, session)
			if (messageId) tx.insert(botSeenMessages).values({ id: messageId, at }).onConflictDoNothing().run()
			also?.(tx)
		})
		return batch.done
	}

	/** Sends the replies, unless the bot is off or the phone is paused; answers the texts that went out. */
	async function send(phone: string, texts: string[]): Promise<{ texts: string[] }> {
		const out = { texts: [] as string[] }
		const client = gateway()
		if (!client) {
			if (texts.length) ctx.log('bot.no_gateway', { replies: texts.length })
			return out
		}
		const key = phoneKey(phone)
		for (const reply of texts) {
			if (!enabled() || isPaused(readSession(db, key), clock.now().toISOString())) break
			let text = reply
			if (replies.hit(key, clock.now().getTime())) {
				ctx.log('bot.rate_limited', { phoneKey: key })
				// Stopped: said once, then silence until the phone writes at a person's pace again.
				if (!tellSlowDown(key)) break
				text = words.slowDown
			} else toldSlowDown.delete(key)
			try {
				await client.sendText(phone, text, { delayMs: typingDelayMs(text) })
				out.texts.push(text)
			} catch (error) {
				if (!(error instanceof EvolutionError)) throw error
				ctx.log('bot.send_failed', { code: error.code, message: error.message })
				break
			}
			if (text !== reply) break
		}
		return out
	}

	/** Phones told "aguarde um instante" since they last went over the reply limit. */
	const toldSlowDown = new Set<string>()
	function tellSlowDown(key: string): boolean {
		if (toldSlowDown.has(key)) return false
		if (toldSlowDown.size >= 10_000) toldSlowDown.clear()
		toldSlowDown.add(key)
		return true
	}

	/** Phones told "só entendo texto" in their current session (a new session after 30 idle minutes may be told again). */
	const toldTextOnly = new Map<string, number>()
	function tellTextOnly(key: string, nowMs: number): boolean {
		if (toldTextOnly.has(key)) return false
		if (toldTextOnly.size >= 10_000) for (const [k, at] of toldTextOnly) if (nowMs - at > SESSION_IDLE_MS) toldTextOnly.delete(k)
		toldTextOnly.set(key, nowMs)
		return true
	}

	/** A client's message: through the conversation, then the replies out. */
	async function fromClient(phone: string, text: string, messageId: string | null): Promise<string[]> {
		const key = phoneKey(phone)
		const now = clock.now()
		const nowIso = now.toISOString()
		const previous = readSession(db, key)
		if ((previous?.blocked_until && previous.blocked_until > nowIso) || !enabled()) {
			await commit(null, messageId)
			return []
		}
		if (previous && isPaused(previous, nowIso)) {
			await commit({ ...previous, last_activity: nowIso, waiting_since: previous.waiting_since ?? nowIso }, messageId)
			return []
		}
		const idle = !previous || now.getTime() - Date.parse(previous.last_activity) > SESSION_IDLE_MS
		const session = idle ? freshSession(key, phone, nowIso, previous) : { ...previous, paused_until: null, waiting_since: null }
		if (idle) toldTextOnly.delete(key)
		if (text.trim() === '') {
			// A sticker, an audio, a location, a contact: no step moves; one polite word per session at most.
			const sent = await send(session.phone, tellTextOnly(key, now.getTime()) ? [words.textOnly] : [])
			await commit({ ...session, last_activity: nowIso }, messageId)
			return sent.texts
		}
		const { session: next, outcome } = converse(ctx, session, text)
		const sent = await send(next.phone, outcome.replies)
		if (!outcome.pause) await commit(next, messageId)
		// Option 5: the client waits for a person from now, and the people who can answer are told.
		else await commit({ ...paused(next), waiting_since: nowIso }, messageId, (tx) => attendantRequested(tx, next))
		return sent.texts
	}

	/** A top-bar notification to the administradores and the company's representative, and a line in the activity log. */
	function attendantRequested(tx: Tx, s: Session) {
		const company = s.empresa_codigo
			? tx
					.select({ razao: companies.razao, rep: companies.cnpj_representante })
					.from(companies)
					.where(eq(companies.codigo, s.empresa_codigo))
					.get()
			: undefined
		const telefone = formatSessionPhone(s.phone)
		const empresa = company?.razao ?? 'empresa não identificada'
		notifyUsers(
			tx,
			clock,
			{ administradores: true, representanteCnpj: company?.rep },
			'Cliente aguardando atendente',
			`${telefone} (${empresa}) pediu para falar com um atendente no WhatsApp.`,
			'warning'
		)
		logActivity(
			tx,
			clock,
			'whatsapp.attendant-requested',
			{ telefone, empresa },
			{
				actorName: 'Bot WhatsApp',
				entityId: s.phone,
				representanteCnpj: company?.rep ?? null
			}
		)
	}

	/** A person has the conversation: the bot stays quiet for 12 hours after it (or until resumed). */
	function paused(s: Session): Session {
		const now = clock.now()
		return { ...s, paused_until: new Date(now.getTime() + PAUSE_MS).toISOString(), waiting_since: null, last_activity: now.toISOString() }
	}
	function pause(phone: string, messageId: string | null) {
		const key = phoneKey(phone)
		return commit(paused(readSession(db, key) ?? freshSession(key, phone, clock.now().toISOString())), messageId)
	}

	/** A fromMe message: the echo of any send of the portal, or a person typing on the linked phone. */
	async function fromLinkedPhone(phone: string, id: string) {
		await ((await isOwnSend(db, phone, id)) ? commit(null, id) : pause(phone, id))
	}

	/** Ids received and queued, not yet committed as handled: a redelivery meanwhile is caught here. */
	const receiving = new Set<string>()

	/**
	 * POST /api/whatsapp/webhook: checks the secret (401 without it), reads the event, records what the gateway said
	 * and queues a new message for its phone; answers at once, writing nothing for a message (its id is recorded
	 * as handled with the rest of what it changed). A repeated `data.key.id` is handled once.
	 */
	function receive(token: string | null, body: unknown): { received: boolean } {
		if (!secretMatches(token)) throw unauthorized('Token do webhook inválido.')
		const slim = withoutBinaryFields(body)
		if (Buffer.byteLength(JSON.stringify(slim) ?? '') > WEBHOOK_EVENT_LIMIT) {
			throw new AppError(413, 'O evento da Evolution excede 64 KB mesmo sem as miniaturas e as chaves de mídia.', 'PAYLOAD_TOO_LARGE')
		}
		const event = parseEvolutionEvent(slim)
		if (event.kind === 'ignored') return { received: false }
		if (event.instance !== getSetting(db, 'evolution_instance_name')) return { received: false }
		const nowIso = clock.now().toISOString()
		if (event.kind === 'connection') {
			eventArrived({ connection_state: event.state, connection_at: nowIso })
			return { received: true }
		}
		eventArrived()
		if (event.kind === 'sent') return { received: true }
		if (
			receiving.has(event.id) ||
			db.select({ id: botSeenMessages.id }).from(botSeenMessages).where(eq(botSeenMessages.id, event.id)).get()
		)
			return { received: true }
		receiving.add(event.id)
		const key = phoneKey(event.phone)
		void enqueue(key, async () => {
			try {
				if (event.fromMe) await fromLinkedPhone(event.phone, event.id)
				else await fromClient(event.phone, event.text, event.id)
			} finally {
				receiving.delete(event.id)
			}
		}).catch(() => undefined) // logged by enqueue
		return { received: true }
	}

	async function configureWebhook(): Promise<void> {
		const at = clock.now().toISOString()
		const client = gateway()
		if (!client)
			return setState({ webhook_status: 'sem_gateway', webhook_message: 'Configure a Evolution API (Notificações › API).', webhook_at: at })
		const urls = webhookUrls()
		if (!urls.url)
			return setState({
				webhook_status: 'sem_url',
				webhook_message: 'Defina PUBLIC_URL para o portal configurar o webhook sozinho.',
				webhook_at: at
			})
		try {
			const plan = webhookPlan((await client.serverInfo()).version)
			if (!plan.served) return setState({ webhook_status: 'erro', webhook_message: plan.message, webhook_at: at })
			// Before 2.1.1 Evolution sends no headers: the secret travels in the URL.
			await client.setWebhook({
				url: plan.headers ? urls.url : urls.urlWithToken!,
				headers: { [BOT_WEBHOOK_HEADER]: webhookSecret() },
				events: [...BOT_WEBHOOK_EVENTS],
				enabled: true
			})
			setState({ webhook_status: 'configurado', webhook_message: null, webhook_at: at })
		} catch (error) {
			if (!(error instanceof EvolutionError)) throw error
			setState({ webhook_status: 'erro', webhook_message: error.message, webhook_at: at })
		}
	}

	function webhookUrls() {
		const origin = ctx.config.publicOrigin
		const url = origin ? `${origin}/api/whatsapp/webhook` : null
		return { url, urlWithToken: url ? `${url}?token=${encodeURIComponent(webhookSecret())}` : null }
	}

	function sessionView(s: typeof botSessions.$inferSelect, now: Date): BotSession {
		const nowIso = now.toISOString()
		const paused = isPaused(s, nowIso)
		const waitingSince = paused ? s.waiting_since : null
		return {
			phone: s.phone,
			cnpj: s.cnpj,
			step: s.step,
			lastActivity: s.last_activity,
			isPaused: paused,
			pausedUntil: paused ? s.paused_until : null,
			waitingSince,
			waitingTooLong: !!waitingSince && now.getTime() - Date.parse(waitingSince) > BOT_WAITING_FLAG_MS
		}
	}

	/** The conversations of the last 30 minutes and the paused ones: clients waiting for a person first (longest wait first), then newest first. */
	function sessions(): BotSession[] {
		const now = clock.now()
		const nowIso = now.toISOString()
		const since = new Date(now.getTime() - SESSION_IDLE_MS).toISOString()
		return db
			.select()
			.from(botSessions)
			.where(or(gt(botSessions.last_activity, since), gt(botSessions.paused_until, nowIso)))
			.orderBy(desc(botSessions.last_activity))
			.limit(500)
			.all()
			.map((s) => sessionView(s, now))
			.sort((a, b) => (a.waitingSince ?? '\uffff').localeCompare(b.waitingSince ?? '\uffff'))
	}

	/** The paused conversations: clients waiting for a person first (longest wait first), then newest first. */
	function pausedPhones(): string[] {
		return db
			.select({ phone: botSessions.phone })
			.from(botSessions)
			.where(gt(botSessions.paused_until, clock.now().toISOString()))
			.orderBy(sql`${botSessions.waiting_since} is null`, asc(botSessions.waiting_since), desc(botSessions.last_activity))
			.all()
			.map((r) => r.phone)
	}

	/** A phone as an administrador types it (with or without 55, the ninth digit) → 55 + DDD + number. */
	const typed = (phone: string) => normaliseBrazilianPhone(phone) ?? phone.replace(/\D/g, '')

	return {
		receive,
		/** Checked before the body is read: a sender without the secret never makes the portal read a large body. */
		webhookTokenMatches: secretMatches,
		/** Sets the instance's webhook (URL, secret header, events); the outcome is shown on the monitor. */
		configureWebhook: () => enqueue('webhook', configureWebhook).catch(() => undefined),
		/** Resolves when every queued message has been handled (tests, the benchmark). */
		idle(): Promise<void> {
			return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))
		},
		/** POST /api/whatsapp/bot/test: the message as if the phone sent it; the replies that went out. */
		test(input: string, message: string): Promise<string[]> {
			const phone = typed(input)
			return enqueue(phoneKey(phone), () => fromClient(phone, message, null))
		},
		/**
		 * POST /api/whatsapp/simulate-attendant-message: an administrador answers from the portal. The text goes to the
		 * client through the gateway as the attendant's, and the bot leaves the conversation to people, as when an
		 * attendant writes on the linked phone (paused, nobody waiting). A send that fails changes nothing.
		 */
		answerAsAttendant(input: string, message: string): Promise<void> {
			const phone = typed(input)
			const client = gateway()
			if (!client) throw unprocessable('Configure a Evolution API (Notificações › API) para enviar a mensagem ao cliente.')
			return enqueue(phoneKey(phone), async () => {
				try {
					await client.sendText(phone, message)
				} catch (error) {
					if (error instanceof EvolutionError)
						throw new AppError(502, `A mensagem não foi enviada ao cliente: ${error.message}`, 'WHATSAPP')
					throw error
				}
				await pause(phone, null)
			})
		},
		resume(input: string): boolean {
			const s = readSession(db, phoneKey(typed(input)))
			if (!s || !isPaused(s, clock.now().toISOString())) return false
			saveSession(db, { ...s, paused_until: null, waiting_since: null })
			return true
		},
		enabled,
		async setEnabled(on: boolean) {
			setState({ enabled: on })
			if (on) await configureWebhook()
		},
		sessions,
		pausedPhones,
		status() {
			return { enabled: enabled(), activeSessions: sessions().length, pausedConversations: pausedPhones().length }
		},
		async monitor(): Promise<BotMonitor> {
			const now = clock.now()
			const s = state()
			const list = sessions()
			let live: string | null = null
			const client = gateway()
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
			const urls = webhookUrls()
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
					secret: webhookSecret(),
					events: [...BOT_WEBHOOK_EVENTS],
					status: s?.webhook_status ?? null,
					message: s?.webhook_message ?? null,
					at: s?.webhook_at ?? null
				}
			}
		}
	}
}

/** Forgets seen ids, own send ids and CNPJ attempts older than two days (the hourly job). */
export function sweepBotRecords(db: Db, now: Date) {
	const before = new Date(now.getTime() - KEEP_MS).toISOString()
	db.delete(botSeenMessages).where(lt(botSeenMessages.at, before)).run()
	db.delete(ownSends).where(lt(ownSends.at, before)).run()
	db.delete(botCnpjAttempts).where(lt(botCnpjAttempts.at, before)).run()
	return before
}
