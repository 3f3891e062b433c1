import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { companies } from '../companies'
import { type Clock, carneName, formatBrDate, formatNumber } from '../core'
import { type AppContext, unprocessable, writeTransaction } from '../core/server'
import { EvolutionError, normaliseBrazilianPhone } from '../evolution'
import { evolutionGateway, notifyUsers, pauseBetweenSends } from '../messaging'
import { findRepresentativeByCnpj, representativeScope, representatives } from '../resellers'
import { type CarneView, type RenewalOptionBody, type WaitingRenewals, renewalWords } from './carnes-model'
import { carneParcelas, carneRenovacoes, carnes, historicoPagamentos } from './schema'

type ParcelRow = typeof carneParcelas.$inferSelect
type RenewalRow = typeof carneRenovacoes.$inferSelect
type Actor = Pick<SessionUser, 'id' | 'nome' | 'tipo' | 'cnpj'>

/**
 * What billing asks of the credit ledger, which sits above it (credits imports billing): the composition root hands
 * it in, as it hands the companies' and credits' counts to resellers.
 */
export interface CreditPool {
	available(db: DbOrTx, representanteCnpj: string): Promise<number>
}

/** Where a representative buys credits: the link of every "waiting for credits" notice. */
export const BUY_CREDITS_PATH = '/autocompra-creditos'

const STILL_DUE = ['pendente', 'aguardando'] as const

/**
 * A parcel has just been recorded paid (in `tx`, the transaction that records it): when its carnê renews the licence,
 * its renewal is written, once per parcel (the unique index), to be applied by the credits module (applyRenewals).
 * A renewal dropped because the payment was undone or refunded before it was applied waits again.
 */
export async function recordRenewal(tx: DbOrTx, parcel: ParcelRow, now: string) {
	const carne = (
		await tx
			.select({ renovar: carnes.renovar_licenca, creditos: carnes.creditos_por_parcela })
			.from(carnes)
			.where(eq(carnes.id, parcel.carne_id))
	)[0]
	if (!carne?.renovar) return
	const written = await tx
		.insert(carneRenovacoes)
		.values({
			parcela_id: parcel.id,
			carne_id: parcel.carne_id,
			empresa_codigo: parcel.empresa_codigo,
			representante_cnpj: parcel.representante_cnpj,
			creditos: carne.creditos,
			estado: 'pendente',
			criada_em: now
		})
		.onConflictDoNothing({ target: carneRenovacoes.parcela_id })
		.returning({ id: carneRenovacoes.id })
	if (written.length > 0) return
	await tx
		.update(carneRenovacoes)
		.set({ estado: 'pendente', creditos: carne.creditos, motivo: null })
		.where(and(eq(carneRenovacoes.parcela_id, parcel.id), eq(carneRenovacoes.estado, 'cancelada'), isNull(carneRenovacoes.aplicada_em)))
}

/**
 * The parcel's payment was undone, refunded, charged back or removed: a renewal not yet applied is dropped (the client
 * did not pay for it). One already applied stays (the days may be in use); its date is answered, for the history.
 */
export async function dropRenewal(tx: DbOrTx, parcelId: number, motivo: string): Promise<string | null> {
	await tx
		.update(carneRenovacoes)
		.set({ estado: 'cancelada', motivo })
		.where(and(eq(carneRenovacoes.parcela_id, parcelId), inArray(carneRenovacoes.estado, [...STILL_DUE])))
	const applied = (
		await tx
			.select({ ate: carneRenovacoes.renovou_ate })
			.from(carneRenovacoes)
			.where(and(eq(carneRenovacoes.parcela_id, parcelId), eq(carneRenovacoes.estado, 'aplicada')))
	)[0]
	return applied?.ate ?? null
}

/** A renewal still to apply, with what its messages name: the parcel, its carnê and the company. */
export interface DueRenewal {
	id: number
	parcelaId: number
	carneId: number
	empresaCodigo: number
	representanteCnpj: string
	creditos: number
	estado: RenewalRow['estado']
	avisadaEm: string | null
	numero: number
	totalParcelas: number
	razao: string
	asaasPaymentId: string
	ciclo: number
}

