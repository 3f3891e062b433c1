import { randomUUID } from 'node:crypto'
import { type SQL, and, asc, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type AsaasClient, AsaasError, type AsaasPayment } from '../asaas'
import { type SessionUser, users } from '../auth'
import { companies, companyInScope } from '../companies'
import { MINUTE, carneName, formatBrDate, formatBrl, pagination, readCalendarDate, todayIso } from '../core'
import { type AppContext, AppError, badRequest, conflict, contains, notFound, unprocessable, writeTransaction } from '../core/server'
import { normaliseBrazilianPhone } from '../evolution'
import { evolutionGateway } from '../messaging'
import { EvolutionError } from '../evolution'
import { findRepresentativeByCnpj, representativeScope, representatives } from '../resellers'
import { type AsaasAccount, asaasAccount, asaasClient } from './accounts'
import { accountWallet, accountWarning, trustRemoval } from './identity'
import { markCancelled } from './parcel-history'
import { type CreditPool, recordRenewal, renewalFields, renewalsOf } from './renewals'
import { type PlanSync, syncCarne } from './sync'
import {
	CARNE_MESSAGES,
	type CarneBody,
	type CarneParcelaView,
	type CarneView,
	type CarnesList,
	type CarnesQuery,
	CHARGE_TYPE_LABELS,
	canActOnParcel,
	firstDueDateProblem
} from './carnes-model'
import { OPEN_STATUSES, PAID_STATUSES, isPaid } from './labels'
import { carneParcelas, carnes } from './schema'

type Ctx = AppContext
type Actor = Pick<SessionUser, 'id' | 'nome' | 'tipo' | 'cnpj'>
type CarneRow = typeof carnes.$inferSelect
type ParcelRow = typeof carneParcelas.$inferSelect

const reais = (centavos: number) => centavos / 100

/** An Asaas failure as the answer a person reads: its pt-BR message, 502 (the gateway failed, not the request). */
export function asaasFailure(error: unknown): never {
	if (error instanceof AsaasError) throw new AppError(502, error.message, 'ASAAS')
	throw error
}

/**
 * The account a company's carnês are charged through: its representative's, which must be on and have a key.
 * When it is not, the person is sent to the page they can open: an administrador to Admin Financeiro, the
 * representative to Configurações Financeiras, anyone else to the representative.
 */
export async function companyAccount(ctx: Ctx, user: Actor, representanteCnpj: string): Promise<AsaasAccount> {
	const account = await asaasAccount(ctx.db, ctx.secrets, representanteCnpj)
	if (!account?.active) {
		const nome = (await findRepresentativeByCnpj(ctx.db, representanteCnpj))?.nome ?? representanteCnpj
		const fix =
			user.tipo === 'administrador'
				? `ative-a e informe a chave em Admin Financeiro (conta de ${nome})`
				: user.cnpj === representanteCnpj
					? 'ative-a e informe a chave em Configurações Financeiras'
					: `peça a ${nome} que a ative e informe a chave em Configurações Financeiras`
		throw unprocessable(
			`A integração com o Asaas do representante ${nome} está desativada ou sem chave API: ${fix} antes de emitir ou alterar carnês.`,
			'ASAAS_INACTIVE'
		)
	}
	return account
}

/** The carnê, when its company is in the user's scope; otherwise 404, the same answer as for no carnê. */
export async function carneInScope(ctx: Ctx, user: Actor, id: number): Promise<CarneRow> {
	const carne = (await ctx.db.select().from(carnes).where(eq(carnes.id, id)))[0]
	if (!carne || !(await representativeScope(ctx.db, user).includes(carne.representante_cnpj))) throw notFound('Carnê não encontrado.')
	return carne
}

/** The parcel, when its carnê is in the user's scope; otherwise 404. */
export async function parcelInScope(ctx: Ctx, user: Actor, id: number): Promise<ParcelRow> {
	const parcel = (await ctx.db.select().from(carneParcelas).where(eq(carneParcelas.id, id)))[0]
	if (!parcel || !(await representativeScope(ctx.db, user).includes(parcel.representante_cnpj))) throw notFound('Parcela não encontrada.')
	return parcel
}

/**
 * The company's Asaas customer: found by its CNPJ, or created from its record (code as externalReference); either way
 * with Asaas' own notifications off (the portal's reminder schedule writes to the client instead).
 */
