import { eq } from 'drizzle-orm'
import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { representatives } from '../resellers'
import { asaasAccount, syncWebhook } from './accounts'
import type { AsaasInbox } from './inbox'
import { VENDOR_ACCOUNT } from './model'
import { asaasAccounts } from './schema'
import { finishCarnes } from './carnes'
import { DUNNING_JOB, DUNNING_LEASE_MS, runDunning } from './dunning'
import { reconcileCarnes } from './sync'
import { pruneUsage } from './usage'

/**
 * Reads the portal's webhook on every active account: recreates it when missing, and records an interrupted or
 * penalised queue (the financial screens show a banner with a button that reactivates it).
 */
export async function checkWebhooks(ctx: AppContext): Promise<number> {
	const reps = await ctx.db
		.select({ cnpj: asaasAccounts.representante_cnpj })
		.from(asaasAccounts)
		.innerJoin(representatives, eq(representatives.cnpj, asaasAccounts.representante_cnpj))
		.where(eq(representatives.ativar_api_asaas, 'S'))
	let checked = 0
	for (const { cnpj } of [{ cnpj: VENDOR_ACCOUNT }, ...reps]) {
		const account = await asaasAccount(ctx.db, ctx.secrets, cnpj)
		if (!account?.active) continue
		await syncWebhook(ctx, account, { repair: true })
		checked++
	}
	await pruneUsage(ctx)
	return checked
}

export function billingJobs(ctx: AppContext, inbox: AsaasInbox): JobDefinition[] {
	return [
		// Events a failed attempt or a dead process left unhandled: every 5 s in every process (each event is claimed,
		// so no lease is needed), so a restart or a crash delays a payment by seconds.
		{ name: 'billing.webhook-inbox', pattern: '*/5 * * * * *', lease: false, run: () => inbox.processDue() },
		// Carnês a failure or a crash left half-made at Asaas: finished or removed.
		{ name: 'billing.carnes-finish', pattern: '* * * * *', leaseMs: 5 * 60_000, run: () => finishCarnes(ctx) },
		{ name: 'billing.webhook-check', pattern: '7 * * * *', run: () => checkWebhooks(ctx) },
		// Parcels whose webhooks never came: read back from Asaas in batches within its quota.
		{ name: 'billing.carnes-reconcile', pattern: '*/30 * * * *', leaseMs: 25 * 60_000, run: () => reconcileCarnes(ctx) },
		// The reminder schedule: each representative's day at their send time, and every minute what is due to send.
		{ name: DUNNING_JOB, pattern: '* * * * *', leaseMs: DUNNING_LEASE_MS, run: () => runDunning(ctx) }
	]
}
