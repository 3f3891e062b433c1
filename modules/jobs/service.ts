import { and, eq, gt, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { sqlRun, sqlWriteRows } from '../../db/query'
import { withTransactionCheck } from '../../db/transaction'
import type { Clock } from '../core'
import type { AppContext } from '../core/server'
import { jobLeases } from './schema'

/** A scheduled job as a module declares it; `run` calls the module's plain exported function. */
export interface JobDefinition {
	name: string
	/** A cron pattern (minute hour day month weekday, or with a leading seconds field), in the server's time zone. */
	pattern: string
	/**
	 * How long the lease lasts without being renewed: the holder renews it while it runs, so this is how long a holder
	 * that died (or stopped answering) keeps the job before another process may take it. Default: the portal's
	 * JOB_LEASE_SECONDS.
	 */
	leaseMs?: number
	/** false only for work on this process's own memory (another process has its own to write). */
	lease?: boolean
	run: () => unknown | Promise<unknown>
}

/** A job held by one process: `token` grows at every taking, so an older holder is told apart from the newer one. */
export interface JobLease {
	name: string
	holder: string
	token: number
}

/** What a holder that lost its lease meets at its next write: nothing of that transaction is written. */
export class LeaseLost extends Error {
	constructor(readonly lease: JobLease) {
		super(`O trabalho ${lease.name} passou a outro processo (vez ${lease.token} vencida): esta escrita foi recusada.`)
	}
}

/** How long a lease lasts when neither the job nor the configuration says (JOB_LEASE_SECONDS). */
export const DEFAULT_LEASE_MS = 60_000

/** Takes the job's lease for `holder` when it is free or expired: the lease with its new token, or null when held. */
export async function acquireLease(db: DbOrTx, clock: Clock, name: string, holder: string, leaseMs: number): Promise<JobLease | null> {
	const now = clock.now()
	const expires = new Date(now.getTime() + leaseMs).toISOString()
	const taken = await sqlWriteRows<{ token: number }>(
		db,
		sql`
		insert into job_leases (name, holder, token, expires_at) values (${name}, ${holder}, 1, ${expires})
		on conflict (name) do update set holder = excluded.holder, token = job_leases.token + 1, expires_at = excluded.expires_at
		where job_leases.expires_at <= ${now.toISOString()}
		returning token`
	)
	return taken[0] ? { name, holder, token: Number(taken[0].token) } : null
}

/** Extends a lease that is still this holder's and not expired; false when it is lost (expired, or taken since). */
export async function renewLease(db: DbOrTx, clock: Clock, lease: JobLease, leaseMs: number): Promise<boolean> {
	const now = clock.now()
	const renewed = await sqlWriteRows<{ token: number }>(
		db,
		sql`
		update job_leases set expires_at = ${new Date(now.getTime() + leaseMs).toISOString()}
		where name = ${lease.name} and token = ${lease.token} and expires_at > ${now.toISOString()}
		returning token`
	)
	return renewed.length === 1
}

export async function releaseLease(db: DbOrTx, clock: Clock, lease: JobLease) {
	await sqlRun(
		db,
		sql`update job_leases set expires_at = ${clock.now().toISOString()} where name = ${lease.name} and token = ${lease.token}`
	)
}

/**
 * The fencing check, inside the transaction of a write: the lease is still this one (same token) and not expired, or
 * LeaseLost. It writes the lease row (to the same value), so a taking of the lease by another process waits for this
 * transaction or makes it fail: the write lands before the new holder takes over, or not at all.
 */
export async function proveLease(tx: Tx, clock: Clock, lease: JobLease): Promise<void> {
	const held = await tx
		.update(jobLeases)
		.set({ token: lease.token })
		.where(and(eq(jobLeases.name, lease.name), eq(jobLeases.token, lease.token), gt(jobLeases.expires_at, clock.now().toISOString())))
		.returning({ token: jobLeases.token })
	if (held.length !== 1) throw new LeaseLost(lease)
}

/**
 * Runs `work` under the job's lease: false when another process holds it (nothing runs). While `work` runs the lease
 * is renewed every third of its length, and every write transaction `work` starts proves the lease first (fencing):
 * once the lease is lost — this process stalled past it and another took the job — its writes are refused.
 */
export async function withLease(
	ctx: Pick<AppContext, 'db' | 'clock' | 'log'>,
	name: string,
	holder: string,
	leaseMs: number,
	work: () => unknown
): Promise<boolean> {
	const lease = await acquireLease(ctx.db, ctx.clock, name, holder, leaseMs)
	if (!lease) return false
	let lost = false
	const heartbeat = setInterval(
		async () => {
			if (lost) return
			try {
				lost = !(await renewLease(ctx.db, ctx.clock, lease, leaseMs))
				if (lost) ctx.log('job.lease_lost', { job: name, token: lease.token })
			} catch (error) {
				ctx.log('job.lease_renew_failed', { job: name, message: String((error as Error)?.message ?? error) })
			}
		},
		Math.max(100, Math.floor(leaseMs / 3))
	)
	try {
		await withTransactionCheck((tx) => proveLease(tx, ctx.clock, lease), work)
		return true
	} finally {
		clearInterval(heartbeat)
		if (!lost) await releaseLease(ctx.db, ctx.clock, lease).catch(() => undefined)
	}
}

/**
 * Runs a job once, under its lease when it takes one. Answers false when another process holds the lease
 * (the run is skipped, not queued). Errors are logged, never thrown into the scheduler; a run whose write was refused
 * because its lease had passed to another process is logged as such (job.fenced).
 */
export async function runJob(
	ctx: Pick<AppContext, 'db' | 'clock' | 'log'> & Partial<Pick<AppContext, 'metrics'>>,
	holder: string,
	job: JobDefinition,
	defaultLeaseMs = DEFAULT_LEASE_MS
): Promise<boolean> {
	try {
		if (job.lease === false) await job.run()
		else if (!(await withLease(ctx, job.name, holder, job.leaseMs ?? defaultLeaseMs, job.run))) {
			ctx.metrics?.jobRun(job.name, 'skipped')
			return false
		}
		ctx.metrics?.jobRun(job.name, 'ok')
		return true
	} catch (error) {
		if (error instanceof LeaseLost) {
			ctx.metrics?.jobRun(job.name, 'fenced')
			ctx.log('job.fenced', { job: job.name, token: error.lease.token })
		} else {
			ctx.metrics?.jobRun(job.name, 'failed')
			ctx.log('job.failed', { job: job.name, message: String((error as Error)?.message ?? error) })
		}
		return true
	}
}
