import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from '../auth/schema'
import { representatives } from '../resellers/schema'

/** Top-bar notifications addressed to one user. */
export const notifications = sqliteTable(
	'notifications',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		user_id: integer()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		title: text().notNull(),
		message: text().notNull(),
		type: text({ enum: ['success', 'warning', 'info'] })
			.notNull()
			.default('info'),
		read: integer({ mode: 'boolean' }).notNull().default(false),
		created_at: text().notNull()
	},
	(t) => [index('notifications_user_idx').on(t.user_id, t.read)]
)

/** Avisos gerais: shown to every signed-in user while ativo (2-administration §3.5). */
export const generalNotices = sqliteTable(
	'avisos_gerais',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		titulo: text().notNull(),
		texto: text().notNull(),
		urgente: integer().notNull().default(0),
		ativo: integer().notNull().default(1),
		/** The notice's date (YYYY-MM-DD). */
		data: text().notNull(),
		created_at: text().notNull(),
		updated_at: text().notNull()
	},
	(t) => [index('avisos_gerais_ativo_idx').on(t.ativo)]
)

/** Avisos individuais: addressed to one representative (by CNPJ). */
export const individualNotices = sqliteTable(
	'avisos_individuais',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		representante_id: text()
			.notNull()
			.references(() => representatives.cnpj, { onDelete: 'cascade', onUpdate: 'cascade' }),
		titulo: text().notNull(),
		texto: text().notNull(),
		urgente: integer().notNull().default(0),
		ativo: integer().notNull().default(1),
		data: text().notNull(),
		created_at: text().notNull(),
		updated_at: text().notNull()
	},
	(t) => [index('avisos_individuais_rep_idx').on(t.representante_id, t.ativo)]
)

/** Which notices each user has marked as read in the top-bar notifications. */
export const noticeReads = sqliteTable(
	'avisos_lidos',
	{
		user_id: integer()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		tipo: text({ enum: ['geral', 'individual'] }).notNull(),
		aviso_id: integer().notNull(),
		read_at: text().notNull()
	},
	(t) => [primaryKey({ columns: [t.user_id, t.tipo, t.aviso_id] })]
)
