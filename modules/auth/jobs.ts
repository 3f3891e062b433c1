import { cron } from '@elysiajs/cron'
import type { AppContext } from '../core/server'
import { deleteExpiredSessions } from './service'

export function authJobs(ctx: AppContext) {
	return cron({
		name: 'auth.sessions-cleanup',
		pattern: '17 * * * *',
		run() {
			const removed = deleteExpiredSessions(ctx.db, ctx.clock)
			if (removed > 0) ctx.log('sessions.cleanup', { removed })
		}
	})
}
