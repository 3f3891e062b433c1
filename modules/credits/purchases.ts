import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type AsaasClient, AsaasError, type AsaasPayment, type PaymentStatus, isReversed } from '../asaas'
import type { SessionUser } from '../auth'
import { type PaymentEventHandler, VENDOR_ACCOUNT, accountWallet, asaasAccount, asaasClient, trustRemoval } from '../billing'
import { MINUTE, addDaysIso, formatBrl, formatNumber, startOfDayInSaoPaulo, toReais, todayIso } from '../core'
import { type AppContext, AppError, notFound, unprocessable, writeTransaction } from '../core/server'
import { notifyUsers } from '../messaging'
import { findRepresentativeByCnpj } from '../resellers'
import { getSetting } from '../settings'
import { LeaseLost } from '../jobs'
import type { AutoPurchaseBody, AutoPurchaseResult, PaymentStatusResult, PixQrCodeResult, PurchaseStatus } from './model'
import { creditPurchases, credits } from './schema'
import { applyRenewals, bumpBalance } from './service'
import type { PurchaseAdmission } from './purchase-limits'

type Purchase = typeof creditPurchases.$inferSelect
type PurchaseState = Purchase['status']
type Ctx = Pick<AppContext, 'db' | 'clock' | 'log' | 'secrets' | 'config' | 'gateways'>

export const PURCHASE_MESSAGES = {
	notConfigured: 'Sistema não configurado - Entre em contato com o administrador para habilitar a autocompra',
	notFound: 'Compra não encontrada.'
}

/** The first check of a new purchase, and the longest wait between two checks. */
export const FIRST_CHECK_MS = 10_000
export const MAX_CHECK_INTERVAL_MS = 5 * MINUTE
/** A purchase stays open at least this long, even when bought just before midnight (the screen polls for 30 minutes). */
const MIN_OPEN_MS = 30 * MINUTE
/** Longer than a create can take with the client's timeouts and retries. */
const UNFINISHED_AFTER_MS = 5 * MINUTE

/** Paid, whichever event announced it (PIX often sends only PAYMENT_RECEIVED). */
const PAID: PaymentStatus[] = ['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH']
/** The states from which a payment read back from Asaas still credits the purchase (money received is credited). */
const CREDITABLE: PurchaseState[] = ['pendente', 'expirada', 'cancelada']

const API_STATUS: Record<PurchaseState, PurchaseStatus> = {
	criando: 'PENDING',
	pendente: 'PENDING',
	paga: 'CONFIRMED',
	expirada: 'EXPIRED',
	cancelada: 'CANCELLED',
	estornada: 'CANCELLED',
	divergente: 'CANCELLED'
}

/** The charge's externalReference: which purchase it pays. */
export const purchaseReference = (id: number) => `autocompra-${id}`

const centavos = (reais: number) => Math.round(reais * 100)

async function vendorClient(ctx: Ctx): Promise<AsaasClient | null> {
	const account = await asaasAccount(ctx.db, ctx.secrets, VENDOR_ACCOUNT)
	return account?.active ? asaasClient(ctx, account) : null
}

/** An Asaas failure as the buyer sees it: the client's pt-BR sentence, never its HTTP status. */
function upstream(error: unknown, what: string): unknown {
	return error instanceof AsaasError ? new AppError(502, `${what}: ${error.message}`, 'ASAAS') : error
}

/** The representative as a customer of the vendor's Asaas account: found by CNPJ, else created. */
async function vendorCustomer(client: AsaasClient, rep: { nome: string; cnpj: string; email: string | null }) {
	const found = await client.findCustomerByCpfCnpj(rep.cnpj)
	if (found) return found
	return client.createCustomer({ name: rep.nome, cpfCnpj: rep.cnpj, ...(rep.email ? { email: rep.email } : {}) })
}

/**
 * POST /api/credits/auto-purchase: the price of now, a PIX charge on the vendor's account due today (Brazil time)
 * carrying the purchase as externalReference, its copy-and-paste code. Nothing is kept when the charge cannot be made.
 */
