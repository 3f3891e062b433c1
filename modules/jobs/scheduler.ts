import { cron } from '@elysiajs/cron'
import { type AnyElysia, Elysia } from 'elysia'
import type { AppContext } from '../core/server'
import { type JobDefinition, runJob } from './service'

/** Registers every job on the built-in cron; each tick runs the job under its lease (see runJob). */
export function scheduleJobs(ctx: AppContext, jobs: JobDefinition[]): AnyElysia {
	// Who holds a lease: this process, for as long as it runs.
	const holder = `${process.pid}-${crypto.randomUUID()}`
	return jobs.reduce<AnyElysia>(
		(app, job) => app.use(cron({ name: job.name, pattern: job.pattern, run: () => runJob(ctx, holder, job) })),
		new Elysia({ name: 'jobs.scheduler' })
	)
}
