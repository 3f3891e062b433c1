import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import type { RefusalLog } from './refusals'
import { deleteExpiredSessions } from './service'

/** Removes sessions past their end; answers how many went. */
export async function cleanupSessions(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>): Promise<number> {
	const removed = await deleteExpiredSessions(ctx.db, ctx.clock)
	if (removed > 0) ctx.log('sessions.cleanup', { removed })
	return removed
}

export function authJobs(ctx: AppContext, refusals: RefusalLog): JobDefinition[] {
	return [
		{ name: 'auth.sessions-cleanup', pattern: '17 * * * *', run: () => cleanupSessions(ctx) },
		// Every process writes the refusals it counted itself: another process's run cannot do it for it.
		{ name: 'auth.refusals-flush', pattern: '*/5 * * * * *', lease: false, run: () => refusals.flush() }
	]
}
