import { index, integer, primaryKey, table, text } from '../../db/columns'
import { belongsTo } from '../core/schema'

export const users = table('users', {
	id: integer().primaryKey({ autoIncrement: true }),
	cnpj: text().notNull().unique(),
	nome: text().notNull(),
	email: text(),
	tipo: text({ enum: ['administrador', 'gerente', 'representante'] }).notNull(),
	representante_id: text(),
	senha_hash: text().notNull(),
	ativo: integer({ mode: 'boolean' }).notNull().default(true),
	created_at: text().notNull(),
	updated_at: text().notNull()
})

/** One row per signed-in browser. The id is the SHA-256 of the cookie token; the token itself is never stored. */
export const sessions = table(
	'sessions',
	{
		id: text().primaryKey(),
		user_id: belongsTo(() => users.id),
		created_at: text().notNull(),
		last_active_at: text().notNull(),
		expires_at: text().notNull(),
		ip: text(),
		user_agent: text()
	},
	(t) => [index('sessions_user_idx').on(t.user_id)]
)

/**
 * Refused authorisations (401, 403, 404 outside the caller's scope), one line per caller, route and status, as every
 * portal instance adds to them (auth/refusals.ts): the Sistema tab reads them whichever instance answered the refusals.
 */
export const accessRefusals = table(
	'access_refusals',
	{
		/** `u<user id>` or `ip <address>`, the method and route, the status: what makes one line. */
		line_key: text().primaryKey(),
		who: text().notNull(),
		user_id: integer(),
		ip: text().notNull(),
		method: text().notNull(),
		route: text().notNull(),
		status: integer().notNull(),
		count: integer().notNull(),
		first_at: text().notNull(),
		last_at: text().notNull()
	},
	(t) => [index('access_refusals_last_idx').on(t.last_at)]
)

/** The records a line's refusals asked for (at most 1,000 a line), with when last: the newest are shown. */
export const accessRefusalRecords = table(
	'access_refusal_records',
	{
		line_key: text().notNull(),
		record: text().notNull(),
		/** When last asked for, in microseconds (a strictly growing value per process, so the order holds within a second). */
		seen: integer().notNull()
	},
	(t) => [primaryKey({ columns: [t.line_key, t.record] }), index('access_refusal_records_seen_idx').on(t.line_key, t.seen)]
)
