import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appJobs } from '../../apps/server/app'
import { billingWorld, createTestApp, runPortalJob, saveGateway } from '../../apps/server/testing'
import { eq, sql } from 'drizzle-orm'
import { sqlRows, sqlRun } from '../../db/query'
import { MINUTE } from '../core'
import { writeTransaction } from '../core/server'
import { withoutTransactionCheck } from '../../db/transaction'
import { jobLeases } from './schema'
import { type JobDefinition, LeaseLost, acquireLease, proveLease, runJob } from './service'

async function twoAppsOnOneFile() {
	const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-jobs-')), 'portal.sqlite')
	return [await createTestApp({ dbFile }), await createTestApp({ dbFile })] as const
}

describe('job leases', () => {
	it('lets only one of two portal processes on one database run a job at a time', async () => {
		const [a, b] = await twoAppsOnOneFile()
		let running = 0
		let most = 0
		let runs = 0
		let release!: () => void
		const gate = new Promise<void>((resolve) => {
			release = resolve
		})
		let started!: () => void
		const aRunning = new Promise<void>((resolve) => {
			started = resolve
		})
		const job: JobDefinition = {
			name: 'test.slow',
			pattern: '* * * * *',
			async run() {
				running++
				runs++
				most = Math.max(most, running)
				started()
				await gate
				running--
			}
		}
		const first = runJob(a.ctx, 'process-a', job)
		await aRunning
		// While A holds the lease, B's tick is skipped rather than run beside it.
		expect(await runJob(b.ctx, 'process-b', job)).toBe(false)
		release()
		expect(await first).toBe(true)
		// Released at the end of A's run: B's next tick runs.
		expect(await runJob(b.ctx, 'process-b', job)).toBe(true)
		expect(runs).toBe(2)
		expect(most).toBe(1)
	})

	it('takes over the lease of a holder that died, once it has expired', async () => {
		const [a, b] = await twoAppsOnOneFile()
		expect(await acquireLease(a.db, a.clock, 'test.job', 'dead', 5 * MINUTE)).toEqual({ name: 'test.job', holder: 'dead', token: 1 })
		expect(await acquireLease(b.db, b.clock, 'test.job', 'alive', 5 * MINUTE)).toBeNull()
		b.clock.advance(5 * MINUTE)
		// Each taking of the lease has the next token.
		expect(await acquireLease(b.db, b.clock, 'test.job', 'alive', 5 * MINUTE)).toEqual({ name: 'test.job', holder: 'alive', token: 2 })
	})

	it('logs a failing job instead of stopping the scheduler, and frees its lease', async () => {
		const [a, b] = await twoAppsOnOneFile()
		const job: JobDefinition = {
			name: 'test.failing',
			pattern: '* * * * *',
			run() {
				throw new Error('boom')
			}
		}
		expect(await runJob(a.ctx, 'process-a', job)).toBe(true)
		expect(a.logs).toContainEqual({ event: 'job.failed', fields: { job: 'test.failing', message: 'boom' } })
		expect(await acquireLease(b.db, b.clock, 'test.failing', 'process-b', MINUTE)).not.toBeNull()
	})

	it('every job of the portal has a unique name and a cron pattern, and writes under a lease unless it says why not', async () => {
		const t = await createTestApp()
		const jobs = appJobs(t.ctx, t.services)
		expect(new Set(jobs.map((j) => j.name)).size).toBe(jobs.length)
		for (const job of jobs) expect([5, 6]).toContain(job.pattern.split(' ').length)
		// The webhook inbox claims each event, so every process may run it (issue 33, point 4); the bot's inbox handles a
		// phone under the phone's own lease.
		expect(
			jobs
				.filter((j) => j.lease === false)
				.map((j) => j.name)
				.sort()
		).toEqual(['auth.refusals-flush', 'billing.webhook-inbox', 'bot.inbox', 'licensing.usage-flush'])
	})

	it('refuses the writes of a holder that wakes up after its lease passed to another process (fencing token)', async () => {
		const [a, b] = await twoAppsOnOneFile()
		await sqlRun(a.db, sql`create table if not exists fenced_writes (who text not null)`)
		const write = (who: string) =>
			writeTransaction(a.db, async (tx) => {
				await sqlRun(tx, sql`insert into fenced_writes (who) values (${who})`)
			})
		let wake!: () => void
		const asleep = new Promise<void>((resolve) => {
			wake = resolve
		})
		const slow: JobDefinition = {
			name: 'test.fenced',
			pattern: '* * * * *',
			leaseMs: 5 * MINUTE,
			async run() {
				await write('a, before its pause')
				// A stalls (a long pause, a frozen machine) past its lease, without renewing it.
				await asleep
				await write('a, after its pause')
			}
		}
		const first = runJob(a.ctx, 'process-a', slow)
		await Bun.sleep(50)
		b.clock.advance(5 * MINUTE)
		a.clock.advance(5 * MINUTE)
		// B takes the expired lease (token 2) and writes; then A wakes up and tries its write.
		expect(await runJob(b.ctx, 'process-b', { ...slow, run: () => write('b') })).toBe(true)
		wake()
		expect(await first).toBe(true)
		const rows = await sqlRows<{ who: string }>(a.db, sql`select who from fenced_writes order by who`)
		expect(rows.map((r) => r.who)).toEqual(['a, before its pause', 'b'])
		expect(a.logs).toContainEqual({ event: 'job.fenced', fields: { job: 'test.fenced', token: 1 } })
		// B released its lease at the end of its run; A's end of run did not touch it.
		expect((await b.db.select().from(jobLeases).where(eq(jobLeases.name, 'test.fenced')))[0]).toMatchObject({
			holder: 'process-b',
			token: 2
		})
	})

	it("refuses a leased job's write made outside a transaction (it could not prove the lease); a record of a fact may opt out", async () => {
		const t = await createTestApp()
		await sqlRun(t.db, sql`create table if not exists fenced_writes (who text not null)`)
		const outside: JobDefinition = {
			name: 'test.unchecked',
			pattern: '* * * * *',
			async run() {
				await t.db.insert(jobLeases).values({ name: 'test.other', holder: 'x', token: 1, expires_at: '2000-01-01T00:00:00.000Z' })
			}
		}
		const raw: JobDefinition = { ...outside, run: () => sqlRun(t.db, sql`insert into fenced_writes (who) values ('raw')`) }
		const fact: JobDefinition = {
			...outside,
			run: () => withoutTransactionCheck(async () => sqlRun(t.db, sql`insert into fenced_writes (who) values ('a fact')`))
		}
		const inside: JobDefinition = {
			...outside,
			run: () => writeTransaction(t.db, (tx) => sqlRun(tx, sql`insert into fenced_writes (who) values ('checked')`))
		}
		for (const job of [outside, raw, fact, inside]) expect(await runJob(t.ctx, 'process-a', job)).toBe(true)
		const refused = t.logs.filter((l) => l.event === 'job.failed').map((l) => l.fields?.message)
		expect(refused).toHaveLength(2)
		for (const message of refused) expect(message).toContain('Escrita fora de uma transação num trabalho com lease')
		expect((await t.db.select().from(jobLeases).where(eq(jobLeases.name, 'test.other'))).length).toBe(0)
		const rows = await sqlRows<{ who: string }>(t.db, sql`select who from fenced_writes order by who`)
		expect(rows.map((r) => r.who)).toEqual(['a fact', 'checked'])
		// The same writes outside a job are not refused.
		await sqlRun(t.db, sql`insert into fenced_writes (who) values ('request')`)
		expect((await sqlRows(t.db, sql`select who from fenced_writes`)).length).toBe(3)
	})

	it('every leased job of the portal runs under its lease, on a portal with data, without a write it could not fence', async () => {
		const { w } = await billingWorld()
		await saveGateway(w)
		const leased = appJobs(w.ctx, w.services).filter((j) => j.lease !== false)
		expect(leased.length).toBeGreaterThan(10)
		for (const job of leased) await runPortalJob(w, job.name)
		// Nor one a job caught and logged as its own failure.
		expect(w.logs.filter((l) => JSON.stringify(l.fields ?? {}).includes('Escrita fora de uma transação'))).toEqual([])
	})

	it('proves a lease inside the transaction: the current token passes, an older one or an expired lease does not', async () => {
		const [a, b] = await twoAppsOnOneFile()
		const old = (await acquireLease(a.db, a.clock, 'test.proof', 'a', MINUTE))!
		a.clock.advance(MINUTE)
		b.clock.advance(MINUTE)
		const current = (await acquireLease(b.db, b.clock, 'test.proof', 'b', MINUTE))!
		expect(current.token).toBe(old.token + 1)
		await expect(writeTransaction(a.db, (tx) => proveLease(tx, a.clock, old))).rejects.toBeInstanceOf(LeaseLost)
		await writeTransaction(b.db, (tx) => proveLease(tx, b.clock, current))
		b.clock.advance(MINUTE)
		// Expired and not taken by anyone: still not this holder's to write with.
		await expect(writeTransaction(b.db, (tx) => proveLease(tx, b.clock, current))).rejects.toBeInstanceOf(LeaseLost)
	})
})
