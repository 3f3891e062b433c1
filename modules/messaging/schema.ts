import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from '../auth/schema'

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
		type: text({ enum: ['success', 'warning', 'info'] }).notNull().default('info'),
		read: integer({ mode: 'boolean' }).notNull().default(false),
		created_at: text().notNull()
	},
	(t) => [index('notifications_user_idx').on(t.user_id, t.read)]
)
