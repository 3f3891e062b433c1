import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { NOTIFICATIONS_JOB, runNotifications } from './notifications'

export function messagingJobs(ctx: AppContext): JobDefinition[] {
	return [{ name: NOTIFICATIONS_JOB, pattern: '* * * * *', run: () => runNotifications(ctx) }]
}