async function customerFor(client: AsaasClient, company: typeof companies.$inferSelect): Promise<string> {
	const found = await client.findCustomerByCpfCnpj(company.cnpj)
	// A customer made elsewhere may have Asaas' own reminders on: off, so the client gets the portal's schedule only.
	if (found && !found.notificationDisabled) await client.updateCustomer(found.id, { notificationDisabled: true })
	if (found) return found.id
	const fone = company.fone?.replace(/\D/g, '').replace(/^55(?=\d{10,11}$)/, '') ?? ''
	const created = await client.createCustomer({
		name: company.razao,
		cpfCnpj: company.cnpj,
		email: company.email ?? undefined,
		...(fone.length === 11 ? { mobilePhone: fone } : fone.length === 10 ? { phone: fone } : {}),
		address: company.endereco ?? undefined,
		province: company.bairro ?? undefined,
		postalCode: company.cep?.replace(/\D/g, '') || undefined,
		externalReference: String(company.codigo),
		// The portal sends its own WhatsApp messages.
		notificationDisabled: true
	})
	return created.id
}

/** The digitable line and the PIX copy-and-paste code of an open parcel; null where Asaas has none. */
export async function paymentCodes(
	client: AsaasClient,
	payment: { id: string; billingType: string }
): Promise<{ linha: string | null; pix: string | null }> {
	const linha =
		payment.billingType === 'BOLETO'
			? await client
					.getIdentificationField(payment.id)
					.then((r) => r.identificationField)
					.catch(() => null)
			: null
	const pix =
		payment.billingType === 'CREDIT_CARD'
			? null
			: await client
					.getPixQrCode(payment.id)
					.then((r) => r.payload)
					.catch(() => null)
	return { linha, pix }
}

/** The Asaas plan of this reference, when an earlier attempt created it though its answer was lost. */
async function planByReference(client: AsaasClient, referencia: string): Promise<string | null> {
	const found = await client.listPayments({ externalReference: referencia, limit: 1 })
	return found.data[0]?.installment ?? null
}

type PlanInput = Omit<Parameters<AsaasClient['createInstallment']>[0], 'value' | 'totalValue' | 'paymentExternalReference'>

/**
 * Creates the plan at Asaas under `referencia`. A create whose answer was lost (uncertain) is looked up by the
 * reference before it is tried again, so a retry never makes a second plan.
 *
 * Asaas' reference marks `value` (each parcel) required while the sandbox takes `totalValue` alone (integrations.md,
 * corrections 1): the total goes first; a 400 for it is tried once more with `value` when the total splits into
 * equal parcels, and otherwise answered with a message naming the field.
 */
async function createPlan(client: AsaasClient, referencia: string, plan: PlanInput, totalCentavos: number): Promise<string> {
	const even = totalCentavos % plan.installmentCount === 0
	const forms = [{ totalValue: reais(totalCentavos) }, ...(even ? [{ value: reais(totalCentavos / plan.installmentCount) }] : [])]
	let refusal: AsaasError | null = null
	for (const form of forms) {
		for (let attempt = 1; ; attempt++) {
			try {
				return (await client.createInstallment({ ...plan, ...form, paymentExternalReference: referencia })).id
			} catch (error) {
				if (!(error instanceof AsaasError)) throw error
				if (error.upstreamStatus === 400 && !refusal) {
					refusal = error
					break
				}
				if (!error.uncertain) throw error
				// Still unsure when the lookup fails too: the row stays for finishCarnes() to settle.
				const existing = await planByReference(client, referencia).catch(() => {
					throw error
				})
				if (existing) return existing
				if (attempt >= 2) throw error
			}
		}
	}
	if (refusal && !even && /\bvalue\b|valor d[ae] (cada )?parcela/i.test(refusal.message)) {
		throw new AsaasError(
			`${refusal.message} Esta conta do Asaas pede o valor de cada parcela (campo value) em vez do total (totalValue): ` +
				`${formatBrl(totalCentavos)} não se divide em ${plan.installmentCount} parcelas iguais. Ajuste o valor total e tente de novo.`,
			refusal.code,
			400,
			false
		)
	}
	throw refusal ?? new AsaasError('O Asaas recusou o carnê.', 'rejected', 400, false)
}

const parcelRow = (
	carne: Pick<CarneRow, 'id' | 'empresa_codigo' | 'representante_cnpj'>,
	p: AsaasPayment,
	codes: { linha: string | null; pix: string | null },
	now: string
) => ({
	carne_id: carne.id,
	empresa_codigo: carne.empresa_codigo,
	representante_cnpj: carne.representante_cnpj,
	asaas_payment_id: p.id,
	numero: p.installmentNumber ?? 0,
	valor_centavos: Math.round(p.value * 100),
	vencimento: p.dueDate,
	status: p.deleted ? 'CANCELED' : p.status,
	data_pagamento: readCalendarDate(p.paymentDate ?? p.clientPaymentDate ?? p.confirmedDate),
	boleto_url: p.bankSlipUrl ?? null,
	invoice_url: p.invoiceUrl ?? null,
	linha_digitavel: codes.linha,
	pix_copia_cola: codes.pix,
	updated_at: now
})