export async function startPurchase(
	ctx: Ctx,
	user: SessionUser,
	body: AutoPurchaseBody,
	admit: PurchaseAdmission
): Promise<AutoPurchaseResult> {
	const client = await vendorClient(ctx)
	if (!client) throw unprocessable(PURCHASE_MESSAGES.notConfigured, 'NOT_CONFIGURED')
	const rep = await findRepresentativeByCnpj(ctx.db, user.cnpj)
	if (!rep) throw notFound('Representante não encontrado.')
	const unit = centavos(Number(await getSetting(ctx.db, 'app.valor_credito_individual')))
	const total = unit * body.quantidade
	const now = ctx.clock.now()
	const today = todayIso(ctx.clock)
	const endOfDay = Date.parse(startOfDayInSaoPaulo(addDaysIso(today, 1)))
	const admitted = await writeTransaction(ctx.db, async (tx) => {
		const again = await admit(tx)
		if (again) return { again }
		const [purchase] = await tx
			.insert(creditPurchases)
			.values({
				representante_id: rep.cnpj,
				usuario_id: user.id,
				quantidade: body.quantidade,
				valor_unitario_centavos: unit,
				valor_total_centavos: total,
				status: 'criando',
				vencimento: today,
				created_at: now.toISOString(),
				expires_at: new Date(Math.max(endOfDay, now.getTime() + MIN_OPEN_MS)).toISOString(),
				updated_at: now.toISOString()
			})
			.returning()
		return { purchase }
	})
	if (admitted.again) return admitted.again
	const { purchase } = admitted
	let payment: AsaasPayment
	try {
		const wallet = await accountWallet(ctx, VENDOR_ACCOUNT, client)
		if (wallet) await ctx.db.update(creditPurchases).set({ asaas_conta: wallet }).where(eq(creditPurchases.id, purchase.id))
		const customer = await vendorCustomer(client, rep)
		payment = await createCharge(client, {
			customer: customer.id,
			billingType: 'PIX',
			value: total / 100,
			dueDate: today,
			description: `K-Licenças: ${body.quantidade} ${body.quantidade === 1 ? 'crédito' : 'créditos'} de licença (compra nº ${purchase.id})`,
			externalReference: purchaseReference(purchase.id)
		})
	} catch (error) {
		await ctx.db.delete(creditPurchases).where(and(eq(creditPurchases.id, purchase.id), eq(creditPurchases.status, 'criando')))
		throw upstream(error, 'Não foi possível criar a cobrança PIX')
	}
	const qr = await client.getPixQrCode(payment.id).catch((error: unknown) => {
		// The charge exists: the screen offers 'Carregar QR Code' to fetch the code again.
		ctx.log('credits.purchase_qr_failed', { purchase: purchase.id, message: String((error as Error)?.message ?? error) })
		return null
	})
	await ctx.db
		.update(creditPurchases)
		.set({
			status: 'pendente',
			charge_id: payment.id,
			pix_copia_e_cola: qr?.payload ?? null,
			pix_qr_code: qr?.encodedImage ?? null,
			next_check_at: new Date(now.getTime() + FIRST_CHECK_MS).toISOString(),
			updated_at: ctx.clock.now().toISOString()
		})
		.where(eq(creditPurchases.id, purchase.id))
	return {
		message: 'Compra processada: pague o PIX para receber os créditos.',
		chargeId: payment.id,
		quantidade: body.quantidade,
		valor: toReais(total),
		metodoPagamento: 'PIX',
		vencimento: today,
		pixCopyPaste: qr?.payload ?? null,
		pixQrCode: qr?.encodedImage ?? null
	}
}

/** The charge Asaas holds under a purchase's reference, if it made one. */
async function chargeByReference(client: AsaasClient, reference: string | undefined): Promise<AsaasPayment | undefined> {
	return (await client.listPayments({ externalReference: reference, limit: 1 })).data[0]
}

/** Creates the charge; when the answer was lost on the way, finds it by its reference instead of charging twice. */
async function createCharge(client: AsaasClient, input: Parameters<AsaasClient['createPayment']>[0]): Promise<AsaasPayment> {
	try {
		return await client.createPayment(input)
	} catch (error) {
		if (!(error instanceof AsaasError && error.uncertain)) throw error
		const found = await chargeByReference(client, input.externalReference)
		if (!found) throw error
		return found
	}
}

/** The buyer's own purchase by its charge; anyone else's answers exactly like a missing one. */
async function ownPurchase(db: DbOrTx, user: SessionUser, chargeId: string): Promise<Purchase> {
	const purchase = (
		await db
			.select()
			.from(creditPurchases)
			.where(and(eq(creditPurchases.charge_id, chargeId), eq(creditPurchases.representante_id, user.cnpj)))
	)[0]
	if (!purchase) throw notFound(PURCHASE_MESSAGES.notFound)
	return purchase
}

