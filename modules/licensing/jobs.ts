import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { markCompaniesOffline } from './check'
import type { LicenceService } from './service'

export function licensingJobs(ctx: AppContext, licence: LicenceService): JobDefinition[] {
	return [
		{
			name: 'licensing.usage-flush',
			pattern: '* * * * *',
			// Each process writes the last-use times it gathered itself: another process's run cannot do it for it.
			lease: false,
			run: () => licence.flushUsage()
		},
		// From the last-use times every instance wrote: once, on one instance.
		{ name: 'licensing.offline', pattern: '30 * * * * *', run: () => markCompaniesOffline(ctx.db, ctx.clock) }
	]
}