/** How long an unfinished creation is left to the request that began it before finishCarnes() takes it over. */
export const UNFINISHED_CARNE_MS = 3 * MINUTE

const CREATION_LOST =
	'Não foi possível confirmar com o Asaas se o carnê foi criado. O portal confere sozinho em alguns minutos e conclui o carnê ou o descarta: confira a lista de carnês antes de emitir outro.'

/**
 * POST /api/carnes. The carnê is written `criando` under its reference before Asaas is called, and each id Asaas
 * gives is stored as soon as it is known, so a failure or a crash at any point leaves one row that finishCarnes()
 * completes (the plan exists) or removes (it does not): one carnê for one plan, or no plan.
 */
export async function createCarne(
	ctx: Ctx,
	user: Actor,
	body: CarneBody,
	pool: CreditPool
): Promise<{ message: string; carne: CarneView }> {
	const company = await companyInScope(ctx.db, representativeScope(ctx.db, user), body.empresa_codigo)
	const dueProblem = firstDueDateProblem(body.data_primeiro_vencimento, todayIso(ctx.clock))
	if (dueProblem) throw badRequest(dueProblem)
	const account = await companyAccount(ctx, user, company.cnpj_representante)
	const client = asaasClient(ctx, account)
	const unfinished = (
		await ctx.db
			.select()
			.from(carnes)
			.where(and(eq(carnes.empresa_codigo, company.codigo), eq(carnes.status, 'criando')))
	)[0]
	if (unfinished) {
		// The earlier attempt's plan may exist: it is finished (or found not to exist) before another is made.
		const outcome = await finishCarne(ctx, unfinished).catch(() => 'pendente' as const)
		if (outcome !== 'descartado')
			throw conflict(
				outcome === 'concluido'
					? `O ${carneName(unfinished.id)} desta empresa, que não tinha sido concluído, foi concluído agora: confira a lista de carnês antes de emitir outro.`
					: `O ${carneName(unfinished.id)} desta empresa ainda está sendo criado no Asaas. Aguarde alguns minutos e confira a lista de carnês.`
			)
	}
	const totalCentavos = Math.round(body.valor_total * 100)
	// Unsaid, the carnê renews the licence when its representative has credits to renew it with.
	const renovar = body.renovar_licenca ?? (await pool.available(ctx.db, company.cnpj_representante)) > 0
	const now = ctx.clock.now().toISOString()
	const row = (
		await ctx.db
			.insert(carnes)
			.values({
				referencia: `carne-${randomUUID()}`,
				empresa_codigo: company.codigo,
				representante_cnpj: company.cnpj_representante,
				valor_total_centavos: totalCentavos,
				valor_parcela_centavos: Math.floor(totalCentavos / body.numero_parcelas),
				numero_parcelas: body.numero_parcelas,
				data_primeiro_vencimento: body.data_primeiro_vencimento,
				tipo_cobranca: body.tipo_cobranca,
				descricao: body.descricao,
				renovar_licenca: renovar,
				creditos_por_parcela: body.creditos_por_parcela,
				status: 'criando',
				criado_por: user.id,
				created_at: now,
				updated_at: now
			})
			.returning()
	)[0]
	const note = async (set: Partial<CarneRow>) =>
		await ctx.db
			.update(carnes)
			.set({ ...set, updated_at: ctx.clock.now().toISOString() })
			.where(eq(carnes.id, row.id))
	try {
		const wallet = await accountWallet(ctx, account.id, client)
		const customerId = await customerFor(client, company)
		await note({ asaas_customer_id: customerId, asaas_conta: wallet })
		const installmentId = await createPlan(
			client,
			row.referencia,
			{
				customer: customerId,
				billingType: body.tipo_cobranca,
				installmentCount: body.numero_parcelas,
				dueDate: body.data_primeiro_vencimento,
				description: body.descricao ?? `Carnê ${company.razao}`
			},
			totalCentavos
		)
		await note({ asaas_installment_id: installmentId })
	} catch (error) {
		// Sure that no plan was made: nothing is kept. Unsure: the row stays for finishCarnes() to settle.
		if (!(error instanceof AsaasError && error.uncertain)) {
			await ctx.db.delete(carnes).where(and(eq(carnes.id, row.id), eq(carnes.status, 'criando')))
			asaasFailure(error)
		}
		ctx.log('billing.carne_uncertain', { carne: row.id, message: error.message })
		throw new AppError(502, CREATION_LOST, 'ASAAS')
	}
	try {
		await finishCarne(ctx, (await ctx.db.select().from(carnes).where(eq(carnes.id, row.id)))[0]!, user)
	} catch (error) {
		ctx.log('billing.carne_unfinished', { carne: row.id, message: String((error as Error)?.message ?? error) })
		throw new AppError(
			502,
			`O carnê foi criado no Asaas, mas as parcelas ainda não puderam ser lidas${error instanceof AsaasError ? ` (${error.message})` : ''}. ` +
				'O portal conclui o carnê sozinho assim que o Asaas responder: não emita outro.',
			'ASAAS'
		)
	}
	const done = (await ctx.db.select().from(carnes).where(eq(carnes.id, row.id)))[0]!
	return { message: 'Carnê criado com sucesso!', carne: (await carneViews(ctx.db, [done]))[0] }
}