/** GET /api/credits/payment-status/{chargeId}: from the database only; the checker and the webhook keep it current. */
export async function purchaseStatus(db: DbOrTx, user: SessionUser, chargeId: string): Promise<PaymentStatusResult> {
	const purchase = await ownPurchase(db, user, chargeId)
	return { status: API_STATUS[purchase.status], value: toReais(purchase.valor_total_centavos) }
}

/** GET /api/credits/pix-qrcode/{chargeId}: the stored code, or asked again from Asaas while the charge is open. */
export async function purchaseQrCode(ctx: Ctx, user: SessionUser, chargeId: string): Promise<PixQrCodeResult> {
	const purchase = await ownPurchase(ctx.db, user, chargeId)
	if (purchase.pix_copia_e_cola) {
		return { success: true, pixCopyPaste: purchase.pix_copia_e_cola, pixQrCode: purchase.pix_qr_code }
	}
	const client = purchase.status === 'pendente' ? await vendorClient(ctx) : null
	const qr = client ? await client.getPixQrCode(chargeId).catch(() => null) : null
	if (!qr) return { success: false, pixCopyPaste: null, pixQrCode: null }
	await ctx.db
		.update(creditPurchases)
		.set({ pix_copia_e_cola: qr.payload, pix_qr_code: qr.encodedImage, updated_at: ctx.clock.now().toISOString() })
		.where(eq(creditPurchases.id, purchase.id))
	return { success: true, pixCopyPaste: qr.payload, pixQrCode: qr.encodedImage }
}

/**
 * Reads the charge back from the vendor's account and applies what Asaas says. The one door through which the
 * webhook and the checker change a purchase: nothing of a webhook's payload is believed.
 */
export async function refreshPurchase(ctx: Ctx, chargeId: string): Promise<PurchaseState | null> {
	const client = await vendorClient(ctx)
	if (!client) throw new Error('A conta Asaas do fornecedor não está configurada.')
	let payment: AsaasPayment
	try {
		payment = await client.getPayment(chargeId)
	} catch (error) {
		if (!(error instanceof AsaasError && error.upstreamStatus === 404)) throw error
		// A deleted charge may answer 404 (integrations.md, corrections 8): it ends the purchase, unless the vendor's
		// key now opens another account than the charge was made on (then nobody is told it was cancelled).
		const purchase = (await ctx.db.select().from(creditPurchases).where(eq(creditPurchases.charge_id, chargeId)))[0]
		const trusted = await trustRemoval(ctx, VENDOR_ACCOUNT, client, { wallet: purchase?.asaas_conta ?? null, customerId: null })
		if (!trusted) return purchase?.status ?? null
		payment = { id: chargeId, deleted: true, status: 'PENDING', value: (purchase?.valor_total_centavos ?? 0) / 100 } as AsaasPayment
	}
	return applyPayment(ctx, chargeId, payment)
}

/** Moves the purchase from one of `from` to `to`; false when another worker got there first. */
async function move(
	tx: DbOrTx,
	ctx: Pick<Ctx, 'clock'>,
	id: number,
	from: PurchaseState[],
	set: Partial<Purchase> & { status: PurchaseState }
) {
	const moved = await tx
		.update(creditPurchases)
		.set({ ...set, updated_at: ctx.clock.now().toISOString() })
		.where(and(eq(creditPurchases.id, id), inArray(creditPurchases.status, from)))
		.returning({ id: creditPurchases.id })
	return moved.length === 1
}

/**
 * What a payment read from Asaas means for its purchase, in ONE immediate transaction guarded by the purchase's
 * state: paid with the total → credited once; paid with another amount → nothing, and the administrador is
 * warned; refunded or charged back after crediting → the purchase's unused credits are deactivated.
 */
