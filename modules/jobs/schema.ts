import { sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Who runs a scheduled job right now: one row per job, so two portal processes on one database never run it twice. */
export const jobLeases = sqliteTable('job_leases', {
	name: text().primaryKey(),
	holder: text().notNull(),
	expires_at: text().notNull()
})
