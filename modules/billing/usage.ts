import { withoutTransactionCheck } from '../../db/transaction'
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm'
import type { FetchLike } from '../asaas'
import { type AppContext, writeTransaction } from '../core/server'
import type { AccountUsage } from './model'
import { asaasUsage } from './schema'

type Ctx = Pick<AppContext, 'db' | 'clock' | 'log'>

/** Asaas' quota: requests per account in 12 hours, shared with every other integration of the account. */
export const ASAAS_QUOTA_PER_12H = 25_000
const HOUR_MS = 3_600_000

const hourOf = (date: Date) => date.toISOString().slice(0, 13)

/**
 * The transport of one account's client: every request the portal makes to Asaas is counted in the account's hour
 * (asaas_usage), whatever became of it, with the RateLimit-Remaining Asaas answered when it sent one.
 */
export function countedFetch(ctx: Ctx, accountId: string, fetch: FetchLike): FetchLike {
	return async (url, init) => {
		let remaining: number | null = null
		try {
			const res = await fetch(url, init)
			const header = Number(res.headers.get('ratelimit-remaining') ?? Number.NaN)
			if (Number.isInteger(header) && header >= 0) remaining = header
			return res
		} finally {
			try {
				// The request was made: it is counted even by a job that lost its lease meanwhile (a fact, not a decision).
				// (The statement runs when awaited: inside the callback, so outside the check.)
				await withoutTransactionCheck(async () => {
					await ctx.db
						.insert(asaasUsage)
						.values({ account: accountId, hora: hourOf(ctx.clock.now()), requisicoes: 1, restante: remaining })
						.onConflictDoUpdate({
							target: [asaasUsage.account, asaasUsage.hora],
							set: {
								requisicoes: sql`${asaasUsage.requisicoes} + 1`,
								// Concurrent requests' answers land in any order: within the hour, the lowest figure is the latest.
								restante: sql`case when ${asaasUsage.restante} is null or excluded.restante < ${asaasUsage.restante} then excluded.restante else ${asaasUsage.restante} end`
							}
						})
				})
			} catch (error) {
				// Counting must never fail the call it counts.
				ctx.log('asaas.usage_not_counted', { account: accountId, message: String((error as Error)?.message ?? error) })
			}
		}
	}
}

/** An account's use of its quota in the last 12 hours (counted by whole hours), for Admin Financeiro. */
export async function accountUsage(ctx: Pick<AppContext, 'db' | 'clock'>, accountId: string): Promise<AccountUsage> {
	const since = hourOf(new Date(ctx.clock.now().getTime() - 11 * HOUR_MS))
	const inWindow = and(eq(asaasUsage.account, accountId), gte(asaasUsage.hora, since))
	const total =
		(
			await ctx.db
				.select({ n: sql<number>`coalesce(sum(${asaasUsage.requisicoes}), 0)` })
				.from(asaasUsage)
				.where(inWindow)
		)[0]?.n ?? 0
	const last = (
		await ctx.db
			.select({ restante: asaasUsage.restante })
			.from(asaasUsage)
			.where(and(inWindow, sql`${asaasUsage.restante} is not null`))
			.orderBy(desc(asaasUsage.hora))
	)[0]
	return { requisicoes12h: Number(total), cota: ASAAS_QUOTA_PER_12H, restanteAsaas: last?.restante ?? null }
}

/** Hours older than two days are of no screen's use. */
export async function pruneUsage(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
	const before = hourOf(new Date(ctx.clock.now().getTime() - 48 * HOUR_MS))
	return (
		await writeTransaction(ctx.db, (tx) => tx.delete(asaasUsage).where(lt(asaasUsage.hora, before)).returning({ hora: asaasUsage.hora }))
	).length
}