export function applyPayment(ctx: Pick<Ctx, 'db' | 'clock'>, chargeId: string, payment: AsaasPayment): Promise<PurchaseState | null> {
	return writeTransaction(ctx.db, async (tx) => {
		const purchase = (await tx.select().from(creditPurchases).where(eq(creditPurchases.charge_id, chargeId)))[0]
		if (!purchase) return null
		const refunded = (payment.refunds ?? []).filter((r) => r.status !== 'CANCELLED').reduce((sum, r) => sum + centavos(r.value), 0)
		if (isReversed(payment.status) || (PAID.includes(payment.status) && refunded > 0)) {
			await reverse(tx, ctx, purchase, payment.status)
		} else if (PAID.includes(payment.status)) {
			await credit(tx, ctx, purchase, centavos(payment.value))
		} else if (payment.deleted) {
			await move(tx, ctx, purchase.id, ['pendente', 'expirada'], { status: 'cancelada', next_check_at: null })
		} else if (purchase.status === 'pendente' && ctx.clock.now().toISOString() >= purchase.expires_at) {
			await move(tx, ctx, purchase.id, ['pendente'], { status: 'expirada', next_check_at: null })
		}
		return (
			(await tx.select({ status: creditPurchases.status }).from(creditPurchases).where(eq(creditPurchases.id, purchase.id)))[0]?.status ??
			null
		)
	})
}

async function credit(tx: DbOrTx, ctx: Pick<Ctx, 'clock'>, purchase: Purchase, paid: number) {
	const now = ctx.clock.now().toISOString()
	const rep = await findRepresentativeByCnpj(tx, purchase.representante_id)
	if (paid !== purchase.valor_total_centavos) {
		if (await move(tx, ctx, purchase.id, CREDITABLE, { status: 'divergente', valor_pago_centavos: paid, next_check_at: null })) {
			// No representanteCnpj: a line for the administrador, who settles the difference by hand.
			await logActivity(
				tx,
				ctx.clock,
				'credits.purchase-amount-mismatch',
				{
					compra: purchase.id,
					representante: rep?.nome ?? purchase.representante_id,
					pagoCentavos: paid,
					totalCentavos: purchase.valor_total_centavos
				},
				{ entityId: purchase.id }
			)
		}
		return
	}
	if (!(await move(tx, ctx, purchase.id, CREDITABLE, { status: 'paga', paid_at: now, valor_pago_centavos: paid, next_check_at: null })))
		return
	const batch = (
		await tx
			.insert(credits)
			.values({
				valor: purchase.quantidade,
				valor_original: purchase.quantidade,
				representante_id: purchase.representante_id,
				ativo: 1,
				data_compra: todayIso(ctx.clock),
				valor_unitario_centavos: purchase.valor_unitario_centavos,
				origem: 'compra',
				criado_por: purchase.usuario_id
			})
			.returning({ id: credits.id })
	)[0]
	await tx.update(creditPurchases).set({ batch_id: batch.id }).where(eq(creditPurchases.id, purchase.id))
	await bumpBalance(tx, purchase.representante_id, { disponivel: purchase.quantidade })
	await logActivity(
		tx,
		ctx.clock,
		'credits.purchased',
		{ quantidade: purchase.quantidade, representante: rep?.nome ?? purchase.representante_id, totalCentavos: paid },
		{ entityId: purchase.id, representanteCnpj: purchase.representante_id }
	)
	// The buyer may have left the purchase's screen ("Fazer Nova Compra", another page): the top bar tells them.
	await notifyUsers(
		tx,
		ctx.clock,
		{ representanteCnpj: purchase.representante_id },
		'Compra de créditos confirmada',
		`PIX de ${formatBrl(paid)} recebido: ${formatNumber(purchase.quantidade)} ${purchase.quantidade === 1 ? 'crédito adicionado' : 'créditos adicionados'} ao seu saldo.`,
		'success'
	)
	// Renewals of carnês that waited for credits are applied with them, oldest first.
	await applyRenewals(tx, ctx.clock, purchase.representante_id)
}

async function reverse(tx: DbOrTx, ctx: Pick<Ctx, 'clock'>, purchase: Purchase, status: PaymentStatus) {
	if (purchase.status !== 'paga') {
		await move(tx, ctx, purchase.id, ['pendente', 'expirada'], { status: 'cancelada', next_check_at: null })
		return
	}
	if (!(await move(tx, ctx, purchase.id, ['paga'], { status: 'estornada' })) || purchase.batch_id === null) return
	const batch = (await tx.select().from(credits).where(eq(credits.id, purchase.batch_id)))[0]
	const unused = batch && batch.ativo === 1 && batch.data_uso === null ? batch.valor : 0
	await tx.update(credits).set({ ativo: 0 }).where(eq(credits.id, purchase.batch_id))
	if (unused > 0) await bumpBalance(tx, purchase.representante_id, { disponivel: -unused, inativo: unused })
	const rep = await findRepresentativeByCnpj(tx, purchase.representante_id)
	await logActivity(
		tx,
		ctx.clock,
		'credits.purchase-reversed',
		{
			compra: purchase.id,
			representante: rep?.nome ?? purchase.representante_id,
			chargeback: status.startsWith('CHARGEBACK') || status === 'AWAITING_CHARGEBACK_REVERSAL',
			desativados: unused,
			jaTransferidos: purchase.quantidade - unused
		},
		{ entityId: purchase.id, representanteCnpj: purchase.representante_id }
	)
}