const dueColumns = {
	id: carneRenovacoes.id,
	parcelaId: carneRenovacoes.parcela_id,
	carneId: carneRenovacoes.carne_id,
	empresaCodigo: carneRenovacoes.empresa_codigo,
	representanteCnpj: carneRenovacoes.representante_cnpj,
	creditos: carneRenovacoes.creditos,
	estado: carneRenovacoes.estado,
	avisadaEm: carneRenovacoes.avisada_em,
	numero: carneParcelas.numero,
	totalParcelas: carnes.numero_parcelas,
	razao: sql<string>`coalesce(${companies.razao}, 'Empresa ' || ${carneRenovacoes.empresa_codigo})`,
	asaasPaymentId: carneParcelas.asaas_payment_id,
	ciclo: carneParcelas.ciclo
}

/** A representative's renewals still to apply (pending or waiting for credits), oldest first: the order they are applied in. */
export async function dueRenewals(tx: DbOrTx, representanteCnpj: string): Promise<DueRenewal[]> {
	return await tx
		.select(dueColumns)
		.from(carneRenovacoes)
		.innerJoin(carneParcelas, eq(carneParcelas.id, carneRenovacoes.parcela_id))
		.innerJoin(carnes, eq(carnes.id, carneRenovacoes.carne_id))
		.leftJoin(companies, eq(companies.codigo, carneRenovacoes.empresa_codigo))
		.where(and(eq(carneRenovacoes.representante_cnpj, representanteCnpj), inArray(carneRenovacoes.estado, [...STILL_DUE])))
		.orderBy(asc(carneRenovacoes.id))
}

/** The representatives with a renewal not yet tried (a parcel just paid, or its credits changed), at most `limit`. */
export async function representativesWithPendingRenewals(db: DbOrTx, only?: string, limit = 200): Promise<string[]> {
	const rows = await db
		.selectDistinct({ cnpj: carneRenovacoes.representante_cnpj })
		.from(carneRenovacoes)
		.where(and(eq(carneRenovacoes.estado, 'pendente'), only ? eq(carneRenovacoes.representante_cnpj, only) : undefined))
		.limit(limit)
	return rows.map((r) => r.cnpj)
}

/**
 * Takes the renewal in hand for applying: true when it was still due. The conditional UPDATE, in the transaction that
 * spends the credits, is what makes a renewal happen once whoever else tries it at the same time.
 */
export async function claimRenewal(tx: DbOrTx, id: number, now: string): Promise<boolean> {
	const claimed = await tx
		.update(carneRenovacoes)
		.set({ estado: 'aplicada', aplicada_em: now, motivo: null })
		.where(and(eq(carneRenovacoes.id, id), inArray(carneRenovacoes.estado, [...STILL_DUE])))
		.returning({ id: carneRenovacoes.id })
	return claimed.length === 1
}

/** What the spend of a renewal did to the licence (credits' spendOnLicence). */
export interface RenewalSpend {
	transferId: number
	dias: number
	antes: string | null
	ate: string
}

/**
 * Records a claimed renewal as done: its dates, a line in the payment history and in the activity log ("which parcel
 * renewed what, up to which date"), and a top-bar notification to the representative.
 */
