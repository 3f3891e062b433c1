import { eq } from 'drizzle-orm'
import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { representatives } from '../resellers'
import { asaasAccount, syncWebhook } from './accounts'
import type { AsaasInbox } from './inbox'
import { VENDOR_ACCOUNT } from './model'
import { asaasAccounts } from './schema'
import { reconcileCarnes } from './sync'

/**
 * Reads the portal's webhook on every active account: recreates it when missing, and records an interrupted or
 * penalised queue (the financial screens show a banner with a button that reactivates it).
 */
export async function checkWebhooks(ctx: AppContext): Promise<number> {
	const reps = ctx.db
		.select({ cnpj: asaasAccounts.representante_cnpj, email: representatives.email })
		.from(asaasAccounts)
		.innerJoin(representatives, eq(representatives.cnpj, asaasAccounts.representante_cnpj))
		.where(eq(representatives.ativar_api_asaas, 'S'))
		.all()
	let checked = 0
	for (const { cnpj, email } of [{ cnpj: VENDOR_ACCOUNT, email: null }, ...reps]) {
		const account = asaasAccount(ctx.db, ctx.secrets, cnpj)
		if (!account?.active) continue
		await syncWebhook(ctx, account, { repair: true, email })
		checked++
	}
	return checked
}

export function billingJobs(ctx: AppContext, inbox: AsaasInbox): JobDefinition[] {
	return [
		// Events a failed attempt or a restart left unhandled.
		{ name: 'billing.webhook-inbox', pattern: '* * * * *', run: () => inbox.processDue() },
		{ name: 'billing.webhook-check', pattern: '7 * * * *', run: () => checkWebhooks(ctx) },
		// Parcels whose webhooks never came: read back from Asaas in batches within its quota.
		{ name: 'billing.carnes-reconcile', pattern: '*/30 * * * *', leaseMs: 25 * 60_000, run: () => reconcileCarnes(ctx) }
	]
}