/**
 * Completes a carnê left `criando`: finds its plan (by the stored id, or by its reference when the answer of the
 * create was lost), reads the parcels and their codes, and stores them with the carnê `ativo` in one transaction.
 * A plan Asaas does not have means none was made: the row goes ('descartado'). Throws when Asaas cannot be asked.
 */
async function finishCarne(ctx: Ctx, carne: CarneRow, actor?: Actor): Promise<'concluido' | 'descartado' | 'pendente'> {
	const account = await asaasAccount(ctx.db, ctx.secrets, carne.representante_cnpj)
	if (!account?.active) return 'pendente'
	const client = asaasClient(ctx, account)
	const installmentId = carne.asaas_installment_id ?? (await planByReference(client, carne.referencia))
	const razao =
		(await ctx.db.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, carne.empresa_codigo)))[0]?.razao ??
		`Empresa ${carne.empresa_codigo}`
	if (!installmentId) {
		const removed = await writeTransaction(ctx.db, async (tx) => {
			const gone = await tx
				.delete(carnes)
				.where(and(eq(carnes.id, carne.id), eq(carnes.status, 'criando')))
				.returning({ id: carnes.id })
			if (gone.length === 1 && !actor)
				await logActivity(
					tx,
					ctx.clock,
					'billing.carne-unfinished',
					{ razao, carne: carne.id, resultado: 'descartado' },
					{ actorName: 'Portal' }
				)
			return gone.length === 1
		})
		return removed ? 'descartado' : 'pendente'
	}
	const payments = (await client.listAllInstallmentPayments(installmentId)).sort(
		(a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0)
	)
	const codes = await Promise.all(payments.map((p) => paymentCodes(client, p)))
	const now = ctx.clock.now().toISOString()
	const totalCentavos = payments.reduce((sum, p) => sum + Math.round(p.value * 100), 0)
	return writeTransaction(ctx.db, async (tx) => {
		const finished = (
			await tx
				.update(carnes)
				.set({
					status: 'ativo',
					asaas_installment_id: installmentId,
					asaas_customer_id: carne.asaas_customer_id ?? payments[0]?.customer ?? null,
					...(payments.length > 0
						? { valor_total_centavos: totalCentavos, valor_parcela_centavos: Math.round(payments[0].value * 100) }
						: {}),
					updated_at: now
				})
				.where(and(eq(carnes.id, carne.id), eq(carnes.status, 'criando')))
				.returning()
		)[0]
		if (!finished) return 'pendente'
		if (payments.length > 0) {
			const stored = await tx
				.insert(carneParcelas)
				.values(payments.map((p, i) => parcelRow(finished, p, codes[i], now)))
				.onConflictDoNothing()
				.returning()
			// A parcel paid before the carnê was finished (a crash, a slow Asaas) is first known paid here.
			for (const parcel of stored) if (isPaid(parcel.status)) await recordRenewal(tx, parcel, now)
		}
		const tipo = CHARGE_TYPE_LABELS[carne.tipo_cobranca]
		const criadoPor = actor ?? (carne.criado_por ? (await tx.select().from(users).where(eq(users.id, carne.criado_por)))[0] : undefined)
		await logActivity(
			tx,
			ctx.clock,
			'billing.carne-created',
			{ razao, parcelas: payments.length, totalCentavos: finished.valor_total_centavos, tipo },
			{ actor: criadoPor, entityId: carne.id, representanteCnpj: carne.representante_cnpj }
		)
		if (!actor)
			await logActivity(
				tx,
				ctx.clock,
				'billing.carne-unfinished',
				{ razao, carne: carne.id, resultado: 'concluido' },
				{ actorName: 'Portal' }
			)
		return 'concluido'
	})
}