export async function completeRenewal(tx: DbOrTx, clock: Clock, renewal: DueRenewal, spend: RenewalSpend) {
	await tx
		.update(carneRenovacoes)
		.set({ dias: spend.dias, validade_anterior: spend.antes, renovou_ate: spend.ate, transferencia_id: spend.transferId })
		.where(eq(carneRenovacoes.id, renewal.id))
	const parcela = `Parcela ${renewal.numero}/${renewal.totalParcelas} do ${carneName(renewal.carneId)}`
	const what = `${formatNumber(renewal.creditos)} ${renewal.creditos === 1 ? 'crédito' : 'créditos'}, +${formatNumber(spend.dias)} dias`
	await tx
		.insert(historicoPagamentos)
		.values({
			tipo_evento: 'renovacao',
			parcela_id: renewal.parcelaId,
			carne_id: renewal.carneId,
			empresa_codigo: renewal.empresaCodigo,
			representante_cnpj: renewal.representanteCnpj,
			valor_centavos: null,
			data_evento: clock.now().toISOString(),
			descricao: `${parcela} renovou a licença de ${renewal.razao} até ${formatBrDate(spend.ate)} (${what})`,
			boleto_id: renewal.asaasPaymentId,
			asaas_evento_id: null,
			ciclo: renewal.ciclo
		})
		.onConflictDoNothing()
	await logActivity(
		tx,
		clock,
		'billing.licence-renewed',
		{
			razao: renewal.razao,
			parcela: renewal.numero,
			totalParcelas: renewal.totalParcelas,
			carne: renewal.carneId,
			creditos: renewal.creditos,
			dias: spend.dias,
			validade: spend.ate
		},
		{ actorName: 'Renovação automática', entityId: renewal.empresaCodigo, representanteCnpj: renewal.representanteCnpj }
	)
	await notifyUsers(
		tx,
		clock,
		{ representanteCnpj: renewal.representanteCnpj },
		'Licença renovada',
		`${parcela} paga: licença de ${renewal.razao} renovada até ${formatBrDate(spend.ate)} (${what}).`,
		'success'
	)
}

/**
 * The representative lacks the credits for the first of `waiting` (oldest first): they all wait. Those not told yet
 * are told now, once: a line each in the activity log and one top-bar notification with the way to buy credits; the
 * WhatsApp message follows outside the transaction (sendRenewalNotices).
 */
export async function waitForCredits(tx: DbOrTx, clock: Clock, waiting: DueRenewal[], available: number) {
	if (waiting.length === 0) return
	const now = clock.now().toISOString()
	const ids = waiting.map((r) => r.id)
	await tx
		.update(carneRenovacoes)
		.set({ estado: 'aguardando' })
		.where(and(inArray(carneRenovacoes.id, ids), eq(carneRenovacoes.estado, 'pendente')))
	const told = new Set(
		(
			await tx
				.update(carneRenovacoes)
				.set({ avisada_em: now })
				.where(and(inArray(carneRenovacoes.id, ids), isNull(carneRenovacoes.avisada_em)))
				.returning({ id: carneRenovacoes.id })
		).map((r) => r.id)
	)
	const fresh = waiting.filter((r) => told.has(r.id))
	if (fresh.length === 0) return
	for (const r of fresh)
		await logActivity(
			tx,
			clock,
			'billing.renewal-waiting',
			{ razao: r.razao, parcela: r.numero, totalParcelas: r.totalParcelas, carne: r.carneId, creditos: r.creditos },
			{ actorName: 'Renovação automática', entityId: r.empresaCodigo, representanteCnpj: r.representanteCnpj }
		)
	const needed = waiting.reduce((sum, r) => sum + r.creditos, 0)
	await notifyUsers(
		tx,
		clock,
		{ representanteCnpj: fresh[0].representanteCnpj },
		'Renovação aguardando créditos',
		renewalWords.waitingMessage(fresh, needed, available),
		'warning',
		BUY_CREDITS_PATH
	)
}

/** A renewal that cannot be made (the licence would pass its horizon, the company changed hands): dropped, saying why. */
export async function cancelRenewal(tx: DbOrTx, clock: Clock, renewal: DueRenewal, motivo: string) {
	const dropped = await tx
		.update(carneRenovacoes)
		.set({ estado: 'cancelada', motivo })
		.where(and(eq(carneRenovacoes.id, renewal.id), inArray(carneRenovacoes.estado, [...STILL_DUE])))
		.returning({ id: carneRenovacoes.id })
	if (dropped.length === 0) return
	await notifyUsers(
		tx,
		clock,
		{ representanteCnpj: renewal.representanteCnpj },
		'Renovação não aplicada',
		`Parcela ${renewal.numero}/${renewal.totalParcelas} do ${carneName(renewal.carneId)} (${renewal.razao}): ${motivo}`,
		'warning'
	)
}

