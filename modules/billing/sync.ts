import { and, asc, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { AsaasError, type AsaasPayment, isReversed } from '../asaas'
import { logActivity } from '../activity'
import { companies } from '../companies'
import type { AppContext } from '../core/server'
import { writeTransaction } from '../core/server'
import type { RepresentativeScope } from '../resellers'
import { asaasAccount, asaasClient } from './accounts'
import { recordEvent } from './carnes'
import type { InboxEvent, PaymentEventHandler } from './inbox'
import { VENDOR_ACCOUNT } from './model'
import { isPaid } from './labels'
import { carneParcelas, carnes } from './schema'

type Ctx = AppContext
type ParcelRow = typeof carneParcelas.$inferSelect

/**
 * How far along a parcel is: it only ever moves forward. Open (0) → overdue (1) → paid but not settled (2) →
 * settled (3) → refunded, charged back or removed (4). A late or stale answer of a lower rank changes nothing.
 */
function rank(status: string): number {
	if (status === 'PENDING' || status === 'AWAITING_RISK_ANALYSIS' || status === 'AUTHORIZED') return 0
	if (status === 'OVERDUE') return 1
	if (status === 'CONFIRMED') return 2
	if (isPaid(status)) return 3
	if (isReversed(status) || status === 'CANCELED') return 4
	return 0
}

/** The history line a status brings (once per payment and kind). */
function eventOf(status: string): 'pagamento' | 'estorno' | 'cancelamento' | 'vencimento' | null {
	if (isPaid(status)) return 'pagamento'
	if (isReversed(status)) return 'estorno'
	if (status === 'CANCELED') return 'cancelamento'
	if (status === 'OVERDUE') return 'vencimento'
	return null
}

/**
 * Brings a parcel to what Asaas says of its payment (read back from Asaas, never from a webhook's payload).
 * Answers whether anything changed. Also settles the carnê as `quitado` when every parcel is paid.
 */
export function applyPayment(tx: DbOrTx, parcel: ParcelRow, payment: AsaasPayment, now: string, eventId: string | null): boolean {
	const status = payment.deleted ? 'CANCELED' : payment.status
	const forward = rank(status) > rank(parcel.status) || (rank(status) === rank(parcel.status) && status !== parcel.status && isPaid(status))
	if (!forward) return false
	const open = rank(status) <= 1
	tx.update(carneParcelas)
		.set({
			status,
			data_pagamento: isPaid(status)
				? (payment.paymentDate ?? payment.clientPaymentDate ?? payment.confirmedDate ?? now.slice(0, 10))
				: parcel.data_pagamento,
			...(open
				? {
						valor_centavos: Math.round(payment.value * 100),
						vencimento: payment.dueDate,
						boleto_url: payment.bankSlipUrl ?? parcel.boleto_url
					}
				: {}),
			updated_at: now
		})
		.where(eq(carneParcelas.id, parcel.id))
		.run()
	const kind = eventOf(status)
	if (kind) recordEvent(tx, parcel, kind, now, eventId, Math.round(payment.value * 100))
	if (isPaid(status)) settleCarne(tx, parcel.carne_id, now)
	return true
}

/** An active carnê whose parcels are all paid becomes `quitado`. */
function settleCarne(tx: DbOrTx, carneId: number, now: string) {
	const unpaid = tx
		.select({ n: sql<number>`count(*)` })
		.from(carneParcelas)
		.where(
			and(
				eq(carneParcelas.carne_id, carneId),
				sql`${carneParcelas.status} not in ('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'DUNNING_RECEIVED')`
			)
		)
		.get()?.n
	if (unpaid === 0)
		tx.update(carnes)
			.set({ status: 'quitado', updated_at: now })
			.where(and(eq(carnes.id, carneId), eq(carnes.status, 'ativo')))
			.run()
}

/**
 * The carnês' part of the webhook inbox: every payment event of a representative's account whose payment is a
 * parcel of that account. The payment is read back from the account before anything changes, because a
 * representative's webhook token is optional and a payload proves nothing.
 */
export function carnePaymentHandler(ctx: Ctx): PaymentEventHandler {
	return {
		name: 'carnes',
		async handle(event: InboxEvent): Promise<boolean> {
			if (event.account === VENDOR_ACCOUNT || !event.paymentId) return false
			const parcel = ctx.db.select().from(carneParcelas).where(eq(carneParcelas.asaas_payment_id, event.paymentId)).get()
			if (!parcel || parcel.representante_cnpj !== event.account) return false
			const account = asaasAccount(ctx.db, ctx.secrets, event.account)
			if (!account?.apiKey) throw new Error('Conta Asaas do representante sem chave: o pagamento não pode ser conferido.')
			let payment: AsaasPayment
			try {
				payment = await asaasClient(ctx, account).getPayment(event.paymentId)
			} catch (error) {
				// A payment Asaas no longer knows was removed there.
				if (error instanceof AsaasError && error.upstreamStatus === 404) payment = removedPayment(parcel)
				else throw error
			}
			const now = ctx.clock.now().toISOString()
			writeTransaction(ctx.db, (tx) => {
				const fresh = tx.select().from(carneParcelas).where(eq(carneParcelas.id, parcel.id)).get()
				if (fresh && applyPayment(tx, fresh, payment, now, event.eventId) && payment.deleted)
					closeIfNothingOpen(ctx, tx, parcel.carne_id, now)
			})
			return true
		}
	}
}

/** What Asaas' silence about a parcel means: it was deleted there. */
const removedPayment = (parcel: ParcelRow): AsaasPayment =>
	({ id: parcel.asaas_payment_id, deleted: true, status: 'PENDING', value: parcel.valor_centavos / 100 }) as AsaasPayment

/**
 * After parcels were deleted at Asaas (the plan deleted in Asaas' screens, found by a webhook or the
 * reconciliation): an active carnê with no parcel left open is over, as `cancelado`, logged once with how many
 * parcels Asaas cancelled. Never `quitado`: the deletion just read left a parcel CANCELED in this transaction, and a
 * carnê whose parcels are all paid was already settled by the payment that paid the last one (settleCarne).
 */
function closeIfNothingOpen(ctx: Pick<Ctx, 'clock'>, tx: DbOrTx, carneId: number, now: string) {
	const carne = tx.select().from(carnes).where(eq(carnes.id, carneId)).get()
	if (carne?.status !== 'ativo') return
	const parcels = tx.select({ status: carneParcelas.status }).from(carneParcelas).where(eq(carneParcelas.carne_id, carneId)).all()
	if (parcels.some((p) => rank(p.status) < 2)) return
	tx.update(carnes).set({ status: 'cancelado', updated_at: now }).where(eq(carnes.id, carneId)).run()
	const razao = tx.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, carne.empresa_codigo)).get()?.razao
	logActivity(
		tx,
		ctx.clock,
		'billing.carne-closed-at-asaas',
		{
			razao: razao ?? `Empresa ${carne.empresa_codigo}`,
			carne: carneId,
			canceladas: parcels.filter((p) => p.status === 'CANCELED').length
		},
		{ actorName: 'Asaas', entityId: carneId }
	)
}

