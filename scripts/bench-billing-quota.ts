/**
 * The Asaas quota a steady day costs (issue 32, point 7): one representative's account with 500 open carnês of 12
 * monthly parcels (first due dates spread over a month), its clients paying 9 in 10 parcels on their due day by
 * boleto (CONFIRMED, then RECEIVED, each event delivered twice as Asaas may), the rest left overdue. The portal runs
 * as in production against the Asaas stand-in (webhooks into its inbox, the reconciliation every 30 minutes, the
 * webhook check every hour) through 30 days to reach its steady state, then one more day is measured with the
 * portal's own request count (asaas_usage, what Admin Financeiro shows). Target: at most 10 % of the 25,000
 * requests Asaas allows per 12 hours.
 */
import { sql } from 'drizzle-orm'
import { CNPJ, billingWorld, carneBody, settleAsaas } from '../apps/server/testing'
import { ASAAS_QUOTA_PER_12H, asaasUsage, carneParcelas, checkWebhooks, reconcileCarnes } from '../modules/billing'

const CARNES = Number(process.env.BENCH_QUOTA_CARNES ?? 500)
const WARM_UP_DAYS = 30
const TICK_MS = 30 * 60_000
const TARGET_SHARE = 0.1

export async function quotaOfASteadyDay(): Promise<{ perTwelveHours: number; target: number; ok: boolean }> {
	const { w } = await billingWorld({ quotaLimit: 100_000_000 }, { now: '2026-11-01T11:00:00.000Z' })
	for (let i = 0; i < CARNES; i++) {
		const empresa = await w.company(CNPJ.rep, `Cliente ${i + 1}`, { email: `cliente${i + 1}@example.com` })
		const day = String(1 + (i % 28)).padStart(2, '0')
		const res = await w.call('POST', '/api/carnes', {
			cookie: w.cookies.rep,
			body: carneBody(empresa.codigo, { valor_total: 1200, numero_parcelas: 12, data_primeiro_vencimento: `2026-11-${day}` })
		})
		if (res.status !== 201) throw new Error(`carnê ${i + 1}: ${res.status} ${res.text}`)
	}
	await settleAsaas(w)
	/** The portal's requests to the account from `since` (an ISO instant) on, as Admin Financeiro counts them. */
	const usedSince = async (since: string) =>
		Number(
			(
				await w.db
					.select({ n: sql<number>`coalesce(sum(${asaasUsage.requisicoes}), 0)` })
					.from(asaasUsage)
					.where(sql`${asaasUsage.account} = ${CNPJ.rep} and ${asaasUsage.hora} >= ${since.slice(0, 13)}`)
			)[0]?.n ?? 0
		)
	let paidToday = new Set<string>()
	/** `hours` of the portal's life: clients pay what falls due (9 in 10), the jobs run on their schedule. */
	async function live(hours: number) {
		for (let tick = 0; tick < hours * 2; tick++) {
			w.clock.advance(TICK_MS)
			const now = w.clock.now()
			if (now.getUTCHours() === 13 && now.getUTCMinutes() === 0) {
				// The day's payments, at 10:00 in São Paulo: the parcels due today, but every tenth client.
				const today = now.toISOString().slice(0, 10)
				const due = await w.db
					.select({ id: carneParcelas.asaas_payment_id, carne: carneParcelas.carne_id })
					.from(carneParcelas)
					.where(sql`${carneParcelas.vencimento} = ${today} and ${carneParcelas.status} = 'PENDING'`)
				paidToday = new Set()
				for (const p of due) {
					if (p.carne % 10 === 0) continue
					w.asaas.confirm(p.id)
					paidToday.add(p.id)
				}
			}
			if (now.getUTCMinutes() === 0) await checkWebhooks(w.ctx)
			await reconcileCarnes(w.ctx)
			await settleAsaas(w)
		}
	}
	// The clock stands on the hour: the measured day is the 24 whole hours after the warm-up's last.
	await live(WARM_UP_DAYS * 24)
	const start = new Date(w.clock.now().getTime() + 3_600_000).toISOString()
	await live(25)
	const day = await usedSince(start)
	const perTwelveHours = Math.ceil(day / 2)
	const target = ASAAS_QUOTA_PER_12H * TARGET_SHARE
	console.log(
		`\nthe Asaas quota of a steady day, one account with ${CARNES} open carnês (target ≤ ${(TARGET_SHARE * 100).toFixed(0)} % of ${ASAAS_QUOTA_PER_12H.toLocaleString('pt-BR')} per 12 h)`
	)
	console.log(
		`  ${day.toLocaleString('pt-BR')} requests in 24 h (${paidToday.size} parcels paid that day): ${perTwelveHours.toLocaleString('pt-BR')} per 12 h = ${((perTwelveHours / ASAAS_QUOTA_PER_12H) * 100).toFixed(1)} % of the quota`
	)
	return { perTwelveHours, target, ok: perTwelveHours <= target }
}

if (import.meta.main) {
	const result = await quotaOfASteadyDay()
	if (!result.ok) process.exitCode = 1
}
