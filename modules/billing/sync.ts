import { and, asc, count, eq, exists, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type AsaasClient, AsaasError, type AsaasPayment, isReversed } from '../asaas'
import { companies } from '../companies'
import { notifyUsers } from '../messaging'
import { MINUTE, formatBrDate, formatBrl, readCalendarDate, todayIso } from '../core'
import type { AppContext } from '../core/server'
import { AppError, writeTransaction } from '../core/server'
import type { RepresentativeScope } from '../resellers'
import { type AsaasAccount, asaasAccount, asaasClient, webhookState } from './accounts'
import { afterParcelClosed } from './dunning'
import { recordEvent } from './parcel-history'
import { dropRenewal, recordRenewal } from './renewals'
import { trustRemoval } from './identity'
import type { InboxEvent, PaymentEventHandler } from './inbox'
import { type EventType, OPEN_STATUSES, PAID_STATUSES, isPaid } from './labels'
import { VENDOR_ACCOUNT } from './model'
import { carneParcelas, carnes } from './schema'

type Ctx = AppContext
type ParcelRow = typeof carneParcelas.$inferSelect
type CarneRow = typeof carnes.$inferSelect

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

/** Statuses of a dispute still open: a won dispute (AWAITING_CHARGEBACK_REVERSAL) moves the parcel back to paid. */
const DISPUTED = ['CHARGEBACK_REQUESTED', 'CHARGEBACK_DISPUTE']

/**
 * The few moves back a parcel makes, each with its own history line: a cash receipt undone (RECEIVED_IN_CASH →
 * open), a removed charge restored (CANCELED → open), a dispute won (chargeback → AWAITING_CHARGEBACK_REVERSAL).
 * From a webhook, only the event that announces the move makes it, so a stale read never undoes a payment; the
 * reconciliation (one run at a time) reads the state as it is.
 */
function backwardMove(from: string, to: string, deleted: boolean, event: string | null): EventType | null {
	const open = (OPEN_STATUSES as readonly string[]).includes(to) && !deleted
	const announced = (name: string) => event === null || event === name
	if (from === 'RECEIVED_IN_CASH' && open && announced('PAYMENT_RECEIVED_IN_CASH_UNDONE')) return 'pagamento_desfeito'
	if (from === 'CANCELED' && open && announced('PAYMENT_RESTORED')) return 'restauracao'
	if (DISPUTED.includes(from) && to === 'AWAITING_CHARGEBACK_REVERSAL' && !deleted) return 'disputa_vencida'
	return null
}

/**
 * Brings a parcel to what Asaas says of its payment (read back from Asaas, never from a webhook's payload).
 * Answers whether anything changed. Also settles the carnê as `quitado` when every parcel is paid, and reopens it
 * when a move back leaves a parcel open. `event` is the webhook's event name (null from the reconciliation). A new
 * payment, removal or refund notifies the representative in the top bar, unless `quiet` (their own cancel).
 */