/**
 * The job that settles creations a failure or a crash left `criando` (older than UNFINISHED_CARNE_MS, so a request
 * still at work keeps its own): each is completed or removed. Answers how many were settled.
 */
export async function finishCarnes(ctx: Ctx, limit = 50): Promise<number> {
	const before = new Date(ctx.clock.now().getTime() - UNFINISHED_CARNE_MS).toISOString()
	const stuck = await ctx.db
		.select()
		.from(carnes)
		.where(and(eq(carnes.status, 'criando'), lte(carnes.updated_at, before)))
		.orderBy(asc(carnes.id))
		.limit(limit)
	let settled = 0
	for (const carne of stuck) {
		try {
			if ((await finishCarne(ctx, carne)) !== 'pendente') settled++
		} catch (error) {
			ctx.log('billing.carne_finish_failed', { carne: carne.id, message: String((error as Error)?.message ?? error) })
		}
	}
	return settled
}

/** The carnê cards: company, values in reais, how many parcels are paid. */
export async function carneViews(db: DbOrTx, rows: CarneRow[]): Promise<CarneView[]> {
	if (rows.length === 0) return []
	const ids = rows.map((r) => r.id)
	const paid = new Map(
		(
			await db
				.select({ carne: carneParcelas.carne_id, n: count() })
				.from(carneParcelas)
				.where(and(inArray(carneParcelas.carne_id, ids), inArray(carneParcelas.status, [...PAID_STATUSES])))
				.groupBy(carneParcelas.carne_id)
		).map((r) => [r.carne, r.n])
	)
	const names = new Map(
		(
			await db
				.select({ codigo: companies.codigo, razao: companies.razao, cnpj: companies.cnpj, fone: companies.fone })
				.from(companies)
				.where(
					inArray(
						companies.codigo,
						rows.map((r) => r.empresa_codigo)
					)
				)
		).map((c) => [c.codigo, { razao: c.razao, cnpj: c.cnpj, fone: c.fone }])
	)
	const owners = new Map(
		(
			await db
				.select({ cnpj: representatives.cnpj, nome: representatives.nome })
				.from(representatives)
				.where(inArray(representatives.cnpj, [...new Set(rows.map((r) => r.representante_cnpj))]))
		).map((r) => [r.cnpj, r])
	)
	return rows.map((r) => ({
		id: r.id,
		asaas_installment_id: r.asaas_installment_id,
		empresa_codigo: r.empresa_codigo,
		empresa: names.get(r.empresa_codigo) ?? null,
		valor_total: reais(r.valor_total_centavos),
		valor_parcela: reais(r.valor_parcela_centavos),
		numero_parcelas: r.numero_parcelas,
		data_primeiro_vencimento: r.data_primeiro_vencimento,
		descricao: r.descricao,
		status: r.status,
		tipo_cobranca: r.tipo_cobranca,
		parcelas_pagas: paid.get(r.id) ?? 0,
		created_at: r.created_at,
		representante: owners.get(r.representante_cnpj) ?? null,
		renovar_licenca: r.renovar_licenca,
		creditos_por_parcela: r.creditos_por_parcela
	}))
}

/** The Carnês search: the company's name or CNPJ, the description, the carnê's number (at Asaas or the portal's) or its representative. */
function carneSearch(search: string): SQL | undefined {
	if (!search) return undefined
	const digits = search.replace(/\D/g, '')
	const companyMatch = or(contains(companies.razao, search), digits.length >= 3 ? contains(companies.cnpj, digits) : undefined)
	return or(
		contains(carnes.descricao, search),
		contains(carnes.asaas_installment_id, search),
		/^\d{1,15}$/.test(search) ? eq(carnes.id, Number(search)) : undefined,
		sql`${carnes.empresa_codigo} in (select ${companies.codigo} from ${companies} where ${companyMatch})`,
		sql`${carnes.representante_cnpj} in (select ${representatives.cnpj} from ${representatives} where ${contains(representatives.nome, search)})`
	)
}

/** GET /api/carnes: the scope's carnês, newest first, searched, filtered and paged in SQL (/carnes loads more as one scrolls). */
export async function listCarnes(ctx: Ctx, user: Actor, query: CarnesQuery): Promise<CarnesList> {
	const scope = representativeScope(ctx.db, user)
	const where = and(
		scope.on(carnes.representante_cnpj),
		query.empresa ? eq(carnes.empresa_codigo, query.empresa) : undefined,
		query.status ? eq(carnes.status, query.status) : undefined,
		carneSearch(query.search)
	)
	const total = (await ctx.db.select({ n: count() }).from(carnes).where(where))[0]?.n ?? 0
	const rows = await ctx.db
		.select()
		.from(carnes)
		.where(where)
		.orderBy(desc(carnes.id))
		.limit(query.limit)
		.offset((query.page - 1) * query.limit)
	return { carnes: await carneViews(ctx.db, rows), pagination: pagination(query.page, query.limit, total) }
}

