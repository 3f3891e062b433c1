/**
 * What the bot reads and writes in the database: its sessions, the facts a decision needs, the effects it decided,
 * its one state row, the monitor's lists and the hourly sweep. The decisions themselves are conversation.ts's.
 */
import { type SQL, and, asc, desc, eq, gt, gte, isNull, lt, lte, min, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { sqlWriteRows } from '../../db/query'
import { logActivity } from '../activity'
import { openParcelsOfCompany } from '../billing'
import { companies, trustReleaseByBot } from '../companies'
import { type Clock, isValidCnpj } from '../core'
import { type AppContext, writeTransaction } from '../core/server'
import { normaliseBrazilianPhone, samePhone } from '../evolution'
import { notifyUsers, ownSends, setOptOut } from '../messaging'
import { getSettingsMap } from '../settings'
import {
	type CompanyFacts,
	type Effect,
	type Facts,
	type Message,
	SESSION_IDLE_MS,
	type Session,
	cnpjIn,
	isPaused,
	trustReleaseReply
} from './conversation'
import { BOT_WAITING_FLAG_MS, type BotSession, formatSessionPhone } from './model'
import { botCnpjAttempts, botInbox, botPhones, botSeenMessages, botSessions, botState } from './schema'

/** Seen message ids, own send ids and CNPJ attempts are kept this long. */
const KEEP_MS = 2 * 24 * 3_600_000
const HOUR = 3_600_000

export async function readSession(db: DbOrTx, key: string): Promise<Session | undefined> {
	return (await db.select().from(botSessions).where(eq(botSessions.phone_key, key)))[0]
}

export async function saveSession(db: DbOrTx, s: Session) {
	const { phone_key, ...rest } = s
	await db.insert(botSessions).values(s).onConflictDoUpdate({ target: botSessions.phone_key, set: rest })
}

export async function readBotState(db: DbOrTx) {
	return (await db.select().from(botState).where(eq(botState.id, 1)))[0] ?? null
}

export async function writeBotState(db: DbOrTx, values: Partial<typeof botState.$inferInsert>) {
	await db
		.insert(botState)
		.values({ id: 1, ...values })
		.onConflictDoUpdate({ target: botState.id, set: values })
}

export const botEnabled = async (db: DbOrTx) => (await readBotState(db))?.enabled === true

/** A message the webhook took, as the inbox keeps it until it is handled. */
export type InboxMessage = typeof botInbox.$inferSelect

/**
 * Records a message the webhook received, in the transaction the webhook waits for before it answers: its id once
 * (a repeat, delivered here or to another instance, whenever, adds nothing) and the message in the inbox. True for
 * its first delivery.
 */
export async function acceptMessage(
	tx: Tx,
	message: { id: string; phoneKey: string; phone: string; fromMe: boolean; text: string },
	at: string
): Promise<boolean> {
	const first = await tx.insert(botSeenMessages).values({ id: message.id, at }).onConflictDoNothing().returning({ id: botSeenMessages.id })
	if (first.length === 0) return false
	await tx.insert(botInbox).values({
		message_id: message.id,
		phone_key: message.phoneKey,
		phone: message.phone,
		from_me: message.fromMe,
		text: message.text,
		received_at: at
	})
	return true
}

/** Whether the phone has messages waiting in the inbox. */
export async function hasWaitingMessages(db: DbOrTx, key: string): Promise<boolean> {
	return (await db.select({ seq: botInbox.seq }).from(botInbox).where(eq(botInbox.phone_key, key)).limit(1)).length > 0
}

/**
 * Takes the phone (see takePhone) and its oldest waiting message, counted as taken once more. Without a waiting
 * message the phone is given back at once: answers the turn and null then; null alone while another instance (or
 * this one, for another message) has the phone.
 */
export async function takeNextMessage(
	tx: Tx,
	key: string,
	holder: string,
	now: Date,
	leaseMs: number
): Promise<{ turn: PhoneTurn; message: InboxMessage | null } | null> {
	const turn = await takePhone(tx, key, holder, now, leaseMs)
	if (!turn) return null
	const oldest = tx
		.select({ seq: min(botInbox.seq) })
		.from(botInbox)
		.where(eq(botInbox.phone_key, key))
	const message = (
		await tx
			.update(botInbox)
			.set({ takes: sql`${botInbox.takes} + 1` })
			.where(eq(botInbox.seq, oldest))
			.returning()
	)[0]
	if (!message) {
		turn.released = await releasePhone(tx, turn, now.toISOString())
		return { turn, message: null }
	}
	return { turn, message }
}

/** The message handled (or given up): off the inbox, in the transaction that gives the phone back. */
export async function removeFromInbox(tx: Tx, seq: number) {
	await tx.delete(botInbox).where(eq(botInbox.seq, seq))
}

/**
 * Phones with a message that has waited at least `waitedMs` and that no instance holds: their instance died after the
 * webhook answered, or gave up waiting for the phone. Oldest first.
 */
export async function phonesLeftWaiting(db: Db, now: Date, waitedMs: number, limit = 200): Promise<string[]> {
	const nowIso = now.toISOString()
	const rows = await db
		.select({ key: botInbox.phone_key })
		.from(botInbox)
		.leftJoin(botPhones, eq(botPhones.phone_key, botInbox.phone_key))
		.where(
			and(
				lte(botInbox.received_at, new Date(now.getTime() - waitedMs).toISOString()),
				or(isNull(botPhones.lease_until), lte(botPhones.lease_until, nowIso))
			)
		)
		.groupBy(botInbox.phone_key)
		.orderBy(asc(min(botInbox.seq)))
		.limit(limit)
	return rows.map((r) => r.key)
}

/** One instance's turn at a phone: the lease's token and what the phone was told and sent, as the runner keeps them. */
export interface PhoneTurn {
	key: string
	token: number
	toldTextOnly: boolean
	toldToWait: boolean
	/** The times (ms) of the replies sent to the phone in the last minute, oldest first. */
	replies: number[]
	/** Given back (with the message's writes, or after a failure): the phone is free for the next message. */
	released: boolean
}

/**
 * Takes the phone for `holder` when no instance handles it (or its holder's lease ran out): the turn, or null while
 * another instance (or this one, for another message) has it.
 */
export async function takePhone(db: DbOrTx, key: string, holder: string, now: Date, leaseMs: number): Promise<PhoneTurn | null> {
	const at = now.toISOString()
	const row = (
		await sqlWriteRows<{ token: number; told_text_only: unknown; told_to_wait: unknown; replies: string }>(
			db,
			sql`
		insert into bot_phones (phone_key, holder, token, lease_until, updated_at)
		values (${key}, ${holder}, 1, ${new Date(now.getTime() + leaseMs).toISOString()}, ${at})
		on conflict (phone_key) do update set holder = excluded.holder, token = bot_phones.token + 1,
			lease_until = excluded.lease_until, updated_at = excluded.updated_at
		where bot_phones.lease_until is null or bot_phones.lease_until <= ${at}
		returning token, told_text_only, told_to_wait, replies`
		)
	)[0]
	if (!row) return null
	return {
		key,
		token: Number(row.token),
		toldTextOnly: Boolean(row.told_text_only),
		toldToWait: Boolean(row.told_to_wait),
		replies: JSON.parse(row.replies) as number[],
		released: false
	}
}

/**
 * Gives the phone back with what it was told and sent, in the transaction of the message's writes: false (and the
 * caller writes nothing) when the turn is no longer this one's, the lease having run out and passed to another instance.
 */
export async function releasePhone(db: DbOrTx, turn: PhoneTurn, at: string): Promise<boolean> {
	const released = await db
		.update(botPhones)
		.set({
			holder: null,
			lease_until: null,
			told_text_only: turn.toldTextOnly,
			told_to_wait: turn.toldToWait,
			replies: JSON.stringify(turn.replies),
			updated_at: at
		})
		.where(and(eq(botPhones.phone_key, turn.key), eq(botPhones.token, turn.token)))
		.returning({ key: botPhones.phone_key })
	return released.length === 1
}

/** A phone as WhatsApp or an administrador gives it → 55 + DDD + number (the ninth digit restored). */
export const normalisedPhone = (phone: string) => normaliseBrazilianPhone(phone) ?? phone.replace(/\D/g, '')

/** The company a condition finds, with whether `phone` is its registered phone (compared with the ninth-digit rule). */
async function companyFacts(db: Db, where: SQL, phone: string): Promise<CompanyFacts | null> {
	const company = (await db.select().from(companies).where(where))[0]
	if (!company) return null
	const fone = company.fone ? normaliseBrazilianPhone(company.fone) : null
	return { ...company, phoneRegistered: !!fone && samePhone(fone, phone) }
}

/** The different CNPJs a phone typed since an instant. */
async function cnpjsTypedSince(db: Db, key: string, since: string): Promise<string[]> {
	return (
		await db
			.selectDistinct({ cnpj: botCnpjAttempts.cnpj })
			.from(botCnpjAttempts)
			.where(and(eq(botCnpjAttempts.phone_key, key), gte(botCnpjAttempts.at, since)))
	).map((r) => r.cnpj)
}

/** Everything `decide` may need for this message (conversation.ts says why all of it is read at once). */
export async function loadFacts(db: Db, previous: Session | undefined, message: Message, now: Date, toldTextOnly: boolean): Promise<Facts> {
	const cnpj = cnpjIn(message.text)
	const valid = cnpj !== null && isValidCnpj(cnpj)
	const sessionCompany = previous?.empresa_codigo
		? await companyFacts(db, eq(companies.codigo, previous.empresa_codigo), message.phone)
		: null
	const settings = await getSettingsMap(db, ['app.fornecedor_nome', 'bot_chave_pix'])
	return {
		now,
		enabled: await botEnabled(db),
		sessionCompany,
		namedCompany: valid ? await companyFacts(db, eq(companies.cnpj, cnpj), message.phone) : null,
		cnpjsThisHour: valid ? await cnpjsTypedSince(db, message.key, new Date(now.getTime() - HOUR).toISOString()) : [],
		parcels: sessionCompany?.phoneRegistered ? await openParcelsOfCompany(db, sessionCompany.codigo) : [],
		vendorName: settings['app.fornecedor_nome'],
		pixKey: settings.bot_chave_pix,
		toldTextOnly
	}
}

/**
 * The effects other modules write, each in its own transaction, before the replies go out: PARAR/VOLTAR
 * (messaging's opt-out) and option 6 (companies' trust release). Answers the replies they bring (option 6's).
 */
export async function applyOtherModulesEffects(ctx: AppContext, effects: Effect[]): Promise<string[]> {
	const replies: string[] = []
	for (const effect of effects) {
		if (effect.kind === 'opt-out') await setOptOut(ctx.db, ctx.clock.now(), effect.phone, effect.out)
		if (effect.kind === 'trust-release') replies.push(trustReleaseReply(await releaseOnTrust(ctx, effect.empresaCodigo)))
	}
	return replies
}

async function releaseOnTrust(ctx: AppContext, empresaCodigo: number): Promise<{ until: string } | { refused: string }> {
	try {
		return { until: (await trustReleaseByBot(ctx.db, ctx.clock, empresaCodigo)).expira }
	} catch (error) {
		return { refused: (error as Error).message }
	}
}

/** The bot's own effects, written in the transaction that saves the session. */
export async function writeBotEffects(tx: Tx, clock: Clock, effects: Effect[]) {
	for (const effect of effects) {
		if (effect.kind === 'cnpj-typed') {
			await tx.insert(botCnpjAttempts).values({ phone_key: effect.phoneKey, cnpj: effect.cnpj, at: effect.at })
		}
		if (effect.kind === 'phone-blocked') {
			await logActivity(
				tx,
				clock,
				'whatsapp.bot-phone-blocked',
				{ telefone: effect.phone, cnpjs: effect.cnpjs },
				{ entityId: effect.phone }
			)
		}
		if (effect.kind === 'attendant-requested') await attendantRequested(tx, clock, effect.phone, effect.company)
	}
}

/** A top-bar notification to the administradores and the company's representative, and a line in the activity log. */
async function attendantRequested(
	tx: Tx,
	clock: Clock,
	phone: string,
	company: { razao: string; cnpj_representante: string | null } | null
) {
	const telefone = formatSessionPhone(phone)
	const empresa = company?.razao ?? 'empresa não identificada'
	const rep = company?.cnpj_representante ?? null
	await notifyUsers(
		tx,
		clock,
		{ administradores: true, representanteCnpj: rep },
		'Cliente aguardando atendente',
		`${telefone} (${empresa}) pediu para falar com um atendente no WhatsApp.`,
		'warning'
	)
	await logActivity(
		tx,
		clock,
		'whatsapp.attendant-requested',
		{ telefone, empresa },
		{ actorName: 'Bot WhatsApp', entityId: phone, representanteCnpj: rep }
	)
}

function sessionView(s: Session, now: Date): BotSession {
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
export async function listSessions(db: DbOrTx, now: Date): Promise<BotSession[]> {
	const nowIso = now.toISOString()
	const since = new Date(now.getTime() - SESSION_IDLE_MS).toISOString()
	return (
		await db
			.select()
			.from(botSessions)
			.where(or(gt(botSessions.last_activity, since), gt(botSessions.paused_until, nowIso)))
			.orderBy(desc(botSessions.last_activity))
			.limit(500)
	)
		.map((s) => sessionView(s, now))
		.sort((a, b) => (a.waitingSince ?? '\uffff').localeCompare(b.waitingSince ?? '\uffff'))
}

/** The paused conversations: clients waiting for a person first (longest wait first), then newest first. */
export async function pausedPhones(db: DbOrTx, now: Date): Promise<string[]> {
	return (
		await db
			.select({ phone: botSessions.phone })
			.from(botSessions)
			.where(gt(botSessions.paused_until, now.toISOString()))
			.orderBy(sql`${botSessions.waiting_since} is null`, asc(botSessions.waiting_since), desc(botSessions.last_activity))
	).map((r) => r.phone)
}

/** Forgets seen ids, own send ids, CNPJ attempts and idle phones' state older than two days (the hourly job). */
export async function sweepBotRecords(db: Db, now: Date) {
	const before = new Date(now.getTime() - KEEP_MS).toISOString()
	await writeTransaction(db, async (tx) => {
		await tx.delete(botSeenMessages).where(lt(botSeenMessages.at, before))
		await tx.delete(ownSends).where(lt(ownSends.at, before))
		await tx.delete(botCnpjAttempts).where(lt(botCnpjAttempts.at, before))
		await tx
			.delete(botPhones)
			.where(and(lt(botPhones.updated_at, before), or(isNull(botPhones.lease_until), lte(botPhones.lease_until, now.toISOString()))))
	})
	return before
}