export async function applyPayment(
	tx: DbOrTx,
	parcel: ParcelRow,
	payment: AsaasPayment,
	now: string,
	eventId: string | null,
	event: string | null = null,
	options: { quiet?: boolean } = {}
): Promise<boolean> {
	const status = payment.deleted ? 'CANCELED' : payment.status
	const back = backwardMove(parcel.status, status, !!payment.deleted, event)
	if (back) {
		const ciclo = back === 'disputa_vencida' ? parcel.ciclo : parcel.ciclo + 1
		await tx
			.update(carneParcelas)
			.set({
				status,
				ciclo,
				data_pagamento: back === 'disputa_vencida' ? parcel.data_pagamento : null,
				valor_centavos: Math.round(payment.value * 100),
				vencimento: readCalendarDate(payment.dueDate) ?? parcel.vencimento,
				updated_at: now
			})
			.where(eq(carneParcelas.id, parcel.id))
		await recordEvent(tx, { ...parcel, ciclo }, back, now, eventId, Math.round(payment.value * 100))
		// A dispute won is money kept: a renewal the chargeback dropped waits again. An undone cash receipt was not paid.
		if (back === 'disputa_vencida') await recordRenewal(tx, parcel, now)
		if (back === 'pagamento_desfeito') await dropRenewal(tx, parcel.id, 'Recebimento em dinheiro desfeito antes da renovação.')
		if (back === 'disputa_vencida') await settleCarne(tx, parcel.carne_id, now)
		else
			await tx
				.update(carnes)
				.set({ status: 'ativo', updated_at: now })
				.where(and(eq(carnes.id, parcel.carne_id), inArray(carnes.status, ['quitado', 'cancelado'])))
		return true
	}
	// A paid parcel never moves back on a removal: Asaas removes only open charges, so a paid one "removed" is a
	// 404 of another account or a lost record, not a cancellation.
	if (status === 'CANCELED' && isPaid(parcel.status)) return false
	const forward = rank(status) > rank(parcel.status) || (rank(status) === rank(parcel.status) && status !== parcel.status && isPaid(status))
	if (!forward) return false
	const open = rank(status) <= 1
	await tx
		.update(carneParcelas)
		.set({
			status,
			data_pagamento: isPaid(status)
				? (readCalendarDate(payment.paymentDate ?? payment.clientPaymentDate ?? payment.confirmedDate) ?? now.slice(0, 10))
				: parcel.data_pagamento,
			...(open
				? {
						valor_centavos: Math.round(payment.value * 100),
						vencimento: readCalendarDate(payment.dueDate) ?? parcel.vencimento,
						boleto_url: payment.bankSlipUrl ?? parcel.boleto_url
					}
				: {}),
			updated_at: now
		})
		.where(eq(carneParcelas.id, parcel.id))
	// First known paid: the licence renewal its carnê buys is written with it, once per parcel (billing/renewals.ts).
	if (isPaid(status) && !isPaid(parcel.status)) await recordRenewal(tx, parcel, now)
	// Refunded, charged back or removed: a renewal not yet applied goes; one applied stays, and its history line says so.
	const kept = isReversed(status) || status === 'CANCELED' ? await dropRenewal(tx, parcel.id, droppedBecause(status)) : null
	const note = kept ? `a renovação da licença até ${formatBrDate(kept)} que ela pagou foi mantida` : undefined
	const kind = eventOf(status)
	if (kind && (await recordEvent(tx, parcel, kind, now, eventId, Math.round(payment.value * 100), note)) && !options.quiet)
		await notifyRepresentative(tx, parcel, kind, Math.round(payment.value * 100), now, note)
	if (isPaid(status)) await settleCarne(tx, parcel.carne_id, now)
	// Paid, removed or refunded: a block for non-payment with nothing left overdue is lifted now (dunning.ts).
	if (!open && rank(parcel.status) <= 1) await afterParcelClosed(tx, { ...parcel, status }, now)
	return true
}

/** Why a renewal not yet applied was dropped, by what became of its parcel. */
function droppedBecause(status: string): string {
	if (status === 'CANCELED') return 'Parcela removida no Asaas antes da renovação.'
	if (status.startsWith('CHARGEBACK')) return 'Pagamento contestado (chargeback) antes da renovação.'
	return 'Parcela estornada antes da renovação.'
}

/** What the representative is told in the top bar when Asaas pays, removes or refunds one of their parcels. */
const NOTICES = {
	pagamento: { title: 'Parcela paga', what: 'paga', type: 'success' },
	cancelamento: { title: 'Parcela removida no Asaas', what: 'removida no Asaas', type: 'warning' },
	estorno: { title: 'Parcela estornada', what: 'estornada', type: 'warning' }
} as const

/**
 * The top-bar notification of a parcel's new history line ("Parcela 2/6 de Padaria X paga — R$ 149,90"), written
 * with it: a history line is unique per payment, kind and cycle, so a repeated event tells nobody twice.
 */
async function notifyRepresentative(
	tx: DbOrTx,
	parcel: ParcelRow,
	kind: keyof typeof NOTICES | 'vencimento',
	centavos: number,
	now: string,
	note?: string
) {
	if (kind === 'vencimento') return
	const notice = NOTICES[kind]
	const total = (await tx.select({ n: carnes.numero_parcelas }).from(carnes).where(eq(carnes.id, parcel.carne_id)))[0]?.n
	const razao = (await tx.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, parcel.empresa_codigo)))[0]?.razao
	const message = `Parcela ${parcel.numero}/${total ?? '?'} de ${razao ?? `empresa ${parcel.empresa_codigo}`} ${notice.what} — ${formatBrl(centavos)}${note ? `: ${note}` : ''}`
	await notifyUsers(tx, { now: () => new Date(now) }, { representanteCnpj: parcel.representante_cnpj }, notice.title, message, notice.type)
}