export async function carneParcels(ctx: Ctx, user: Actor, id: number): Promise<CarneParcelaView[]> {
	const carne = await carneInScope(ctx, user, id)
	const rows = await ctx.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id)).orderBy(asc(carneParcelas.numero))
	const renewals = await renewalsOf(
		ctx.db,
		rows.map((p) => p.id)
	)
	return rows.map((p) => ({
		id: p.id,
		numero: p.numero,
		valor: reais(p.valor_centavos),
		dataVencimento: p.vencimento,
		dataPagamento: p.data_pagamento,
		status: p.status,
		urlBoleto: p.boleto_url,
		linhaDigitavel: p.linha_digitavel,
		pixCopiaCola: p.pix_copia_cola,
		...renewalFields(renewals.get(p.id))
	}))
}

/**
 * Admin Financeiro's carnê figures: how many carnês were issued, and what their parcels are worth: paid parcels, and
 * open ones of carnês still active. Parcels removed, refunded or in a chargeback and a cancelled carnê's open parcels are
 * left out (issue 34, point 9).
 */
export async function carneTotals(db: DbOrTx): Promise<{ count: number; totalCentavos: number }> {
	const n = (await db.select({ n: count() }).from(carnes))[0]?.n ?? 0
	const total = (
		await db
			.select({ total: sql<number>`coalesce(sum(${carneParcelas.valor_centavos}), 0)` })
			.from(carneParcelas)
			.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
			.where(
				or(
					inArray(carneParcelas.status, [...PAID_STATUSES]),
					and(inArray(carneParcelas.status, [...OPEN_STATUSES]), eq(carnes.status, 'ativo'))
				)
			)
	)[0]?.total
	return { count: n, totalCentavos: Number(total ?? 0) }
}

/**
 * DELETE /api/carnes/{id}: only while ativo. Asks Asaas to remove the pending and overdue parcels (the paid ones
 * stay), then, whatever the answer said (lost, 5xx, "nothing to remove" after an uncertain first try), reads the
 * plan back: the carnê is `cancelado` once Asaas shows no parcel open; otherwise nothing changes and the person is
 * told what Asaas answered.
 */
export async function cancelCarne(ctx: Ctx, user: Actor, id: number): Promise<{ message: string }> {
	const carne = await carneInScope(ctx, user, id)
	if (carne.status !== 'ativo' || !carne.asaas_installment_id) throw unprocessable('Só um carnê ativo pode ser cancelado.')
	const account = await companyAccount(ctx, user, carne.representante_cnpj)
	const client = asaasClient(ctx, account)
	await ctx.db
		.update(carnes)
		.set({ cancelamento_pedido_em: ctx.clock.now().toISOString() })
		.where(and(eq(carnes.id, carne.id), eq(carnes.status, 'ativo')))
	let failure: AsaasError | null = null
	try {
		await client.deleteInstallmentPendingPayments(carne.asaas_installment_id)
	} catch (error) {
		if (!(error instanceof AsaasError)) throw error
		failure = error
	}
	let sync: PlanSync
	try {
		sync = await syncCarne(ctx, carne, account, client, { closing: true })
	} catch (error) {
		asaasFailure(failure ?? error)
	}
	if (sync.open > 0) {
		if (sync.held)
			throw unprocessable((await accountWarning(ctx, account.id)) ?? 'A conta do Asaas não reconhece este carnê.', 'ASAAS_ACCOUNT')
		asaasFailure(
			failure ?? new AsaasError('O Asaas ainda mostra parcelas em aberto neste carnê: tente cancelar de novo.', 'rejected', null, false)
		)
	}
	const now = ctx.clock.now().toISOString()
	const razao = (await ctx.db.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, carne.empresa_codigo)))[0]
		?.razao
	await writeTransaction(ctx.db, async (tx) => {
		const closed = await tx
			.update(carnes)
			.set({ status: 'cancelado', updated_at: now })
			.where(and(eq(carnes.id, carne.id), eq(carnes.status, 'ativo')))
			.returning({ id: carnes.id })
		if (closed.length === 0) return
		const removidas = (
			await tx
				.select({ n: count() })
				.from(carneParcelas)
				.where(and(eq(carneParcelas.carne_id, carne.id), eq(carneParcelas.status, 'CANCELED')))
		)[0]?.n
		await logActivity(
			tx,
			ctx.clock,
			'billing.carne-cancelled',
			{ razao: razao ?? `Empresa ${carne.empresa_codigo}`, removidas: removidas ?? 0, carne: carne.id },
			{ actor: user, entityId: carne.id }
		)
	})
	return { message: 'Carnê cancelado com sucesso!' }
}

