import { table, text } from '../../db/columns'

/** Who runs a scheduled job right now: one row per job, so two portal processes on one database never run it twice. */
export const jobLeases = table('job_leases', {
	name: text().primaryKey(),
	holder: text().notNull(),
	expires_at: text().notNull()
})
