import { sqlRun, sqlWriteRows } from '../../db/query'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import type { Clock } from '../core'
import type { AppContext } from '../core/server'

/** A scheduled job as a module declares it; `run` calls the module's plain exported function. */
export interface JobDefinition {
	name: string
	/** A cron pattern (minute hour day month weekday, or with a leading seconds field), in the server's time zone. */
	pattern: string
	/**
	 * How long a run may hold the job. A holder that dies keeps it only this long; a run that takes longer is not
	 * cut short, but another process may then start the job too.
	 */
	leaseMs?: number
	/** false only for work on this process's own memory (another process has its own to write). */
	lease?: boolean
	run: () => unknown | Promise<unknown>
}

const DEFAULT_LEASE_MS = 10 * 60_000

/** Takes the job's lease for `holder` when it is free or expired; true when `holder` now holds it. */
export async function acquireLease(db: DbOrTx, clock: Clock, name: string, holder: string, leaseMs: number): Promise<boolean> {
	const now = clock.now()
	const expires = new Date(now.getTime() + leaseMs).toISOString()
	const taken = await sqlWriteRows<{ holder: string }>(
		db,
		sql`
		insert into job_leases (name, holder, expires_at) values (${name}, ${holder}, ${expires})
		on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
		where job_leases.expires_at <= ${now.toISOString()} or job_leases.holder = excluded.holder
		returning holder`
	)
	return taken.length === 1
}

export async function releaseLease(db: DbOrTx, clock: Clock, name: string, holder: string) {
	await sqlRun(db, sql`update job_leases set expires_at = ${clock.now().toISOString()} where name = ${name} and holder = ${holder}`)
}

/**
 * Runs a job once, under its lease when it takes one. Answers false when another process holds the lease
 * (the run is skipped, not queued). Errors are logged, never thrown into the scheduler.
 */
export async function runJob(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>, holder: string, job: JobDefinition): Promise<boolean> {
	const leased = job.lease !== false
	let held = false
	try {
		if (leased) {
			held = await acquireLease(ctx.db, ctx.clock, job.name, holder, job.leaseMs ?? DEFAULT_LEASE_MS)
			if (!held) return false
		}
		await job.run()
		return true
	} catch (error) {
		ctx.log('job.failed', { job: job.name, message: String((error as Error)?.message ?? error) })
		return true
	} finally {
		if (held) await releaseLease(ctx.db, ctx.clock, job.name, holder)
	}
}
