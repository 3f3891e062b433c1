import { sqlRows } from '../../db/query'
import { type SQL, type SQLWrapper, and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { type Clock, formatBrDate, csvFilename, csvMoney, formatCnpj, pagination, todayIso, toReais } from '../core'
import {
	AppError,
	type CsvColumn,
	contains,
	csvColumnsResponse,
	forbidden,
	notFound,
	unprocessable,
	writeTransaction,
	sortedBy
} from '../core/server'
import { type DueRenewal, cancelRenewal, claimRenewal, completeRenewal, dueRenewals, waitForCredits } from '../billing'
import { companies, extendLicence, findCompany } from '../companies'
import { findRepresentativeByCnpj, representativeScope, representatives } from '../resellers'
import { getSetting } from '../settings'
import type {
	AddCreditsBody,
	CreditItem,
	CreditListQuery,
	CreditListResponse,
	CreditSummaryResponse,
	CreditTotals,
	CreditView,
	SummaryQuery,
	SummaryView,
	TransferBody,
	TransferResult
} from './model'
import { creditBalances, creditConsumptions, credits } from './schema'

type Actor = Pick<SessionUser, 'id' | 'nome' | 'cnpj' | 'tipo'>

/**
 * The pool condition: own batches that are active and not used up (2-administration §4). The values are written in
 * the SQL, not bound, as in the partial indexes of schema.ts: SQLite uses an index only for a condition it can see.
 */
export const AVAILABLE = sql`${credits.origem} <> 'transferencia' and ${credits.ativo} = 1 and ${credits.data_uso} is null`
/** Inactive (switched off) pool credits: not available, not used. */
export const INACTIVE = sql`${credits.origem} <> 'transferencia' and ${credits.ativo} = 0`
export const TRANSFER = sql`${credits.origem} = 'transferencia'`
const POOL = sql`${credits.origem} <> 'transferencia'`

/** Σ valor of a representative's available batches. */
export async function availableCredits(db: DbOrTx, representanteCnpj: string): Promise<number> {
	const row = (
		await sqlRows<{ total: number | null }>(
			db,
			sql`select sum(${credits.valor}) as total from ${credits} where ${credits.representante_id} = ${representanteCnpj} and ${AVAILABLE}`
		)
	)[0]
	return row?.total ?? 0
}

/** Available credits in the user's scope; with a representative given, that one's (if in scope). */
export async function scopedAvailable(db: DbOrTx, user: SessionUser, representanteCnpj: string | null): Promise<number> {
	if (user.tipo === 'representante') return availableCredits(db, user.cnpj)
	if (representanteCnpj) {
		if (!(await representativeScope(db, user).includes(representanteCnpj))) throw notFound('Representante não encontrado.')
		return availableCredits(db, representanteCnpj)
	}
	return (await creditTotals(db, representativeScope(db, user).on(creditBalances.representante_id))).disponivel
}

/** Moves a representative's cached totals by the given deltas (inside the ledger write's transaction). */
export async function bumpBalance(tx: DbOrTx, cnpj: string, delta: { disponivel?: number; utilizado?: number; inativo?: number }) {
	const d = { disponivel: delta.disponivel ?? 0, utilizado: delta.utilizado ?? 0, inativo: delta.inativo ?? 0 }
	// Update first: an upsert would check the CHECK (≥ 0) constraint on the would-be inserted row of deltas.
	const updated = await tx
		.update(creditBalances)
		.set({
			disponivel: sql`${creditBalances.disponivel} + ${d.disponivel}`,
			utilizado: sql`${creditBalances.utilizado} + ${d.utilizado}`,
			inativo: sql`${creditBalances.inativo} + ${d.inativo}`
		})
		.where(eq(creditBalances.representante_id, cnpj))
		.returning({ representante_id: creditBalances.representante_id })
	if (updated.length === 0) {
		await tx.insert(creditBalances).values({ representante_id: cnpj, ...d })
	}
}

/** Recomputes every representative's cached totals from the ledger (start-up, seeding, repair). */
export async function rebuildCreditBalances(db: DbOrTx) {
	await writeTransaction(db, async (tx) => {
		await tx.delete(creditBalances)
		const sumWhen = (condition: SQL) => sql<number>`sum(case when ${condition} then ${credits.valor} else 0 end)`
		await tx.insert(creditBalances).select(
			tx
				.select({
					representante_id: credits.representante_id,
					disponivel: sumWhen(AVAILABLE).as('disponivel'),
					utilizado: sumWhen(TRANSFER).as('utilizado'),
					inativo: sumWhen(INACTIVE).as('inativo')
				})
				.from(credits)
				.groupBy(credits.representante_id)
		)
	})
}

/**
 * Totals of the representatives matching `where` (a condition on representante_id), from the cached
 * balances; total = available + used + inactive = everything ever added.
 */
export async function creditTotals(db: DbOrTx, where: SQL): Promise<CreditTotals> {
	const row = (
		await sqlRows<{ d: number | null; u: number | null; i: number | null }>(
			db,
			sql`select sum(${creditBalances.disponivel}) as d, sum(${creditBalances.utilizado}) as u, sum(${creditBalances.inativo}) as i
			from ${creditBalances} where ${where}`
		)
	)[0]
	const disponivel = row?.d ?? 0
	const utilizado = row?.u ?? 0
	return { total: disponivel + utilizado + (row?.i ?? 0), disponivel, utilizado }
}

/** An administrator adds a batch of credits to a representative's pool (2-administration §3.3). */
export async function addCredits(db: DbOrTx, clock: Clock, actor: Actor, input: AddCreditsBody, origem: 'admin' | 'compra' = 'admin') {
	const rep = await findRepresentativeByCnpj(db, input.representanteId)
	if (!rep) throw notFound('Representante não encontrado.')
	return writeTransaction(db, async (tx) => {
		const batch = (
			await tx
				.insert(credits)
				.values({
					valor: input.amount,
					valor_original: input.amount,
					representante_id: rep.cnpj,
					ativo: 1,
					data_compra: todayIso(clock),
					valor_unitario_centavos: input.unitValue,
					origem,
					criado_por: actor.id
				})
				.returning()
		)[0]
		await bumpBalance(tx, rep.cnpj, { disponivel: input.amount })
		await logActivity(
			tx,
			clock,
			'credits.added',
			{ quantidade: input.amount, representante: rep.nome, unitarioCentavos: input.unitValue },
			{ actor, entityId: batch.id, representanteCnpj: rep.cnpj }
		)
		// Renewals of carnês that waited for credits are applied with them, oldest first.
		const renovadas = await applyRenewals(tx, clock, rep.cnpj)
		return { batch, renovadas, disponivel: await availableCredits(tx, rep.cnpj) }
	})
}

/**
 * Gives `creditos` of the company's representative's pool to the company: in ONE immediate transaction
 * it checks scope and balance, spends the credits on the licence (spendOnLicence) and logs the activity.
 */
export function transferToCompany(db: DbOrTx, clock: Clock, actor: Actor, input: TransferBody): Promise<TransferResult> {
	// The representative's batches are the rows every transfer of theirs writes (the company's, when it is not known yet).
	const hotRow = `credits:${input.representanteCnpj ?? (actor.tipo === 'representante' ? actor.cnpj : `empresa-${input.empresaCodigo}`)}`
	return writeTransaction(
		db,
		async (tx) => {
			const company = await companyToCredit(tx, actor, input)
			const spent = await spendOnLicence(tx, clock, company, { creditos: input.creditos, sistema: input.sistema, criadoPor: actor.id })
			await logActivity(
				tx,
				clock,
				'credits.transferred',
				{ creditos: input.creditos, razao: company.razao, sistema: input.sistema, dias: spent.dias, validade: spent.ate },
				{ actor, entityId: company.codigo, representanteCnpj: company.cnpj_representante }
			)
			return {
				message: `${input.creditos} ${input.creditos === 1 ? 'crédito transferido' : 'créditos transferidos'} com sucesso.`,
				transferId: spent.transferId,
				creditos: input.creditos,
				dias: spent.dias,
				validade_anterior: spent.antes,
				validade_licenca: spent.ate,
				disponivel: spent.disponivel
			}
		},
		{ hotRow }
	)
}

/**
 * The ledger's part of giving credits to a company, in the caller's transaction (a transfer, a carnê's renewal): it
 * checks the representative's balance, consumes batches oldest first (splitting the last), writes the transfer, moves
 * the cached totals and extends the licence by creditos × app.valor_credito_dia days. `sistema`: null for a renewal,
 * which is of the company's licence, not of one system.
 */
export async function spendOnLicence(
	tx: DbOrTx,
	clock: Clock,
	company: { codigo: number; razao: string; cnpj_representante: string },
	spend: { creditos: number; sistema: string | null; criadoPor: number | null }
) {
	const repCnpj = company.cnpj_representante
	const batches = await availableBatches(tx, repCnpj)
	const available = batches.reduce((sum, b) => sum + b.valor, 0)
	if (available < spend.creditos) throw notEnoughCredits(available)
	const today = todayIso(clock)
	const taken = await consumeOldestFirst(tx, batches, spend.creditos, today)
	const transferId = await recordTransfer(tx, company, spend, taken, today)
	await bumpBalance(tx, repCnpj, { disponivel: -spend.creditos, utilizado: spend.creditos })
	const licence = await extendLicence(tx, clock, company.codigo, spend.creditos, Number(await getSetting(tx, 'app.valor_credito_dia')))
	return { transferId, dias: licence.days, antes: licence.before, ate: licence.after, disponivel: available - spend.creditos }
}

/**
 * Applies a representative's carnê renewals still due (billing/renewals.ts), oldest first, in the caller's transaction:
 * each one claimed (a conditional UPDATE), its credits spent and the licence extended exactly as a transfer does
 * (spendOnLicence), all in that transaction, so it happens once or not at all. At the first the balance does not cover,
 * it and every later one wait for credits, and the representative is told. Answers how many were applied.
 */
export async function applyRenewals(tx: DbOrTx, clock: Clock, representanteCnpj: string): Promise<number> {
	const due = await dueRenewals(tx, representanteCnpj)
	if (due.length === 0) return 0
	let available = await availableCredits(tx, representanteCnpj)
	let applied = 0
	for (const [i, renewal] of due.entries()) {
		if (renewal.creditos > available) {
			await waitForCredits(tx, clock, due.slice(i), available)
			break
		}
		try {
			// A savepoint: a renewal that cannot be made rolls back alone, and the caller's transaction goes on.
			if (await writeTransaction(tx, (sp) => applyOne(sp, clock, renewal))) {
				applied++
				available -= renewal.creditos
			}
		} catch (error) {
			if (!(error instanceof AppError)) throw error
			if (error.code === 'INSUFFICIENT_CREDITS') {
				await waitForCredits(tx, clock, due.slice(i), available)
				break
			}
			await cancelRenewal(tx, clock, renewal, error.message)
		}
	}
	return applied
}

/** One renewal: false when someone else applied or dropped it first. */
async function applyOne(tx: DbOrTx, clock: Clock, renewal: DueRenewal): Promise<boolean> {
	if (!(await claimRenewal(tx, renewal.id, clock.now().toISOString()))) return false
	const company = await findCompany(tx, renewal.empresaCodigo)
	if (!company) throw unprocessable('a empresa foi excluída.')
	// The carnê's representative pays: a company handed to another representative is no longer theirs to renew.
	if (company.cnpj_representante !== renewal.representanteCnpj)
		throw unprocessable('a empresa passou para outro representante; a licença não foi renovada.')
	const spent = await spendOnLicence(tx, clock, company, { creditos: renewal.creditos, sistema: null, criadoPor: null })
	await completeRenewal(tx, clock, renewal, spent)
	return true
}

/** The company the credits go to, if the actor may credit it (out of scope looks exactly like missing). */
async function companyToCredit(tx: DbOrTx, actor: Actor, input: TransferBody) {
	const company = await findCompany(tx, input.empresaCodigo)
	if (!company || !(await representativeScope(tx, actor).includes(company.cnpj_representante))) throw notFound('Empresa não encontrada.')
	if (input.representanteCnpj && input.representanteCnpj !== company.cnpj_representante) {
		if (actor.tipo === 'representante') throw forbidden('Você só pode transferir os seus próprios créditos.')
		throw unprocessable('A empresa não pertence a este representante.')
	}
	return company
}

interface AvailableBatch {
	id: number
	valor: number
	valor_original: number | null
	valor_unitario_centavos: number
}

/** A representative's batches with credits left, oldest first (the order they are spent in). */
async function availableBatches(tx: DbOrTx, repCnpj: string): Promise<AvailableBatch[]> {
	return await sqlRows<AvailableBatch>(
		tx,
		sql`
		select ${credits.id}, ${credits.valor}, ${credits.valor_original}, ${credits.valor_unitario_centavos} from ${credits}
		where ${credits.representante_id} = ${repCnpj} and ${AVAILABLE} order by ${credits.data_compra}, ${credits.id}`
	)
}

function notEnoughCredits(available: number) {
	return unprocessable(
		available === 0
			? 'Você não possui créditos disponíveis. Compre mais créditos para continuar.'
			: `Você possui apenas ${available} ${available === 1 ? 'crédito disponível' : 'créditos disponíveis'}.`,
		'INSUFFICIENT_CREDITS'
	)
}

interface Consumption {
	id: number
	quantidade: number
	unit: number
}

/** Takes `wanted` credits from the oldest batches first; a batch emptied is marked used today. */
async function consumeOldestFirst(tx: DbOrTx, batches: AvailableBatch[], wanted: number, today: string): Promise<Consumption[]> {
	let rest = wanted
	const taken: Consumption[] = []
	for (const b of batches) {
		if (rest === 0) break
		const take = Math.min(rest, b.valor)
		const left = b.valor - take
		// The guard `valor = old` makes a stale read impossible to apply twice.
		const changed = await tx
			.update(credits)
			.set({ valor: left, valor_original: b.valor_original ?? b.valor, data_uso: left === 0 ? today : null })
			.where(and(eq(credits.id, b.id), eq(credits.valor, b.valor), isNull(credits.data_uso)))
			.returning({ id: credits.id })
		if (changed.length !== 1) throw new Error(`credit batch ${b.id} changed during the transfer`)
		taken.push({ id: b.id, quantidade: take, unit: b.valor_unitario_centavos })
		rest -= take
	}
	return taken
}

/** The transfer row (at the average unit value of what it consumed) and which batches it came from. */
async function recordTransfer(
	tx: DbOrTx,
	company: { codigo: number; razao: string; cnpj_representante: string },
	spend: { creditos: number; sistema: string | null; criadoPor: number | null },
	taken: Consumption[],
	today: string
): Promise<number> {
	const cost = taken.reduce((sum, t) => sum + t.quantidade * t.unit, 0)
	const transfer = (
		await tx
			.insert(credits)
			.values({
				valor: spend.creditos,
				representante_id: company.cnpj_representante,
				fk_empresa: company.codigo,
				empresa_razao: company.razao,
				sistema: spend.sistema,
				ativo: 1,
				data_compra: today,
				data_uso: today,
				valor_unitario_centavos: Math.round(cost / spend.creditos),
				origem: 'transferencia',
				criado_por: spend.criadoPor
			})
			.returning({ id: credits.id })
	)[0]
	for (const t of taken) {
		await tx
			.insert(creditConsumptions)
			.values({ transfer_id: transfer.id, batch_id: t.id, quantidade: t.quantidade, valor_unitario_centavos: t.unit })
	}
	return transfer.id
}

interface CreditRow {
	id: number
	valor: number
	valor_original: number | null
	representante_id: string
	fk_empresa: number | null
	empresa_razao: string | null
	sistema: string | null
	ativo: number
	data_compra: string
	data_uso: string | null
	origem: 'admin' | 'compra' | 'transferencia'
	valor_unitario_centavos: number
	rep_nome: string | null
	razao_atual: string | null
}

const CREDIT_ORDER: Record<CreditView['sort'], SQLWrapper> = {
	id: credits.id,
	valor: credits.valor,
	data_compra: credits.data_compra,
	data_uso: credits.data_uso
}

/** The credits of a view: the user's scope, the kind and the search, as SQL on `credits` joined to `representatives`. */
function creditViewCondition(db: DbOrTx, user: SessionUser, view: CreditView) {
	const scope = representativeScope(db, user).on(credits.representante_id)
	const kind = view.kind === 'pool' ? POOL : view.kind === 'transfer' ? TRANSFER : sql`1 = 1`
	const search = view.search
		? sql`(${contains(representatives.nome, view.search)} or ${contains(credits.representante_id, view.search.replace(/\W/g, ''))} or ${contains(credits.empresa_razao, view.search)})`
		: sql`1 = 1`
	return { scope, kind, where: sql`${scope} and ${kind} and ${search}` }
}

/** The representative and the company of each credit row, by name. */
const CREDIT_JOINS = sql`left join ${representatives} on ${representatives.cnpj} = ${credits.representante_id}
	left join ${companies} on ${companies.codigo} = ${credits.fk_empresa}`

async function creditRows(db: DbOrTx, where: SQL, view: CreditView, limit: number, offset: number): Promise<CreditItem[]> {
	const rows = await sqlRows<CreditRow>(
		db,
		sql`
		select ${credits.id}, ${credits.valor}, ${credits.valor_original}, ${credits.representante_id}, ${credits.fk_empresa},
			${credits.empresa_razao}, ${credits.sistema}, ${credits.ativo}, ${credits.data_compra}, ${credits.data_uso}, ${credits.origem},
			${credits.valor_unitario_centavos}, ${representatives.nome} as rep_nome, ${companies.razao} as razao_atual
		from ${credits} ${CREDIT_JOINS}
		where ${where}
		order by ${sortedBy(CREDIT_ORDER[view.sort], view.order)}, ${sortedBy(credits.id, view.order)}
		limit ${limit} offset ${offset}`
	)
	return rows.map((r) => ({
		id: r.id,
		valor: r.valor,
		valor_original: r.valor_original ?? r.valor,
		representante_id: r.representante_id,
		fk_empresa: r.fk_empresa,
		sistema: r.sistema,
		ativo: r.ativo,
		data_compra: r.data_compra,
		data_uso: r.data_uso,
		origem: r.origem,
		valor_unitario: toReais(r.valor_unitario_centavos),
		representante: { nome: r.rep_nome ?? '', cnpj: r.representante_id },
		empresa: r.origem === 'transferencia' ? { razao: r.razao_atual ?? r.empresa_razao ?? 'Empresa excluída' } : null
	}))
}

/** GET /api/credits: the user's scope, in the chosen order (newest first), with the representative and company names. */
export async function listCredits(db: DbOrTx, user: SessionUser, query: CreditListQuery): Promise<CreditListResponse> {
	const { scope, kind, where } = creditViewCondition(db, user, query)
	// The join is only needed to search by name; without it SQLite counts from the smallest index.
	const total =
		(
			await sqlRows<{ n: number }>(
				db,
				query.search
					? sql`select count(*) as n from ${credits} left join ${representatives} on ${representatives.cnpj} = ${credits.representante_id} where ${where}`
					: sql`select count(*) as n from ${credits} where ${scope} and ${kind}`
			)
		)[0]?.n ?? 0
	const page = pagination(query.page, query.limit, total)
	return {
		credits: await creditRows(db, where, query, query.limit, (query.page - 1) * query.limit),
		total,
		page: query.page,
		limit: query.limit,
		totalPages: page.totalPages,
		pagination: page,
		totals: await creditTotals(db, representativeScope(db, user).on(creditBalances.representante_id))
	}
}

const CREDIT_STATUS = (c: CreditItem) => (!c.ativo ? 'Inativo' : c.data_uso ? 'Utilizado' : 'Disponível')

/** Who holds a credit: the first columns of both exports. */
const HOLDER_COLUMNS: CsvColumn<CreditItem>[] = [
	['ID', (c) => c.id],
	['Representante', (c) => c.representante.nome],
	['CNPJ do representante', (c) => formatCnpj(c.representante.cnpj)]
]

/** The export of the transfers: which company got how many credits of which system, and when. */
const TRANSFER_COLUMNS: CsvColumn<CreditItem>[] = [
	...HOLDER_COLUMNS,
	['Empresa', (c) => c.empresa?.razao],
	['Sistema', (c) => c.sistema],
	['Créditos', (c) => c.valor],
	['Data da transferência', (c) => formatBrDate(c.data_uso)]
]

/** The export of the batches: what is left of each purchase, its price and its status. */
const BATCH_COLUMNS: CsvColumn<CreditItem>[] = [
	...HOLDER_COLUMNS,
	['Créditos restantes', (c) => c.valor],
	['Créditos comprados', (c) => c.valor_original],
	['Valor unitário (R$)', (c) => csvMoney(c.valor_unitario)],
	['Data da compra', (c) => formatBrDate(c.data_compra)],
	['Status', CREDIT_STATUS]
]

/** GET /api/credits/export: the batches or the transfers of the view, in its order, as a pt-BR spreadsheet. */
export function exportCredits(db: DbOrTx, clock: Clock, user: SessionUser, view: CreditView): Response {
	const { where } = creditViewCondition(db, user, view)
	const transfers = view.kind === 'transfer'
	return csvColumnsResponse(
		csvFilename(transfers ? 'transferencias' : 'creditos', todayIso(clock)),
		transfers ? TRANSFER_COLUMNS : BATCH_COLUMNS,
		(offset, limit) => creditRows(db, where, view, limit, offset)
	)
}

/** A representative's figure, 0 without a balance row. */
const balance = (column: SQLWrapper) => sql`coalesce(${column}, 0)`
const BALANCE_TOTAL = sql`${balance(creditBalances.disponivel)} + ${balance(creditBalances.utilizado)} + ${balance(creditBalances.inativo)}`

const SUMMARY_ORDER: Record<SummaryView['sort'], SQLWrapper> = {
	disponivel: balance(creditBalances.disponivel),
	utilizado: balance(creditBalances.utilizado),
	total: BALANCE_TOTAL,
	nome: representatives.nome,
	cnpj: representatives.cnpj
}

/** Each representative with their balance row (none before their first credit). */
const REPRESENTATIVE_BALANCES = sql`${representatives} left join ${creditBalances} on ${creditBalances.representante_id} = ${representatives.cnpj}`

/** The representatives of the summary: the scope and the search by representative name, CNPJ or one of their companies. */
function summaryCondition(db: DbOrTx, user: SessionUser, search: string): SQL {
	const scope = representativeScope(db, user).on(representatives.cnpj)
	let filter = sql`1 = 1`
	if (search) {
		const digits = search.replace(/[^0-9A-Za-z]/g, '').toUpperCase()
		filter = sql`(${contains(representatives.nome, search)}
			${digits ? sql`or ${contains(representatives.cnpj, digits)}` : sql``}
			or exists (select 1 from ${companies} where ${companies.cnpj_representante} = ${representatives.cnpj}
				and (${contains(companies.razao, search)} ${digits ? sql`or ${contains(companies.cnpj, digits)}` : sql``})))`
	}
	return sql`${scope} and ${filter}`
}

type SummaryRow = { nome: string; cnpj: string; disponivel: number; utilizado: number; total: number }

async function summaryRows(db: DbOrTx, where: SQL, view: SummaryView, limit: number, offset: number) {
	return await sqlRows<SummaryRow>(
		db,
		sql`
		select ${representatives.nome}, ${representatives.cnpj}, ${balance(creditBalances.disponivel)} as disponivel,
			${balance(creditBalances.utilizado)} as utilizado, ${BALANCE_TOTAL} as total
		from ${REPRESENTATIVE_BALANCES}
		where ${where}
		order by ${sortedBy(SUMMARY_ORDER[view.sort], view.order)}, ${representatives.nome}, ${representatives.codigo}
		limit ${limit} offset ${offset}`
	)
}

/**
 * The administrator's per-representative summary (2-administration §2.1, §3.2): one grouped query over
 * the ledger joined to the representatives, filtered by representative name, CNPJ or one of their companies.
 */
export async function creditSummary(db: DbOrTx, user: SessionUser, query: SummaryQuery): Promise<CreditSummaryResponse> {
	const where = summaryCondition(db, user, query.search)
	const agg = (
		await sqlRows<{ n: number; d: number | null; u: number | null; i: number | null; ativos: number | null }>(
			db,
			sql`
		select count(*) as n, sum(${creditBalances.disponivel}) as d, sum(${creditBalances.utilizado}) as u,
			sum(${creditBalances.inativo}) as i, sum(case when ${creditBalances.disponivel} > 0 then 1 else 0 end) as ativos
		from ${REPRESENTATIVE_BALANCES}
		where ${where}`
		)
	)[0]
	const rows = await summaryRows(db, where, query, query.limit, (query.page - 1) * query.limit)
	const disponivel = agg?.d ?? 0
	const utilizado = agg?.u ?? 0
	const totals = { total: disponivel + utilizado + (agg?.i ?? 0), disponivel, utilizado, representantesAtivos: agg?.ativos ?? 0 }
	const matched = agg?.n ?? 0
	return { representatives: rows, matched, pagination: pagination(query.page, query.limit, matched), totals }
}

const SUMMARY_CSV_COLUMNS: CsvColumn<SummaryRow>[] = [
	['Representante', (r) => r.nome],
	['CNPJ', (r) => formatCnpj(r.cnpj)],
	['Disponível', (r) => r.disponivel],
	['Utilizado', (r) => r.utilizado],
	['Total', (r) => r.total]
]

/** GET /api/credits/summary/export: the summary of the view, in its order, as a pt-BR spreadsheet. */
export function exportSummary(db: DbOrTx, clock: Clock, user: SessionUser, view: SummaryView): Response {
	const where = summaryCondition(db, user, view.search)
	return csvColumnsResponse(csvFilename('creditos-por-representante', todayIso(clock)), SUMMARY_CSV_COLUMNS, (offset, limit) =>
		summaryRows(db, where, view, limit, offset)
	)
}

/** How many credit batches (of any kind) each representative has: a representative with any cannot be deleted. */
export async function creditBatchesPerRepresentative(db: DbOrTx, cnpjs: string[]): Promise<Map<string, number>> {
	const rows = await db
		.select({ cnpj: credits.representante_id, n: sql<number>`count(*)` })
		.from(credits)
		.where(inArray(credits.representante_id, cnpjs))
		.groupBy(credits.representante_id)
	return new Map(rows.map((r) => [r.cnpj, Number(r.n)]))
}
