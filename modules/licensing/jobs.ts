import type { JobDefinition } from '../jobs'
import type { LicenceService } from './service'

export function licensingJobs(licence: LicenceService): JobDefinition[] {
	return [
		{
			name: 'licensing.usage-flush',
			pattern: '* * * * *',
			// Each process writes the last-use times it gathered itself: another process's run cannot do it for it.
			lease: false,
			run: () => licence.flushUsage()
		}
	]
}
