import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { checkPendingPurchases, recoverUnfinishedPurchases } from './purchases'
import { applyDueRenewals } from './renewals'

export function creditJobs(ctx: AppContext): JobDefinition[] {
	return [
		// Every 5 seconds (a seconds field): each open purchase is asked about on its own schedule (10 s, doubling to 5 min).
		{ name: 'credits.purchase-check', pattern: '*/5 * * * * *', run: () => checkPendingPurchases(ctx) },
		// Every minute: purchases a crash left half made (the charge asked for, its answer never stored).
		{ name: 'credits.purchase-recovery', pattern: '* * * * *', run: () => recoverUnfinishedPurchases(ctx) },
		// Every 5 seconds: carnê renewals recorded but not yet applied (the reconciliation found a parcel paid, a process
		// died between recording it and applying it, a carnê's credits per parcel changed), and their WhatsApp notices.
		{ name: 'credits.carne-renewals', pattern: '*/5 * * * * *', run: () => applyDueRenewals(ctx) }
	]
}
