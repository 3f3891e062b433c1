import { randomUUID } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type AsaasClient, AsaasError, type AsaasPayment } from '../asaas'
import type { SessionUser } from '../auth'
import { companies, companyInScope } from '../companies'
import { pagination, todayIso } from '../core'
import { type AppContext, AppError, badRequest, notFound, unprocessable, writeTransaction } from '../core/server'
import { normaliseBrazilianPhone } from '../evolution'
import { evolutionGateway } from '../messaging'
import { EvolutionError } from '../evolution'
import { findRepresentativeByCnpj, representativeScope } from '../resellers'
import { type AsaasAccount, asaasAccount, asaasClient } from './accounts'
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
import { isPaid } from './labels'
import { carneParcelas, carnes, historicoPagamentos } from './schema'

type Ctx = AppContext
type Actor = Pick<SessionUser, 'id' | 'nome' | 'tipo' | 'cnpj'>
type CarneRow = typeof carnes.$inferSelect
type ParcelRow = typeof carneParcelas.$inferSelect

const reais = (centavos: number) => centavos / 100
const brl = (centavos: number) =>
	`R$ ${(centavos / 100)
		.toFixed(2)
		.replace('.', ',')
		.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`
const brDate = (iso: string) => iso.split('-').reverse().join('/')

/** An Asaas failure as the answer a person reads: its pt-BR message, 502 (the gateway failed, not the request). */
export function asaasFailure(error: unknown): never {
	if (error instanceof AsaasError) throw new AppError(502, error.message, 'ASAAS')
	throw error
}

/** The account a company's carnês are charged through: its representative's, which must be on and have a key. */
export function companyAccount(ctx: Ctx, representanteCnpj: string): AsaasAccount {
	const account = asaasAccount(ctx.db, ctx.secrets, representanteCnpj)
	if (!account?.active) {
		const nome = findRepresentativeByCnpj(ctx.db, representanteCnpj)?.nome ?? representanteCnpj
		throw unprocessable(
			`A integração com o Asaas do representante ${nome} está desativada ou sem chave API: ative-a e informe a chave em Configurações Financeiras antes de emitir ou alterar carnês.`,
			'ASAAS_INACTIVE'
		)
	}
	return account
}

/** The carnê, when its company is in the user's scope; otherwise 404, the same answer as for no carnê. */
export function carneInScope(ctx: Ctx, user: Actor, id: number): CarneRow {
	const carne = ctx.db.select().from(carnes).where(eq(carnes.id, id)).get()
	if (!carne || !representativeScope(ctx.db, user).includes(carne.representante_cnpj)) throw notFound('Carnê não encontrado.')
	return carne
}

/** The parcel, when its carnê is in the user's scope; otherwise 404. */
export function parcelInScope(ctx: Ctx, user: Actor, id: number): ParcelRow {
	const parcel = ctx.db.select().from(carneParcelas).where(eq(carneParcelas.id, id)).get()
	if (!parcel || !representativeScope(ctx.db, user).includes(parcel.representante_cnpj)) throw notFound('Parcela não encontrada.')
	return parcel
}

/** The company's Asaas customer: found by its CNPJ, or created from its record (code as externalReference). */
async function customerFor(client: AsaasClient, company: typeof companies.$inferSelect): Promise<string> {
	const found = await client.findCustomerByCpfCnpj(company.cnpj)
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

/**
 * Creates the plan at Asaas under `referencia`. A create whose answer was lost (uncertain) is looked up by the
 * reference before it is tried again, so a retry never makes a second plan.
 */
async function createPlan(client: AsaasClient, referencia: string, plan: Parameters<AsaasClient['createInstallment']>[0]) {
	for (let attempt = 1; ; attempt++) {
		try {
			return (await client.createInstallment({ ...plan, paymentExternalReference: referencia })).id
		} catch (error) {
			if (!(error instanceof AsaasError) || !error.uncertain) throw error
			const existing = await planByReference(client, referencia)
			if (existing) return existing
			if (attempt >= 2) throw error
		}
	}
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
	data_pagamento: p.paymentDate ?? p.clientPaymentDate ?? p.confirmedDate ?? null,
	boleto_url: p.bankSlipUrl ?? null,
	invoice_url: p.invoiceUrl ?? null,
	linha_digitavel: codes.linha,
	pix_copia_cola: codes.pix,
	updated_at: now
})