/** An active carnê whose parcels are all paid becomes `quitado`. */
async function settleCarne(tx: DbOrTx, carneId: number, now: string) {
	const unpaid = (
		await tx
			.select({ n: count() })
			.from(carneParcelas)
			.where(and(eq(carneParcelas.carne_id, carneId), notInArray(carneParcelas.status, [...PAID_STATUSES])))
	)[0]?.n
	if (unpaid === 0)
		await tx
			.update(carnes)
			.set({ status: 'quitado', updated_at: now })
			.where(and(eq(carnes.id, carneId), eq(carnes.status, 'ativo')))
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
			const parcelOf = async (paymentId: string) =>
				(await ctx.db.select().from(carneParcelas).where(eq(carneParcelas.asaas_payment_id, paymentId)))[0]
			let parcel = await parcelOf(event.paymentId)
			if (!parcel) {
				await waitForUnfinishedCarne(ctx, event)
				// Its carnê may have been finished between the two reads: then its parcels are stored now.
				parcel = await parcelOf(event.paymentId)
				if (!parcel) return false
			}
			if (parcel.representante_cnpj !== event.account) return false
			// Nothing a parcel's state depends on: not worth a request of the account's quota.
			if (INFORMATIONAL_EVENTS.includes(event.event)) return true
			const account = await asaasAccount(ctx.db, ctx.secrets, event.account)
			if (!account?.apiKey) throw new Error('Conta Asaas do representante sem chave: o pagamento não pode ser conferido.')
			const client = asaasClient(ctx, account)
			let payment: AsaasPayment
			try {
				payment = await client.getPayment(event.paymentId)
			} catch (error) {
				if (!(error instanceof AsaasError && error.upstreamStatus === 404)) throw error
				// A 404 is a removal only when the key still opens the account the carnê was made on.
				const carne = (await ctx.db.select().from(carnes).where(eq(carnes.id, parcel.carne_id)))[0]
				const trusted = await trustRemoval(ctx, account.id, client, {
					wallet: carne?.asaas_conta ?? null,
					customerId: carne?.asaas_customer_id ?? null
				})
				if (!trusted) return true
				payment = removedPayment(parcel)
			}
			const now = ctx.clock.now().toISOString()
			await writeTransaction(ctx.db, async (tx) => {
				const fresh = (await tx.select().from(carneParcelas).where(eq(carneParcelas.id, parcel.id)))[0]
				if (!fresh) return
				// The removals of a cancel asked in the portal tell nobody: the person who asked knows (as the cancel's own
				// read-back, which this webhook may come before).
				const carne = (await tx.select().from(carnes).where(eq(carnes.id, parcel.carne_id)))[0]
				const quiet = !!carne && payment.deleted === true && cancelInProgress(carne, ctx.clock.now())
				if ((await applyPayment(tx, fresh, payment, now, event.eventId, event.event, { quiet })) && payment.deleted)
					await closeIfNothingOpen(ctx, tx, parcel.carne_id, now)
			})
			return true
		}
	}
}

/** Events that tell nothing a parcel's state depends on (its creation, its boleto or checkout viewed). */
const INFORMATIONAL_EVENTS = ['PAYMENT_CREATED', 'PAYMENT_BANK_SLIP_VIEWED', 'PAYMENT_CHECKOUT_VIEWED']

/**
 * An event about a payment no parcel holds yet may be of a carnê still `criando` (its plan made, its parcels not yet
 * stored): then it is handed back to the inbox, to be retried once finishCarnes() has stored them, never left
 * 'sem dono'. Only while the account has such a carnê; the payload's plan or reference is enough to wait (a forged
 * one only delays its own event), and Asaas is asked only when the payload names neither.
 */
