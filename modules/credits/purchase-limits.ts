import { and, asc, eq, gt, inArray } from 'drizzle-orm'
import type { SessionUser } from '../auth'
import { DAY, HOUR, PURCHASE_LIMITS, toCentavos, toReais } from '../core'
import type { Tx } from '../../db/client'
import { type AppContext, AppError, conflict, giveBackShared, takeShared, tooManyRequests, waitInWords } from '../core/server'
import { getSetting } from '../settings'
import type { AutoPurchaseBody, AutoPurchaseResult } from './model'
import { creditPurchases } from './schema'

type Ctx = Pick<AppContext, 'db' | 'clock'>

const L = PURCHASE_LIMITS

/**
 * POST /api/credits/auto-purchase within its limits (core/policy.ts PURCHASE_LIMITS), since each purchase is a PIX
 * charge on the vendor's Asaas account: an open purchase of the same quantity at today's price is answered again
 * instead of a new charge; a representante has at most `maxOpen` open purchases, and makes at most `perHour` and
 * `perDay` of them (429 with Retry-After). The count lives in the database (core/rate.ts takeShared); a purchase
 * refused for what it asked (a 4xx: the vendor's account not configured) gives its place back.
 */
/**
 * Whether a purchase may start, decided inside the transaction that writes it (startPurchase), so thirty requests at
 * once cannot all see two open purchases: an open purchase of the same quantity answered again, or null to go on.
 */
export type PurchaseAdmission = (tx: Tx) => Promise<AutoPurchaseResult | null>

export async function limitedPurchase(
	ctx: Ctx,
	user: SessionUser,
	body: AutoPurchaseBody,
	start: (admit: PurchaseAdmission) => Promise<AutoPurchaseResult>
): Promise<AutoPurchaseResult> {
	const now = ctx.clock.now()
	let taken: number[] = []
	const admit: PurchaseAdmission = async (tx) => {
		const open = await tx
			.select()
			.from(creditPurchases)
			.where(
				and(
					eq(creditPurchases.representante_id, user.cnpj),
					inArray(creditPurchases.status, ['criando', 'pendente']),
					gt(creditPurchases.expires_at, now.toISOString())
				)
			)
			.orderBy(asc(creditPurchases.expires_at))
		const unit = toCentavos(Number(await getSetting(tx, 'app.valor_credito_individual')))
		const same = open.find((p) => p.quantidade === body.quantidade && p.valor_unitario_centavos === unit)
		if (same?.status === 'pendente' && same.charge_id) {
			return {
				message: 'Você já tem esta compra em aberto: pague o PIX abaixo para receber os créditos.',
				chargeId: same.charge_id,
				quantidade: same.quantidade,
				valor: toReais(same.valor_total_centavos),
				metodoPagamento: 'PIX',
				vencimento: same.vencimento,
				pixCopyPaste: same.pix_copia_e_cola,
				pixQrCode: same.pix_qr_code
			}
		}
		if (same) throw conflict('Uma compra igual está sendo criada: aguarde alguns segundos e tente novamente.', 'PURCHASE_UNDERWAY')
		if (open.length >= L.maxOpen) {
			const waitMs = Date.parse(open[0].expires_at) - now.getTime()
			throw tooManyRequests(
				`Você já tem ${open.length} compras em aberto (no máximo ${L.maxOpen}): pague uma delas ou aguarde o vencimento. Tente novamente em ${waitInWords(waitMs)}.`,
				waitMs / 1000
			)
		}
		const key = `purchase:rep:${user.cnpj}`
		const limits = [
			{ key, limit: L.perHour, windowMs: HOUR },
			{ key, limit: L.perDay, windowMs: DAY }
		]
		const result = await takeShared(tx, now, limits)
		if ('refused' in result) {
			const { limit, waitMs } = result.refused
			const what = limit === limits[0] ? `no máximo ${L.perHour} por hora` : `no máximo ${L.perDay} por dia`
			throw tooManyRequests(`Limite de compras de créditos atingido (${what}). Tente novamente em ${waitInWords(waitMs)}.`, waitMs / 1000)
		}
		taken = result.taken
		return null
	}
	try {
		return await start(admit)
	} catch (error) {
		if (error instanceof AppError && error.status < 500) await giveBackShared(ctx.db, taken)
		throw error
	}
}