/** POST /api/carnes: validates, finds or creates the customer, creates the plan, reads its parcels, stores all at once. */
export async function createCarne(ctx: Ctx, user: Actor, body: CarneBody): Promise<{ message: string; carne: CarneView }> {
	const company = companyInScope(ctx.db, representativeScope(ctx.db, user), body.empresa_codigo)
	const dueProblem = firstDueDateProblem(body.data_primeiro_vencimento, todayIso(ctx.clock))
	if (dueProblem) throw badRequest(dueProblem)
	const account = companyAccount(ctx, company.cnpj_representante)
	const client = asaasClient(ctx, account)
	const totalCentavos = Math.round(body.valor_total * 100)
	const referencia = `carne-${randomUUID()}`
	let installmentId: string
	let customerId: string
	let payments: AsaasPayment[]
	try {
		customerId = await customerFor(client, company)
		installmentId = await createPlan(client, referencia, {
			customer: customerId,
			billingType: body.tipo_cobranca,
			installmentCount: body.numero_parcelas,
			totalValue: reais(totalCentavos),
			dueDate: body.data_primeiro_vencimento,
			description: body.descricao ?? `Carnê ${company.razao}`
		})
		payments = (await client.listAllInstallmentPayments(installmentId)).sort(
			(a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0)
		)
	} catch (error) {
		asaasFailure(error)
	}
	const codes = await Promise.all(payments.map((p) => paymentCodes(client, p)))
	const now = ctx.clock.now().toISOString()
	const carne = writeTransaction(ctx.db, (tx) => {
		const row = tx
			.insert(carnes)
			.values({
				referencia,
				empresa_codigo: company.codigo,
				representante_cnpj: company.cnpj_representante,
				asaas_installment_id: installmentId,
				asaas_customer_id: customerId,
				valor_total_centavos: totalCentavos,
				valor_parcela_centavos: payments[0] ? Math.round(payments[0].value * 100) : Math.floor(totalCentavos / body.numero_parcelas),
				numero_parcelas: body.numero_parcelas,
				data_primeiro_vencimento: body.data_primeiro_vencimento,
				tipo_cobranca: body.tipo_cobranca,
				descricao: body.descricao,
				status: 'ativo',
				criado_por: user.id,
				created_at: now,
				updated_at: now
			})
			.returning()
			.get()
		if (payments.length > 0)
			tx.insert(carneParcelas)
				.values(payments.map((p, i) => parcelRow(row, p, codes[i], now)))
				.onConflictDoNothing()
				.run()
		logActivity(
			tx,
			ctx.clock,
			'billing.carne-created',
			{
				razao: company.razao,
				parcelas: body.numero_parcelas,
				totalCentavos,
				tipo: CHARGE_TYPE_LABELS[body.tipo_cobranca]
			},
			{ actor: user, entityId: row.id }
		)
		return row
	})
	return { message: 'Carnê criado com sucesso!', carne: carneViews(ctx.db, [carne])[0] }
}

/** The carnê cards: company, values in reais, how many parcels are paid. */
function carneViews(db: DbOrTx, rows: CarneRow[]): CarneView[] {
	if (rows.length === 0) return []
	const ids = rows.map((r) => r.id)
	const paid = new Map(
		db
			.select({ carne: carneParcelas.carne_id, n: count() })
			.from(carneParcelas)
			.where(
				and(
					inArray(carneParcelas.carne_id, ids),
					sql`${carneParcelas.status} in ('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'DUNNING_RECEIVED')`
				)
			)
			.groupBy(carneParcelas.carne_id)
			.all()
			.map((r) => [r.carne, r.n])
	)
	const names = new Map(
		db
			.select({ codigo: companies.codigo, razao: companies.razao, cnpj: companies.cnpj })
			.from(companies)
			.where(
				inArray(
					companies.codigo,
					rows.map((r) => r.empresa_codigo)
				)
			)
			.all()
			.map((c) => [c.codigo, { razao: c.razao, cnpj: c.cnpj }])
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
		created_at: r.created_at
	}))
}

/** GET /api/carnes: the scope's carnês, newest first, paged in SQL (/carnes loads the next page as one scrolls). */
export function listCarnes(ctx: Ctx, user: Actor, query: CarnesQuery): CarnesList {
	const scope = representativeScope(ctx.db, user)
	const where = scope.on(carnes.representante_cnpj)
	const total = ctx.db.select({ n: count() }).from(carnes).where(where).get()?.n ?? 0
	const rows = ctx.db
		.select()
		.from(carnes)
		.where(where)
		.orderBy(desc(carnes.id))
		.limit(query.limit)
		.offset((query.page - 1) * query.limit)
		.all()
	return { carnes: carneViews(ctx.db, rows), pagination: pagination(query.page, query.limit, total) }
}

export function carneParcels(ctx: Ctx, user: Actor, id: number): CarneParcelaView[] {
	const carne = carneInScope(ctx, user, id)
	return ctx.db
		.select()
		.from(carneParcelas)
		.where(eq(carneParcelas.carne_id, carne.id))
		.orderBy(asc(carneParcelas.numero))
		.all()
		.map((p) => ({
			id: p.id,
			numero: p.numero,
			valor: reais(p.valor_centavos),
			dataVencimento: p.vencimento,
			dataPagamento: p.data_pagamento,
			status: p.status,
			urlBoleto: p.boleto_url
		}))
}

