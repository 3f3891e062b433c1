import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { automaticBackup } from './service'

export function systemJobs(ctx: AppContext): JobDefinition[] {
	// A backup of a large database can take minutes: the lease outlasts it.
	return [{ name: 'system.automatic-backup', pattern: '*/10 * * * *', leaseMs: 60 * 60_000, run: () => automaticBackup(ctx) }]
}
