import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { automaticBackup } from './service'

export function systemJobs(ctx: AppContext): JobDefinition[] {
	// A backup of a large database can take minutes: its run renews the lease meanwhile.
	return [{ name: 'system.automatic-backup', pattern: '*/10 * * * *', run: () => automaticBackup(ctx) }]
}