/** The carnês' figures of Admin Financeiro: how many were issued and their total. */
export function carneTotals(db: DbOrTx): { count: number; totalCentavos: number } {
	const row = db
		.select({ n: count(), total: sql<number>`coalesce(sum(${carnes.valor_total_centavos}), 0)` })
		.from(carnes)
		.get()
	return { count: row?.n ?? 0, totalCentavos: Number(row?.total ?? 0) }
}

/**
 * DELETE /api/carnes/{id}: only while ativo. Removes the pending and overdue parcels at Asaas (the paid ones
 * stay), then records them cancelled and the carnê `cancelado`.
 */
export async function cancelCarne(ctx: Ctx, user: Actor, id: number): Promise<{ message: string }> {
	const carne = carneInScope(ctx, user, id)
	if (carne.status !== 'ativo') throw unprocessable('Só um carnê ativo pode ser cancelado.')
	const client = asaasClient(ctx, companyAccount(ctx, carne.representante_cnpj))
	let removed: string[]
	try {
		const result = await client.deleteInstallmentPendingPayments(carne.asaas_installment_id)
		removed = result.deletedPayments.map((p) => p.id)
	} catch (error) {
		asaasFailure(error)
	}
	const now = ctx.clock.now().toISOString()
	const razao = ctx.db.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, carne.empresa_codigo)).get()?.razao
	writeTransaction(ctx.db, (tx) => {
		const parcels = tx.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id)).all()
		for (const parcel of parcels) if (removed.includes(parcel.asaas_payment_id)) markCancelled(tx, parcel, now, null)
		tx.update(carnes).set({ status: 'cancelado', updated_at: now }).where(eq(carnes.id, carne.id)).run()
		logActivity(
			tx,
			ctx.clock,
			'billing.carne-cancelled',
			{ razao: razao ?? `Empresa ${carne.empresa_codigo}`, removidas: removed.length, carne: carne.id },
			{ actor: user, entityId: carne.id }
		)
	})
	return { message: 'Carnê cancelado com sucesso!' }
}

/** A parcel removed at Asaas: cancelled here, with one `cancelamento` in the history. */
export function markCancelled(tx: DbOrTx, parcel: ParcelRow, now: string, eventId: string | null) {
	if (parcel.status === 'CANCELED' || isPaid(parcel.status)) return
	tx.update(carneParcelas).set({ status: 'CANCELED', updated_at: now }).where(eq(carneParcelas.id, parcel.id)).run()
	recordEvent(tx, parcel, 'cancelamento', now, eventId)
}

/** One line of the history per (payment, kind of event): a repeat adds nothing. */
export function recordEvent(
	tx: DbOrTx,
	parcel: Pick<ParcelRow, 'id' | 'carne_id' | 'empresa_codigo' | 'representante_cnpj' | 'asaas_payment_id' | 'numero' | 'valor_centavos'>,
	tipo: 'pagamento' | 'cancelamento' | 'estorno' | 'vencimento',
	now: string,
	eventId: string | null,
	valorCentavos = parcel.valor_centavos
) {
	const total = tx.select({ n: carnes.numero_parcelas }).from(carnes).where(eq(carnes.id, parcel.carne_id)).get()?.n
	const what = { pagamento: 'paga', cancelamento: 'cancelada', estorno: 'estornada', vencimento: 'vencida' }[tipo]
	tx.insert(historicoPagamentos)
		.values({
			tipo_evento: tipo,
			parcela_id: parcel.id,
			carne_id: parcel.carne_id,
			empresa_codigo: parcel.empresa_codigo,
			representante_cnpj: parcel.representante_cnpj,
			valor_centavos: valorCentavos,
			data_evento: now,
			descricao: `Parcela ${parcel.numero}/${total ?? '?'} do carnê #${parcel.carne_id} ${what} (${brl(valorCentavos)})`,
			boleto_id: parcel.asaas_payment_id,
			asaas_evento_id: eventId
		})
		.onConflictDoNothing()
		.run()
}

/** The plan's paymentBook PDF, read with the account's key. */
export async function carnePdf(ctx: Ctx, user: Actor, id: number): Promise<{ bytes: Uint8Array; fileName: string; carne: CarneRow }> {
	const carne = carneInScope(ctx, user, id)
	const client = asaasClient(ctx, companyAccount(ctx, carne.representante_cnpj))
	try {
		const bytes = await client.getPaymentBook(carne.asaas_installment_id)
		return { bytes, fileName: `carne-${carne.id}.pdf`, carne }
	} catch (error) {
		asaasFailure(error)
	}
}