/** The most representatives one run writes to on WhatsApp (each message waits the gateway's pause). */
const NOTICES_PER_RUN = 10

/**
 * The WhatsApp side of "waiting for credits": one message per representative with renewals told in the top bar but
 * not yet on WhatsApp, to their own number, through the portal's gateway. Each renewal is marked before the send
 * (at most one message about it, even with two processes); without a gateway or a number it is marked and nothing is
 * sent. `only`: one representative's. Called outside any transaction.
 */
export async function sendRenewalNotices(ctx: AppContext, only?: string): Promise<number> {
	const pending = await ctx.db
		.selectDistinct({ cnpj: carneRenovacoes.representante_cnpj })
		.from(carneRenovacoes)
		.where(
			and(
				eq(carneRenovacoes.estado, 'aguardando'),
				isNotNull(carneRenovacoes.avisada_em),
				isNull(carneRenovacoes.whatsapp_em),
				only ? eq(carneRenovacoes.representante_cnpj, only) : undefined
			)
		)
		.limit(NOTICES_PER_RUN)
	let sent = 0
	for (const { cnpj } of pending) {
		const now = ctx.clock.now().toISOString()
		const claimed = (
			await writeTransaction(ctx.db, (tx) =>
				tx
					.update(carneRenovacoes)
					.set({ whatsapp_em: now })
					.where(
						and(
							eq(carneRenovacoes.representante_cnpj, cnpj),
							eq(carneRenovacoes.estado, 'aguardando'),
							isNotNull(carneRenovacoes.avisada_em),
							isNull(carneRenovacoes.whatsapp_em)
						)
					)
					.returning({ id: carneRenovacoes.id })
			)
		).map((r) => r.id)
		if (claimed.length === 0) continue
		const rep = await findRepresentativeByCnpj(ctx.db, cnpj)
		const phone = rep?.whatsapp ? normaliseBrazilianPhone(rep.whatsapp) : null
		const gateway = phone ? await evolutionGateway(ctx) : null
		if (!phone || !gateway) continue
		const renewals = (await dueRenewals(ctx.db, cnpj)).filter((r) => claimed.includes(r.id))
		if (renewals.length === 0) continue
		if (sent > 0) await Bun.sleep(pauseBetweenSends(ctx.config.whatsappPauseMs))
		const link = ctx.config.publicOrigin ? `${ctx.config.publicOrigin}${BUY_CREDITS_PATH}` : null
		try {
			await gateway.sendText(phone, renewalWords.whatsappMessage(rep?.nome ?? '', renewals, link))
			sent++
		} catch (error) {
			if (!(error instanceof EvolutionError)) throw error
			ctx.log('billing.renewal_notice_failed', { representante: cnpj, message: error.message })
		}
	}
	return sent
}

/** The parcels' renewals, by parcel id, for the parcel views. */
export async function renewalsOf(db: DbOrTx, parcelIds: number[]): Promise<Map<number, RenewalRow>> {
	if (parcelIds.length === 0) return new Map()
	const rows = await db.select().from(carneRenovacoes).where(inArray(carneRenovacoes.parcela_id, parcelIds))
	return new Map(rows.map((r) => [r.parcela_id, r]))
}

/** What a parcel's view says of its renewal (carnes-model's RenewalFields). */
export function renewalFields(renewal: RenewalRow | undefined) {
	return {
		renovacao: renewal?.estado ?? null,
		renovou_ate: renewal?.estado === 'aplicada' ? renewal.renovou_ate : null,
		aguarda_creditos: renewal?.estado === 'aguardando',
		renovacao_motivo: renewal?.estado === 'cancelada' ? renewal.motivo : null
	}
}

