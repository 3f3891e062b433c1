import { cron } from '@elysiajs/cron'
import type { LicenceService } from './check'

/** Writes pending last-use times and marks silent companies off line, even when no check arrives. */
export function licensingJobs(licence: LicenceService) {
	return cron({ name: 'licensing.usage-flush', pattern: '* * * * *', run: () => licence.flushUsage() })
}