/** The plan's paymentBook PDF, read with the account's key. */
export async function carnePdf(ctx: Ctx, user: Actor, id: number): Promise<{ bytes: Uint8Array; fileName: string; carne: CarneRow }> {
	const carne = await carneInScope(ctx, user, id)
	if (!carne.asaas_installment_id) throw unprocessable('Este carnê ainda está sendo criado no Asaas: aguarde alguns minutos.')
	const client = asaasClient(ctx, await companyAccount(ctx, user, carne.representante_cnpj))
	try {
		const bytes = await client.getPaymentBook(carne.asaas_installment_id)
		return { bytes, fileName: `${carneName(carne.id)}.pdf`, carne }
	} catch (error) {
		asaasFailure(error)
	}
}

/** The WhatsApp gateway for a representative's messages: their own instance when set, else the portal's. */
async function gatewayFor(ctx: Ctx, representanteCnpj: string) {
	const rep = await findRepresentativeByCnpj(ctx.db, representanteCnpj)
	const gateway = await evolutionGateway(ctx, { instance: rep?.evo_instancia })
	if (!gateway)
		throw unprocessable('O WhatsApp do portal não está configurado: peça ao administrador para preencher a aba API de Notificações.')
	return gateway
}

const whatsappFailure = (error: unknown): never => {
	if (error instanceof EvolutionError) throw new AppError(502, error.message, 'WHATSAPP')
	throw error
}

/** POST /api/carnes/{id}/enviar-whatsapp: the PDF as a document, with a caption. */
export async function sendCarne(ctx: Ctx, user: Actor, id: number, telefone: string): Promise<{ message: string }> {
	const phone = normaliseBrazilianPhone(telefone)
	if (!phone) throw badRequest(CARNE_MESSAGES.phone)
	const { bytes, fileName, carne } = await carnePdf(ctx, user, id)
	if (carne.status !== 'ativo') throw unprocessable('Só um carnê ativo pode ser enviado.')
	const company = (await ctx.db.select().from(companies).where(eq(companies.codigo, carne.empresa_codigo)))[0]
	const caption = [
		`Olá${company ? `, ${company.razao}` : ''}! Segue o seu ${carneName(carne.id)}, com ${carne.numero_parcelas} parcelas de ${formatBrl(carne.valor_parcela_centavos)}`,
		`(total ${formatBrl(carne.valor_total_centavos)}), primeiro vencimento em ${formatBrDate(carne.data_primeiro_vencimento)}.`
	].join(' ')
	try {
		await (await gatewayFor(ctx, carne.representante_cnpj)).sendDocument(phone, {
			base64: Buffer.from(bytes).toString('base64'),
			fileName,
			mimetype: 'application/pdf',
			caption
		})
	} catch (error) {
		whatsappFailure(error)
	}
	await logActivity(
		ctx.db,
		ctx.clock,
		'billing.carne-sent',
		{ razao: company?.razao ?? `Empresa ${carne.empresa_codigo}`, telefone: phone, carne: carne.id },
		{ actor: user, entityId: carne.id }
	)
	return { message: 'Carnê enviado via WhatsApp com sucesso!' }
}

/**
 * DELETE /api/carnes/pagamentos/{id}: only PENDING or OVERDUE. Asks Asaas to remove the charge, then reads it
 * back whatever the answer said: removed there (deleted, or a 404 the account's identity confirms) → cancelled here;
 * still open → nothing changes and the person is told what Asaas answered.
 */