/** Asaas' quota is 25,000 requests per 12 h per account; the job runs 24 times in 12 h and leaves half for people. */
export const RECONCILE_BATCH_PER_ACCOUNT = 500

/**
 * Reads the parcels of the open carnês from Asaas (one request per carnê, the least recently read first, at most
 * `batch` per account) and repairs what missed webhooks left behind. An account that answers 429 is left for
 * the next run. Answers how many carnês were read and how many parcels changed.
 */
export async function reconcileCarnes(
	ctx: Ctx,
	options: { scope?: RepresentativeScope; batch?: number } = {}
): Promise<{ verificadas: number; corrigidas: number }> {
	const batch = options.batch ?? RECONCILE_BATCH_PER_ACCOUNT
	const accounts = ctx.db
		.selectDistinct({ cnpj: carnes.representante_cnpj })
		.from(carnes)
		.where(and(eq(carnes.status, 'ativo'), options.scope ? options.scope.on(carnes.representante_cnpj) : undefined))
		.all()
	let verificadas = 0
	let corrigidas = 0
	for (const { cnpj } of accounts) {
		const account = asaasAccount(ctx.db, ctx.secrets, cnpj)
		if (!account?.active) continue
		const client = asaasClient(ctx, account)
		const open = ctx.db
			.select()
			.from(carnes)
			.where(and(eq(carnes.status, 'ativo'), eq(carnes.representante_cnpj, cnpj)))
			.orderBy(asc(carnes.updated_at), asc(carnes.id))
			.limit(batch)
			.all()
		for (const carne of open) {
			let payments: AsaasPayment[]
			try {
				payments = await client.listAllInstallmentPayments(carne.asaas_installment_id)
			} catch (error) {
				if (error instanceof AsaasError && error.code === 'rate_limited') {
					ctx.log('billing.reconcile_rate_limited', { account: cnpj, retryAfterSeconds: error.retryAfterSeconds ?? null })
					break
				}
				// A plan Asaas no longer knows was deleted there, with every parcel it still had open.
				if (!(error instanceof AsaasError && error.upstreamStatus === 404)) {
					ctx.log('billing.reconcile_error', { account: cnpj, carne: carne.id, message: String((error as Error)?.message ?? error) })
					continue
				}
				payments = []
			}
			verificadas++
			const now = ctx.clock.now().toISOString()
			corrigidas += writeTransaction(ctx.db, (tx) => {
				let changed = 0
				let removed = 0
				const parcels = tx.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id)).all()
				const seen = new Set(payments.map((p) => p.id))
				for (const payment of payments) {
					const parcel = parcels.find((p) => p.asaas_payment_id === payment.id)
					if (parcel && applyPayment(tx, parcel, payment, now, null)) {
						changed++
						if (payment.deleted) removed++
					}
				}
				// A parcel the plan no longer lists was removed at Asaas.
				for (const parcel of parcels) {
					if (seen.has(parcel.asaas_payment_id) || rank(parcel.status) >= 2) continue
					if (applyPayment(tx, parcel, removedPayment(parcel), now, null)) {
						changed++
						removed++
					}
				}
				if (removed > 0) closeIfNothingOpen(ctx, tx, carne.id, now)
				tx.update(carnes).set({ updated_at: now }).where(eq(carnes.id, carne.id)).run()
				return changed
			})
		}
	}
	return { verificadas, corrigidas }
}
