import { cron } from '@elysiajs/cron'
import { type AnyElysia, Elysia } from 'elysia'
import type { AppContext } from '../core/server'
import { type JobDefinition, runJob } from './service'

/** Who holds a lease: this process, for as long as it runs (its pid, and a random part no other process shares). */
const processHolder = `${process.pid}-${crypto.randomUUID()}`

/** Registers every job on the built-in cron; each tick runs the job under its lease (see runJob). */
export function scheduleJobs(ctx: AppContext, jobs: JobDefinition[]): AnyElysia {
	return jobs.reduce<AnyElysia>(
		(app, job) =>
			app.use(cron({ name: job.name, pattern: job.pattern, run: () => runJob(ctx, processHolder, job, ctx.config.jobLeaseMs) })),
		new Elysia({ name: 'jobs.scheduler' })
	)
}
