import { index, integer, table, text } from '../../db/columns'

/** The activity log: who did what to which record, and when. Rows are only ever added. */
export const activities = table(
	'activities',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		created_at: text().notNull(),
		/** The event's name in the catalogue (activity/events.ts), e.g. credits.transferred; null on lines older than it. */
		event: text(),
		user_id: integer(),
		user_nome: text(),
		type: text({ enum: ['success', 'info', 'warning', 'error'] }).notNull(),
		icon: text({ enum: ['Building', 'Coins', 'Users', 'AlertTriangle', 'Terminal'] }).notNull(),
		title: text().notNull(),
		subtitle: text().notNull().default(''),
		entity: text(),
		entity_id: text(),
		/** The representative whose data this touched, so a representative's feed shows only their own. */
		representante_cnpj: text()
	},
	(t) => [
		index('activities_created_idx').on(t.created_at),
		index('activities_rep_idx').on(t.representante_cnpj),
		index('activities_user_idx').on(t.user_id)
	]
)