export async function removeParcel(ctx: Ctx, user: Actor, id: number): Promise<{ message: string }> {
	const parcel = await parcelInScope(ctx, user, id)
	if (!canActOnParcel(parcel.status)) throw unprocessable('Só uma parcela pendente ou vencida pode ser removida.')
	const account = await companyAccount(ctx, user, parcel.representante_cnpj)
	const client = asaasClient(ctx, account)
	let failure: AsaasError | null = null
	try {
		await client.deletePayment(parcel.asaas_payment_id)
	} catch (error) {
		if (!(error instanceof AsaasError)) throw error
		failure = error
	}
	let removed: boolean
	try {
		removed = !!(await client.getPayment(parcel.asaas_payment_id)).deleted
	} catch (error) {
		if (!(error instanceof AsaasError && error.upstreamStatus === 404)) asaasFailure(failure ?? error)
		const carne = (await ctx.db.select().from(carnes).where(eq(carnes.id, parcel.carne_id)))[0]
		removed = await trustRemoval(ctx, account.id, client, {
			wallet: carne?.asaas_conta ?? null,
			customerId: carne?.asaas_customer_id ?? null
		})
		if (!removed)
			throw unprocessable((await accountWarning(ctx, account.id)) ?? 'A conta do Asaas não reconhece esta parcela.', 'ASAAS_ACCOUNT')
	}
	if (!removed)
		asaasFailure(
			failure ?? new AsaasError('O Asaas ainda mostra esta parcela em aberto: tente removê-la de novo.', 'rejected', null, false)
		)
	const now = ctx.clock.now().toISOString()
	await writeTransaction(ctx.db, async (tx) => {
		const fresh = (await tx.select().from(carneParcelas).where(eq(carneParcelas.id, parcel.id)))[0]
		if (!fresh) return
		if (canActOnParcel(fresh.status)) await markCancelled(tx, fresh, now, null)
		// Else the webhook of this very removal may have been handled first: still this person's removal to log.
		else if (fresh.status !== 'CANCELED') return
		await logActivity(
			tx,
			ctx.clock,
			'billing.parcel-removed',
			{ parcela: parcel.numero, carne: parcel.carne_id, valorCentavos: parcel.valor_centavos },
			{ actor: user, entityId: parcel.id }
		)
	})
	return { message: 'Parcela removida com sucesso' }
}

/** POST /api/carnes/pagamentos/{id}/whatsapp: value, due date, boleto link, digitable line and PIX code. */
export async function sendParcel(ctx: Ctx, user: Actor, id: number, phoneInput: string): Promise<{ message: string }> {
	const phone = normaliseBrazilianPhone(phoneInput)
	if (!phone) throw badRequest(CARNE_MESSAGES.phone)
	let parcel = await parcelInScope(ctx, user, id)
	if (!canActOnParcel(parcel.status)) throw unprocessable('Só uma parcela pendente ou vencida pode ser enviada.')
	const carne = (await ctx.db.select().from(carnes).where(eq(carnes.id, parcel.carne_id)))[0]!
	// Codes Asaas did not give at creation (a boleto has a line and a PIX code, a PIX charge its code) are asked again now.
	const missing =
		(carne.tipo_cobranca === 'BOLETO' && !parcel.linha_digitavel) || (carne.tipo_cobranca !== 'CREDIT_CARD' && !parcel.pix_copia_cola)
	if (missing) {
		const client = asaasClient(ctx, await companyAccount(ctx, user, parcel.representante_cnpj))
		const codes = await paymentCodes(client, { id: parcel.asaas_payment_id, billingType: carne.tipo_cobranca })
		const linha = parcel.linha_digitavel ?? codes.linha
		const pix = parcel.pix_copia_cola ?? codes.pix
		if (linha !== parcel.linha_digitavel || pix !== parcel.pix_copia_cola) {
			await ctx.db.update(carneParcelas).set({ linha_digitavel: linha, pix_copia_cola: pix }).where(eq(carneParcelas.id, parcel.id))
			parcel = { ...parcel, linha_digitavel: linha, pix_copia_cola: pix }
		}
	}
	const company = (await ctx.db.select().from(companies).where(eq(companies.codigo, parcel.empresa_codigo)))[0]
	const lines = [
		`Olá${company ? `, ${company.razao}` : ''}! Segue a parcela ${parcel.numero}/${carne.numero_parcelas} do seu ${carneName(carne.id)}.`,
		`Valor: ${formatBrl(parcel.valor_centavos)}`,
		`Vencimento: ${formatBrDate(parcel.vencimento)}${parcel.status === 'OVERDUE' ? ' (vencida)' : ''}`,
		parcel.boleto_url ? `Boleto: ${parcel.boleto_url}` : null,
		parcel.linha_digitavel ? `Linha digitável: ${parcel.linha_digitavel}` : null,
		parcel.pix_copia_cola ? `PIX copia e cola: ${parcel.pix_copia_cola}` : null
	].filter(Boolean)
	try {
		await (await gatewayFor(ctx, parcel.representante_cnpj)).sendText(phone, lines.join('\n'))
	} catch (error) {
		whatsappFailure(error)
	}
	await logActivity(
		ctx.db,
		ctx.clock,
		'billing.parcel-sent',
		{ parcela: parcel.numero, carne: parcel.carne_id, telefone: phone },
		{ actor: user, entityId: parcel.id }
	)
	return { message: 'Carnê enviado via WhatsApp com sucesso' }
}
