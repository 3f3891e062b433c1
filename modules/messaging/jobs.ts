import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { NOTIFICATIONS_JOB, NOTIFICATIONS_LEASE_MS, runNotifications } from './notifications'

export function messagingJobs(ctx: AppContext): JobDefinition[] {
	return [{ name: NOTIFICATIONS_JOB, pattern: '* * * * *', leaseMs: NOTIFICATIONS_LEASE_MS, run: () => runNotifications(ctx) }]
}
