import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appJobs } from '../../apps/server/app'
import { createTestApp } from '../../apps/server/testing'
import { MINUTE } from '../core'
import { type JobDefinition, acquireLease, runJob } from './service'

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
		expect(await acquireLease(a.db, a.clock, 'test.job', 'dead', 5 * MINUTE)).toBe(true)
		expect(await acquireLease(b.db, b.clock, 'test.job', 'alive', 5 * MINUTE)).toBe(false)
		b.clock.advance(5 * MINUTE)
		expect(await acquireLease(b.db, b.clock, 'test.job', 'alive', 5 * MINUTE)).toBe(true)
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
		expect(await acquireLease(b.db, b.clock, 'test.failing', 'process-b', MINUTE)).toBe(true)
	})

	it('every job of the portal has a unique name and a cron pattern, and writes under a lease unless it says why not', async () => {
		const t = await createTestApp()
		const jobs = appJobs(t.ctx, t.services)
		expect(new Set(jobs.map((j) => j.name)).size).toBe(jobs.length)
		for (const job of jobs) expect([5, 6]).toContain(job.pattern.split(' ').length)
		// The webhook inbox claims each event, so every process may run it (issue 33, point 4).
		expect(
			jobs
				.filter((j) => j.lease === false)
				.map((j) => j.name)
				.sort()
		).toEqual(['billing.webhook-inbox', 'licensing.usage-flush'])
	})
})
