import { index, integer, table, text } from '../../db/columns'

export const BOT_STEPS = ['welcome', 'awaiting_cnpj', 'menu', 'consulting', 'generating_boleto'] as const

/** One conversation per phone (by its ninth-digit-insensitive key): where it is, and whether a person has it. */
export const botSessions = table(
	'bot_sessions',
	{
		phone_key: text().primaryKey(),
		/** The phone as 55 + DDD + number (the ninth digit restored when it is a Brazilian mobile). */
		phone: text().notNull(),
		step: text({ enum: BOT_STEPS }).notNull(),
		/** The company the phone identified itself as (only once the phone is one registered for it). */
		cnpj: text(),
		empresa_codigo: integer(),
		/** Wrong CNPJs in a row: two lead to the attendant offer. */
		wrong_cnpjs: integer().notNull().default(0),
		/** generating_boleto: the parcel ids offered, in the order numbered to the client (JSON). */
		choices: text(),
		/** Paused (a person has the conversation) until this instant, unless an administrador resumes it first. */
		paused_until: text(),
		/** The client wrote while paused and nobody has answered since. */
		waiting_since: text(),
		/** Too many different CNPJs from this phone: the bot ignores it until then. */
		blocked_until: text(),
		last_activity: text().notNull(),
		created_at: text().notNull()
	},
	(t) => [index('bot_sessions_activity_idx').on(t.last_activity)]
)

/** `data.key.id` of every message handled, so a repeated delivery is handled once (swept after two days). */
export const botSeenMessages = table('bot_seen_messages', { id: text().primaryKey(), at: text().notNull() }, (t) => [
	index('bot_seen_messages_at_idx').on(t.at)
])

/**
 * The messages the webhook took and the bot has not handled yet: written before the webhook answers (a message
 * answered 200 outlives a crash of the instance that took it), removed in the transaction that saves what handling it
 * changed. Each phone's are handled oldest first (`seq`), by whichever instance holds the phone.
 */
export const botInbox = table(
	'bot_inbox',
	{
		seq: integer().primaryKey({ autoIncrement: true }),
		/** `data.key.id`. */
		message_id: text().notNull(),
		phone_key: text().notNull(),
		/** The chat's phone as the webhook gave it (digits of the JID). */
		phone: text().notNull(),
		/** Typed on the linked phone (an attendant, or the echo of a send of the portal). */
		from_me: integer({ mode: 'boolean' }).notNull(),
		text: text().notNull(),
		received_at: text().notNull(),
		/** Times an instance took it to handle: more than one means an instance died handling it. */
		takes: integer().notNull().default(0)
	},
	(t) => [index('bot_inbox_phone_idx').on(t.phone_key, t.seq)]
)

/** Each valid CNPJ a phone typed: more than 5 different ones in an hour stop the bot answering it. */
export const botCnpjAttempts = table(
	'bot_cnpj_attempts',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		phone_key: text().notNull(),
		cnpj: text().notNull(),
		at: text().notNull()
	},
	(t) => [index('bot_cnpj_attempts_phone_idx').on(t.phone_key, t.at)]
)

/** The bot's one row: on or off, and what the gateway last told the webhook. */
export const botState = table('bot_state', {
	id: integer().primaryKey(),
	enabled: integer({ mode: 'boolean' }).notNull().default(false),
	/** From connection.update: open, close, connecting, refused. */
	connection_state: text(),
	connection_at: text(),
	last_event_at: text(),
	/** The last attempt to configure the instance's webhook: configurado | erro | sem_url | sem_gateway. */
	webhook_status: text(),
	webhook_message: text(),
	webhook_at: text()
})

/**
 * The runner's state of each phone, shared by every portal instance: who handles its messages now (a lease, so two
 * instances never answer one phone at once, with a token that fences a holder that lost it), what it was told once
 * ("só entendo texto", "aguarde um instante") and the times of its replies in the last minute (the reply limit).
 */
export const botPhones = table(
	'bot_phones',
	{
		phone_key: text().primaryKey(),
		holder: text(),
		token: integer().notNull().default(0),
		lease_until: text(),
		told_text_only: integer({ mode: 'boolean' }).notNull().default(false),
		told_to_wait: integer({ mode: 'boolean' }).notNull().default(false),
		/** The times (ms) of the replies sent in the last minute, oldest first (JSON). */
		replies: text().notNull().default('[]'),
		updated_at: text().notNull()
	},
	(t) => [index('bot_phones_updated_idx').on(t.updated_at)]
)