async function waitForUnfinishedCarne(ctx: Ctx, event: InboxEvent) {
	const unfinished = await ctx.db
		.select({ referencia: carnes.referencia, installment: carnes.asaas_installment_id })
		.from(carnes)
		.where(and(eq(carnes.representante_cnpj, event.account), eq(carnes.status, 'criando')))
	if (unfinished.length === 0 || !event.paymentId) return
	const said = event.payload.payment as { externalReference?: unknown; installment?: unknown } | undefined
	let ref: { externalReference?: unknown; installment?: unknown } = {
		externalReference: said?.externalReference,
		installment: said?.installment
	}
	if (typeof ref.externalReference !== 'string' && typeof ref.installment !== 'string') {
		const account = await asaasAccount(ctx.db, ctx.secrets, event.account)
		if (!account?.apiKey) return
		ref = await asaasClient(ctx, account).getPayment(event.paymentId)
	}
	if (unfinished.some((c) => c.referencia === ref.externalReference || (c.installment && c.installment === ref.installment)))
		throw new Error('O carnê deste pagamento ainda está sendo criado: o evento será tratado quando ele for concluído.')
}

/**
 * How long a cancel asked in the portal keeps the closing of its carnê to itself: the removals it sets off come back
 * as webhooks within seconds, and the cancel closes the carnê with who asked. A cancel that died leaves the closing
 * to the webhooks and the reconciliation after this.
 */
const CANCEL_CLAIM_MS = 5 * MINUTE

const cancelInProgress = (carne: Pick<CarneRow, 'cancelamento_pedido_em'>, now: Date) =>
	carne.cancelamento_pedido_em !== null && now.getTime() - Date.parse(carne.cancelamento_pedido_em) < CANCEL_CLAIM_MS

/** What Asaas' silence about a parcel means, once trustRemoval() agreed: it was deleted there. */
const removedPayment = (parcel: ParcelRow): AsaasPayment =>
	({ id: parcel.asaas_payment_id, deleted: true, status: 'PENDING', value: parcel.valor_centavos / 100 }) as AsaasPayment

/**
 * After parcels were deleted at Asaas (the plan deleted in Asaas' screens, found by a webhook or the
 * reconciliation): an active carnê with no parcel left open is over, as `cancelado`, logged once with how many
 * parcels Asaas cancelled. Never `quitado`: the deletion just read left a parcel CANCELED in this transaction, and a
 * carnê whose parcels are all paid was already settled by the payment that paid the last one (settleCarne).
 */
