import { type PaymentEventHandler, VENDOR_ACCOUNT, representativesWithPendingRenewals, sendRenewalNotices } from '../billing'
import { type AppContext, writeTransaction } from '../core/server'
import { applyRenewals } from './service'

/**
 * The renewals not yet tried (parcels just recorded paid, by a webhook, the reconciliation or a process that died
 * before applying them), each representative's in one transaction; then the WhatsApp messages about those that wait.
 * `only`: one representative's (the inbox, after one of their events). Answers how many were applied.
 */
export async function applyDueRenewals(ctx: AppContext, only?: string): Promise<number> {
	let applied = 0
	for (const cnpj of await representativesWithPendingRenewals(ctx.db, only))
		applied += await writeTransaction(ctx.db, (tx) => applyRenewals(tx, ctx.clock, cnpj))
	await sendRenewalNotices(ctx, only)
	return applied
}

/**
 * The inbox's last handler: after the carnês' handler has recorded a representative's parcel paid (and its renewal
 * due), the renewal is applied at once instead of at the job's next run. It owns no payment.
 */
export function renewalPaymentHandler(ctx: AppContext): PaymentEventHandler {
	return {
		name: 'credits.renewals',
		async handle(event) {
			if (event.account !== VENDOR_ACCOUNT) await applyDueRenewals(ctx, event.account)
			return false
		}
	}
}
