import { integer, table, text } from '../../db/columns'

/**
 * Who runs a scheduled job right now: one row per job, so two portal processes on one database never run it at once.
 * `token` grows by one at every taking of the lease (the fencing token): a holder that lost the lease cannot write.
 */
export const jobLeases = table('job_leases', {
	name: text().primaryKey(),
	holder: text().notNull(),
	token: integer().notNull().default(0),
	expires_at: text().notNull()
})