async function closeIfNothingOpen(ctx: Pick<Ctx, 'clock'>, tx: DbOrTx, carneId: number, now: string) {
	const carne = (await tx.select().from(carnes).where(eq(carnes.id, carneId)))[0]
	if (carne?.status !== 'ativo' || cancelInProgress(carne, ctx.clock.now())) return
	const parcels = await tx.select({ status: carneParcelas.status }).from(carneParcelas).where(eq(carneParcelas.carne_id, carneId))
	if (parcels.some((p) => rank(p.status) < 2)) return
	await tx.update(carnes).set({ status: 'cancelado', updated_at: now }).where(eq(carnes.id, carneId))
	const razao = (await tx.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, carne.empresa_codigo)))[0]?.razao
	await logActivity(
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

/** What one read-back of a plan did: parcels changed, removed, still open at Asaas; removals held back (foreign key). */
export interface PlanSync {
	changed: number
	removed: number
	open: number
	held: boolean
}

/**
 * Reads a carnê's plan back from Asaas and brings its parcels to it: the cancel, the removal's repair and the
 * reconciliation go through here. A parcel the plan no longer lists (or a plan answering 404) was removed, unless
 * trustRemoval() finds the key now opens another account. Throws what Asaas answered when it could not be read.
 */
export async function syncCarne(
	ctx: Ctx,
	carne: CarneRow,
	account: AsaasAccount,
	client: AsaasClient,
	options: { closing?: boolean } = {}
): Promise<PlanSync> {
	if (!carne.asaas_installment_id) return { changed: 0, removed: 0, open: 0, held: false }
	let payments: AsaasPayment[]
	let planGone = false
	try {
		payments = await client.listAllInstallmentPayments(carne.asaas_installment_id)
	} catch (error) {
		if (!(error instanceof AsaasError && error.upstreamStatus === 404)) throw error
		// A plan Asaas no longer knows was deleted there, with every parcel it still had open.
		payments = []
		planGone = true
	}
	const listed = new Set(payments.map((p) => p.id))
	const parcels = await ctx.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id))
	const missing = parcels.some((p) => !listed.has(p.asaas_payment_id) && rank(p.status) < 2)
	const trusted =
		missing || planGone
			? await trustRemoval(ctx, account.id, client, { wallet: carne.asaas_conta, customerId: carne.asaas_customer_id })
			: true
	const now = ctx.clock.now().toISOString()
	// The person cancelling is not told in the top bar what they have just done.
	const quiet = { quiet: options.closing }
	return writeTransaction(ctx.db, async (tx) => {
		let changed = 0
		let removed = 0
		const fresh = await tx.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id))
		for (const payment of payments) {
			const parcel = fresh.find((p) => p.asaas_payment_id === payment.id)
			if (parcel && (await applyPayment(tx, parcel, payment, now, null, null, quiet))) {
				changed++
				if (payment.deleted) removed++
			}
		}
		if (trusted)
			for (const parcel of fresh) {
				if (listed.has(parcel.asaas_payment_id) || rank(parcel.status) >= 2) continue
				if (await applyPayment(tx, parcel, removedPayment(parcel), now, null, null, quiet)) {
					changed++
					removed++
				}
			}
		// A cancel closes the carnê itself, in the person's name.
		if (removed > 0 && !options.closing) await closeIfNothingOpen(ctx, tx, carne.id, now)
		await tx.update(carnes).set({ conferido_em: now }).where(eq(carnes.id, carne.id))
		const open =
			(
				await tx
					.select({ n: count() })
					.from(carneParcelas)
					.where(and(eq(carneParcelas.carne_id, carne.id), inArray(carneParcelas.status, [...OPEN_STATUSES])))
			)[0]?.n ?? 0
		return { changed, removed, open, held: !trusted }
	})
}

/** A carnê whose account's webhooks arrive is read back at most once a day, and only when one of its parcels is due. */
const DUE_READ_EVERY_MS = 24 * 60 * MINUTE
/** An account whose webhooks do not arrive (queue interrupted, not registered, not readable): every open carnê, every 3 h. */
const BLIND_READ_EVERY_MS = 3 * 60 * MINUTE
/** The most carnês one run reads per account. */
export const RECONCILE_BATCH_PER_ACCOUNT = 500

/** The carnês the reconciliation should read now: what a webhook should have told and did not. */
async function carnesToRead(ctx: Ctx, cnpj: string, batch: number, mode: 'due' | 'blind' | 'button'): Promise<CarneRow[]> {
	const now = ctx.clock.now()
	const today = todayIso(ctx.clock)
	const readBefore = (ms: number) => {
		const before = new Date(now.getTime() - ms).toISOString()
		return or(isNull(carnes.conferido_em), lte(carnes.conferido_em, before))
	}
	const hasParcel = (statuses: readonly string[], dueBy?: string) =>
		exists(
			ctx.db
				.select({ one: sql`1` })
				.from(carneParcelas)
				.where(
					and(
						eq(carneParcelas.carne_id, carnes.id),
						inArray(carneParcelas.status, [...statuses]),
						dueBy ? lte(carneParcelas.vencimento, dueBy) : undefined
					)
				)
		)
	const wanted =
		mode === 'button'
			? or(eq(carnes.status, 'ativo'), and(eq(carnes.status, 'cancelado'), hasParcel(OPEN_STATUSES)))
			: mode === 'blind'
				? or(
						and(eq(carnes.status, 'ativo'), readBefore(BLIND_READ_EVERY_MS)),
						and(eq(carnes.status, 'cancelado'), hasParcel(OPEN_STATUSES), readBefore(BLIND_READ_EVERY_MS))
					)
				: or(
						// A due parcel not seen paid.
						and(eq(carnes.status, 'ativo'), hasParcel(OPEN_STATUSES, today), readBefore(DUE_READ_EVERY_MS)),
						// A cancel whose removal Asaas may not have applied.
						and(eq(carnes.status, 'cancelado'), hasParcel(OPEN_STATUSES), readBefore(BLIND_READ_EVERY_MS))
					)
	return await ctx.db
		.select()
		.from(carnes)
		.where(and(eq(carnes.representante_cnpj, cnpj), wanted))
		.orderBy(asc(carnes.conferido_em), asc(carnes.id))
		.limit(batch)
}

