import { index, integer, table, text } from '../../db/columns'
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
