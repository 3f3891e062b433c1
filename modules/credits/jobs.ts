import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { checkPendingPurchases, recoverUnfinishedPurchases } from './purchases'

export function creditJobs(ctx: AppContext): JobDefinition[] {
	return [
		// Every 5 seconds (a seconds field): each open purchase is asked about on its own schedule (10 s, doubling to 5 min).
		{ name: 'credits.purchase-check', pattern: '*/5 * * * * *', run: () => checkPendingPurchases(ctx) },
		// Every minute: purchases a crash left half made (the charge asked for, its answer never stored).
		{ name: 'credits.purchase-recovery', pattern: '* * * * *', run: () => recoverUnfinishedPurchases(ctx) }
	]
}