/** What a reconciliation did, and what Asaas refused (with the wait it asked for, when it said). */
export interface Reconciliation {
	verificadas: number
	corrigidas: number
	recusadas: number
	retryAfterSeconds: number | null
	motivo: string | null
}

/**
 * Reads back from Asaas what webhooks should have told and did not (see carnesToRead; with `all`, every open carnê
 * of the scope, as the Sincronizar button asks) and repairs it; a cancelled carnê whose parcels are still open at
 * Asaas is cancelled there again. An account that answers 429 is left for the next run.
 */
export async function reconcileCarnes(
	ctx: Ctx,
	options: { scope?: RepresentativeScope; batch?: number; all?: boolean } = {}
): Promise<Reconciliation> {
	const batch = options.batch ?? RECONCILE_BATCH_PER_ACCOUNT
	const accounts = await ctx.db
		.selectDistinct({ cnpj: carnes.representante_cnpj })
		.from(carnes)
		.where(and(inArray(carnes.status, ['ativo', 'cancelado']), options.scope ? options.scope.on(carnes.representante_cnpj) : undefined))
	const result: Reconciliation = { verificadas: 0, corrigidas: 0, recusadas: 0, retryAfterSeconds: null, motivo: null }
	const refused = (error: AsaasError) => {
		result.recusadas++
		result.motivo = error.message
		if (error.retryAfterSeconds !== undefined) result.retryAfterSeconds = Math.max(result.retryAfterSeconds ?? 0, error.retryAfterSeconds)
	}
	for (const { cnpj } of accounts) {
		const account = await asaasAccount(ctx.db, ctx.secrets, cnpj)
		if (!account?.active) continue
		const client = asaasClient(ctx, account)
		const mode = options.all ? 'button' : (await webhookState(ctx, cnpj)).status === 'ativo' ? 'due' : 'blind'
		for (const carne of await carnesToRead(ctx, cnpj, batch, mode)) {
			try {
				if (carne.status === 'cancelado') await client.deleteInstallmentPendingPayments(carne.asaas_installment_id!).catch(() => null)
				const sync = await syncCarne(ctx, carne, account, client)
				result.verificadas++
				result.corrigidas += sync.changed
			} catch (error) {
				if (!(error instanceof AsaasError)) throw error
				refused(error)
				if (error.code === 'rate_limited') {
					ctx.log('billing.reconcile_rate_limited', { account: cnpj, retryAfterSeconds: error.retryAfterSeconds ?? null })
					break
				}
				ctx.log('billing.reconcile_error', { account: cnpj, carne: carne.id, message: error.message })
			}
		}
	}
	return result
}

/**
 * What the Sincronizar button says. When Asaas refused every read, the person is told so, and when to try again
 * (an error, so the screen shows it as one); a partial refusal is said beside what was done.
 */
export function syncMessage(result: Reconciliation): string {
	const when =
		result.retryAfterSeconds === null
			? 'em alguns minutos'
			: result.retryAfterSeconds < 90
				? `em ${result.retryAfterSeconds} s`
				: `em ${Math.ceil(result.retryAfterSeconds / 60)} min`
	if (result.recusadas > 0 && result.verificadas === 0)
		throw new AppError(
			result.retryAfterSeconds === null ? 502 : 429,
			`O Asaas recusou a consulta (${result.motivo}). Nada foi conferido: tente novamente ${when}.`,
			'ASAAS'
		)
	const done =
		result.corrigidas > 0
			? `Sincronizado: ${result.corrigidas} parcela(s) atualizada(s) a partir do Asaas.`
			: `Sincronizado: ${result.verificadas} carnê(s) conferido(s), nada a corrigir.`
	return result.recusadas > 0
		? `${done} O Asaas recusou ${result.recusadas} consulta(s) (${result.motivo}): tente novamente ${when} para conferir o resto.`
		: done
}