/** The wait after the n-th check (n ≥ 1): 20 s, 40 s, 80 s… at most 5 minutes. */
export function checkInterval(checks: number): number {
	return Math.min(FIRST_CHECK_MS * 2 ** checks, MAX_CHECK_INTERVAL_MS)
}

/**
 * A purchase left 'criando' by a crash between asking Asaas for the charge and storing its answer: after a while the
 * charge is looked up by the purchase's reference. Found, the purchase goes on as pending (the checker and the
 * webhook take it from there; 'Carregar QR Code' fetches the code); not found, nothing was charged and it goes.
 */
export async function recoverUnfinishedPurchases(ctx: Ctx, limit = 20): Promise<number> {
	const before = new Date(ctx.clock.now().getTime() - UNFINISHED_AFTER_MS).toISOString()
	const stuck = await ctx.db
		.select({ id: creditPurchases.id })
		.from(creditPurchases)
		.where(and(eq(creditPurchases.status, 'criando'), lte(creditPurchases.created_at, before)))
		.limit(limit)
	if (stuck.length === 0) return 0
	const client = await vendorClient(ctx)
	if (!client) return 0
	for (const { id } of stuck) {
		try {
			const charge = await chargeByReference(client, purchaseReference(id))
			const now = ctx.clock.now().toISOString()
			const unfinished = and(eq(creditPurchases.id, id), eq(creditPurchases.status, 'criando'))
			// In a transaction: the job's run proves its lease there (modules/jobs).
			await writeTransaction(ctx.db, async (tx) => {
				if (charge) {
					await tx
						.update(creditPurchases)
						.set({ status: 'pendente', charge_id: charge.id, next_check_at: now, updated_at: now })
						.where(unfinished)
				} else {
					await tx.delete(creditPurchases).where(unfinished)
				}
			})
		} catch (error) {
			if (error instanceof LeaseLost) throw error
			ctx.log('credits.purchase_recovery_failed', { purchase: id, message: String((error as Error)?.message ?? error) })
		}
	}
	return stuck.length
}

/**
 * The checker: asks Asaas about every open purchase whose time has come, so a lost webhook is caught within
 * seconds while the buyer watches; the browser's polling only ever reads the database.
 */
export async function checkPendingPurchases(ctx: Ctx, limit = 100): Promise<number> {
	const due = await ctx.db
		.select({ id: creditPurchases.id, charge_id: creditPurchases.charge_id, checks: creditPurchases.checks })
		.from(creditPurchases)
		.where(and(eq(creditPurchases.status, 'pendente'), lte(creditPurchases.next_check_at, ctx.clock.now().toISOString())))
		.orderBy(asc(creditPurchases.next_check_at))
		.limit(limit)
	for (const purchase of due) {
		if (!purchase.charge_id) continue
		try {
			await refreshPurchase(ctx, purchase.charge_id)
		} catch (error) {
			if (error instanceof LeaseLost) throw error
			ctx.log('credits.purchase_check_failed', { purchase: purchase.id, message: String((error as Error)?.message ?? error) })
		}
		const checks = purchase.checks + 1
		await writeTransaction(ctx.db, async (tx) => {
			await tx
				.update(creditPurchases)
				.set({ checks, next_check_at: new Date(ctx.clock.now().getTime() + checkInterval(checks)).toISOString() })
				.where(and(eq(creditPurchases.id, purchase.id), eq(creditPurchases.status, 'pendente')))
		})
	}
	return due.length
}

/** The vendor account's events about a purchase's charge: the purchase is read back from Asaas, never from the event. */
export function purchasePaymentHandler(ctx: Ctx): PaymentEventHandler {
	return {
		name: 'credits.purchases',
		async handle(event) {
			if (event.account !== VENDOR_ACCOUNT || !event.paymentId) return false
			const mine = (
				await ctx.db.select({ id: creditPurchases.id }).from(creditPurchases).where(eq(creditPurchases.charge_id, event.paymentId))
			)[0]
			if (!mine) return false
			await refreshPurchase(ctx, event.paymentId)
			return true
		}
	}
}
