import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { checkPendingPurchases } from './purchases'

export function creditJobs(ctx: AppContext): JobDefinition[] {
	return [
		// Every 5 seconds (a seconds field): each open purchase is asked about on its own schedule (10 s, doubling to 5 min).
		{ name: 'credits.purchase-check', pattern: '*/5 * * * * *', leaseMs: 2 * 60_000, run: () => checkPendingPurchases(ctx) }
	]
}