/** The WhatsApp gateway for a representative's messages: their own instance when set, else the portal's. */
function gatewayFor(ctx: Ctx, representanteCnpj: string) {
	const rep = findRepresentativeByCnpj(ctx.db, representanteCnpj)
	const gateway = evolutionGateway(ctx, { instance: rep?.evo_instancia })
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
	const company = ctx.db.select().from(companies).where(eq(companies.codigo, carne.empresa_codigo)).get()
	const caption = [
		`Olá${company ? `, ${company.razao}` : ''}! Segue o seu carnê com ${carne.numero_parcelas} parcelas de ${brl(carne.valor_parcela_centavos)}`,
		`(total ${brl(carne.valor_total_centavos)}), primeiro vencimento em ${brDate(carne.data_primeiro_vencimento)}.`
	].join(' ')
	try {
		await gatewayFor(ctx, carne.representante_cnpj).sendDocument(phone, {
			base64: Buffer.from(bytes).toString('base64'),
			fileName,
			mimetype: 'application/pdf',
			caption
		})
	} catch (error) {
		whatsappFailure(error)
	}
	logActivity(
		ctx.db,
		ctx.clock,
		'billing.carne-sent',
		{ razao: company?.razao ?? `Empresa ${carne.empresa_codigo}`, telefone: phone, carne: carne.id },
		{ actor: user, entityId: carne.id }
	)
	return { message: 'Carnê enviado via WhatsApp com sucesso!' }
}

/** DELETE /api/carnes/pagamentos/{id}: only PENDING or OVERDUE; removed at Asaas, then cancelled here. */
export async function removeParcel(ctx: Ctx, user: Actor, id: number): Promise<{ message: string }> {
	const parcel = parcelInScope(ctx, user, id)
	if (!canActOnParcel(parcel.status)) throw unprocessable('Só uma parcela pendente ou vencida pode ser removida.')
	const client = asaasClient(ctx, companyAccount(ctx, parcel.representante_cnpj))
	try {
		await client.deletePayment(parcel.asaas_payment_id)
	} catch (error) {
		asaasFailure(error)
	}
	const now = ctx.clock.now().toISOString()
	writeTransaction(ctx.db, (tx) => {
		markCancelled(tx, parcel, now, null)
		logActivity(
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
	let parcel = parcelInScope(ctx, user, id)
	if (!canActOnParcel(parcel.status)) throw unprocessable('Só uma parcela pendente ou vencida pode ser enviada.')
	const carne = ctx.db.select().from(carnes).where(eq(carnes.id, parcel.carne_id)).get()!
	// Codes Asaas did not give at creation (a boleto has a line and a PIX code, a PIX charge its code) are asked again now.
	const missing =
		(carne.tipo_cobranca === 'BOLETO' && !parcel.linha_digitavel) || (carne.tipo_cobranca !== 'CREDIT_CARD' && !parcel.pix_copia_cola)
	if (missing) {
		const client = asaasClient(ctx, companyAccount(ctx, parcel.representante_cnpj))
		const codes = await paymentCodes(client, { id: parcel.asaas_payment_id, billingType: carne.tipo_cobranca })
		const linha = parcel.linha_digitavel ?? codes.linha
		const pix = parcel.pix_copia_cola ?? codes.pix
		if (linha !== parcel.linha_digitavel || pix !== parcel.pix_copia_cola) {
			ctx.db.update(carneParcelas).set({ linha_digitavel: linha, pix_copia_cola: pix }).where(eq(carneParcelas.id, parcel.id)).run()
			parcel = { ...parcel, linha_digitavel: linha, pix_copia_cola: pix }
		}
	}
	const company = ctx.db.select().from(companies).where(eq(companies.codigo, parcel.empresa_codigo)).get()
	const lines = [
		`Olá${company ? `, ${company.razao}` : ''}! Segue a parcela ${parcel.numero}/${carne.numero_parcelas} do seu carnê.`,
		`Valor: ${brl(parcel.valor_centavos)}`,
		`Vencimento: ${brDate(parcel.vencimento)}${parcel.status === 'OVERDUE' ? ' (vencida)' : ''}`,
		parcel.boleto_url ? `Boleto: ${parcel.boleto_url}` : null,
		parcel.linha_digitavel ? `Linha digitável: ${parcel.linha_digitavel}` : null,
		parcel.pix_copia_cola ? `PIX copia e cola: ${parcel.pix_copia_cola}` : null
	].filter(Boolean)
	try {
		await gatewayFor(ctx, parcel.representante_cnpj).sendText(phone, lines.join('\n'))
	} catch (error) {
		whatsappFailure(error)
	}
	logActivity(
		ctx.db,
		ctx.clock,
		'billing.parcel-sent',
		{ parcela: parcel.numero, carne: parcel.carne_id, telefone: phone },
		{ actor: user, entityId: parcel.id }
	)
	return { message: 'Carnê enviado via WhatsApp com sucesso' }
}