/** GET /api/carnes/renovacoes: the scope's renewals still to apply, oldest first (the Credits page and the Dashboard). */
export async function waitingRenewals(ctx: Pick<AppContext, 'db'>, user: Actor, limit = 20): Promise<WaitingRenewals> {
	const where = and(
		inArray(carneRenovacoes.estado, [...STILL_DUE]),
		representativeScope(ctx.db, user).on(carneRenovacoes.representante_cnpj)
	)
	const totals = (
		await ctx.db
			.select({ n: count(), creditos: sql<number>`coalesce(sum(${carneRenovacoes.creditos}), 0)` })
			.from(carneRenovacoes)
			.where(where)
	)[0]
	const rows = await ctx.db
		.select({ ...dueColumns, criadaEm: carneRenovacoes.criada_em, nome: representatives.nome })
		.from(carneRenovacoes)
		.innerJoin(carneParcelas, eq(carneParcelas.id, carneRenovacoes.parcela_id))
		.innerJoin(carnes, eq(carnes.id, carneRenovacoes.carne_id))
		.leftJoin(companies, eq(companies.codigo, carneRenovacoes.empresa_codigo))
		.leftJoin(representatives, eq(representatives.cnpj, carneRenovacoes.representante_cnpj))
		.where(where)
		.orderBy(asc(carneRenovacoes.id))
		.limit(limit)
	return {
		total: totals?.n ?? 0,
		creditos: Number(totals?.creditos ?? 0),
		renovacoes: rows.map((r) => ({
			id: r.id,
			carneId: r.carneId,
			parcela: r.numero,
			totalParcelas: r.totalParcelas,
			creditos: r.creditos,
			aguardaCreditos: r.estado === 'aguardando',
			desde: r.criadaEm,
			empresa: { codigo: r.empresaCodigo, razao: r.razao },
			representante: { cnpj: r.representanteCnpj, nome: r.nome ?? r.representanteCnpj }
		}))
	}
}

/**
 * PATCH /api/carnes/{id}/renovacao: switches the automatic renewal and its credits per parcel while the carnê is ativo.
 * Renewals still waiting follow: switched off, they are dropped; with other credits, they are tried again at once
 * (the credits module's job) with the new number.
 */
export async function setRenewalOption(
	ctx: AppContext,
	user: Actor,
	carne: typeof carnes.$inferSelect,
	body: RenewalOptionBody,
	view: (row: typeof carnes.$inferSelect) => Promise<CarneView>
): Promise<{ message: string; carne: CarneView }> {
	const notActive = () => unprocessable('Só a renovação de um carnê ativo pode ser alterada.')
	if (carne.status !== 'ativo') throw notActive()
	const now = ctx.clock.now().toISOString()
	const razao =
		(await ctx.db.select({ razao: companies.razao }).from(companies).where(eq(companies.codigo, carne.empresa_codigo)))[0]?.razao ??
		`Empresa ${carne.empresa_codigo}`
	const row = await writeTransaction(ctx.db, async (tx) => {
		const changed = (
			await tx
				.update(carnes)
				.set({ renovar_licenca: body.renovar_licenca, creditos_por_parcela: body.creditos_por_parcela, updated_at: now })
				.where(and(eq(carnes.id, carne.id), eq(carnes.status, 'ativo')))
				.returning()
		)[0]
		if (!changed) throw notActive()
		const stillDue = and(eq(carneRenovacoes.carne_id, carne.id), inArray(carneRenovacoes.estado, [...STILL_DUE]))
		if (body.renovar_licenca)
			await tx.update(carneRenovacoes).set({ creditos: body.creditos_por_parcela, estado: 'pendente' }).where(stillDue)
		else await tx.update(carneRenovacoes).set({ estado: 'cancelada', motivo: 'Renovação automática desligada no carnê.' }).where(stillDue)
		await logActivity(
			tx,
			ctx.clock,
			'billing.carne-renewal-changed',
			{ razao, carne: carne.id, renovar: body.renovar_licenca, creditos: body.creditos_por_parcela },
			{ actor: user, entityId: carne.id, representanteCnpj: carne.representante_cnpj }
		)
		return changed
	})
	return {
		message: body.renovar_licenca
			? `Renovação automática ativada: cada parcela paga renova a licença com ${renewalWords.credits(body.creditos_por_parcela)}.`
			: 'Renovação automática desativada.',
		carne: await view(row)
	}
}
