import { type SQL, and, asc, count, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { SessionUser } from '../auth'
import { companies } from '../companies'
import { addDaysIso, inOrderOf, pagination, startOfDayInSaoPaulo } from '../core'
import { type AppContext, badRequest, contains, pageIds, trigramMatch, unindexed } from '../core/server'
import { representativeScope } from '../resellers'
import type { HistoricoList, HistoricoQuery, PagamentosList, PagamentosQuery } from './carnes-model'
import { dunningSendsOf } from './dunning'
import { PAID_STATUSES, isPaid } from './labels'
import { renewalFields, renewalsOf } from './renewals'
import { carneParcelas, carnes, historicoPagamentos } from './schema'

type Ctx = Pick<AppContext, 'db'>
type Actor = Pick<SessionUser, 'id' | 'tipo' | 'cnpj'>

const PAID_SQL = sql.raw(`(${PAID_STATUSES.map((s) => `'${s}'`).join(', ')})`)

type BillingTable = typeof carneParcelas | typeof historicoPagamentos

/** The rows of `table` the user may see (their representative's, unless they see all), of one company when asked. */
function ownedRows(ctx: Ctx, user: Actor, table: BillingTable, empresa: number | undefined): SQL | undefined {
	const scope = representativeScope(ctx.db, user)
	return and(scope.all ? undefined : scope.on(table.representante_cnpj), empresa ? eq(table.empresa_codigo, empresa) : undefined)
}

/** The cards' figures: how many rows match and their amounts summed (centavos), per value of `key`. */
async function totalsBy(ctx: Ctx, table: BillingTable, key: SQLiteColumn, where: SQL | undefined) {
	return await ctx.db
		.select({ key: sql<string>`${key}`, n: count(), valor: sql<number>`coalesce(sum(${table.valor_centavos}), 0)` })
		.from(table)
		.where(where)
		.groupBy(key)
}

/** The monitor's status filter: 'RECEIVED' and 'CONFIRMED' both mean Pago. */
function statusCondition(status: PagamentosQuery['status'], forPage = false): SQL | undefined {
	if (!status) return undefined
	// Most parcels end up paid: the page then walks the due-date index in order (kept off the status index, which
	// would sort every paid parcel to show twenty).
	if (status === 'RECEIVED' || status === 'CONFIRMED')
		return sql`${forPage ? unindexed(carneParcelas.status) : carneParcelas.status} in ${PAID_SQL}`
	return eq(carneParcelas.status, status)
}

/** A period whose start is after its end matches nothing by mistake: it is refused, saying why (issue 34, point 16). */
function checkPeriod(query: { dataInicio?: string; dataFim?: string }) {
	if (query.dataInicio && query.dataFim && query.dataInicio > query.dataFim)
		throw badRequest('A Data Início é posterior à Data Fim: corrija o período para ver a lista.', 'INVERTED_PERIOD')
}

/** GET /api/carnes/pagamentos: the scope's parcels, filtered and paged in SQL, soonest due first, with the cards' totals. */
export async function listPagamentos(ctx: Ctx, user: Actor, query: PagamentosQuery): Promise<PagamentosList> {
	checkPeriod(query)
	const base = and(
		ownedRows(ctx, user, carneParcelas, query.empresa),
		query.dataInicio ? gte(carneParcelas.vencimento, query.dataInicio) : undefined,
		query.dataFim ? sql`${carneParcelas.vencimento} <= ${query.dataFim}` : undefined
	)
	const where = and(base, statusCondition(query.status))
	// The cards total the filtered view (all its statuses when no status is chosen), one group per status.
	const groups = await totalsBy(ctx, carneParcelas, carneParcelas.status, where)
	const sum = (pick: (status: string) => boolean, field: 'n' | 'valor') =>
		groups.filter((g) => pick(g.key)).reduce((acc, g) => acc + Number(g[field]), 0)
	const totals = {
		total: sum(() => true, 'n'),
		valorTotal: sum(() => true, 'valor'),
		pagas: sum(isPaid, 'n'),
		valorRecebido: sum(isPaid, 'valor'),
		pendentes: sum((s) => s === 'PENDING', 'n'),
		vencidas: sum((s) => s === 'OVERDUE', 'n')
	}
	// The page's ids first (ordered and cut in the index), then only their rows joined to carnê and company.
	const ids = await pageIds(
		ctx.db,
		carneParcelas.id,
		and(base, statusCondition(query.status, true)),
		[asc(carneParcelas.vencimento), asc(carneParcelas.id)],
		query.limit,
		(query.page - 1) * query.limit
	)
	const rows = await inOrderOf(
		ids,
		async (page) =>
			await ctx.db
				.select({
					parcel: carneParcelas,
					totalParcelas: carnes.numero_parcelas,
					asaasInstallmentId: carnes.asaas_installment_id,
					razao: companies.razao,
					cnpj: companies.cnpj,
					fone: companies.fone
				})
				.from(carneParcelas)
				.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
				.innerJoin(companies, eq(companies.codigo, carneParcelas.empresa_codigo))
				.where(inArray(carneParcelas.id, page)),
		(r) => r.parcel.id
	)
	const renewals = await renewalsOf(ctx.db, ids)
	const regua = await dunningSendsOf(ctx.db, ids)
	return {
		parcelas: rows.map(({ parcel: p, ...r }) => ({
			id: p.id,
			carneId: p.carne_id,
			numeroParcela: p.numero,
			totalParcelas: r.totalParcelas,
			status: p.status,
			valor: p.valor_centavos / 100,
			dataVencimento: p.vencimento,
			dataPagamento: p.data_pagamento,
			linhaDigitavel: p.linha_digitavel,
			urlBoleto: p.boleto_url,
			pixCopiaCola: p.pix_copia_cola,
			// A parcel is stored only with its finished carnê, whose plan id is known.
			asaasInstallmentId: r.asaasInstallmentId ?? '',
			empresa: { codigo: p.empresa_codigo, razao: r.razao, cnpj: r.cnpj, fone: r.fone },
			...renewalFields(renewals.get(p.id)),
			regua: regua.get(p.id) ?? []
		})),
		pagination: pagination(query.page, query.limit, totals.total),
		resumo: { ...totals, valorTotal: totals.valorTotal / 100, valorRecebido: totals.valorRecebido / 100 }
	}
}

/**
 * The history's Buscar: description, boleto id or event id. Text of 3+ characters uses the trigram index, shorter
 * text scans.
 */
function searchCondition(search: string): SQL | undefined {
	if (!search) return undefined
	if (search.length >= 3)
		return trigramMatch(
			[search],
			[
				sql`coalesce(${historicoPagamentos.descricao}, '')`,
				sql`${historicoPagamentos.boleto_id}`,
				sql`coalesce(${historicoPagamentos.asaas_evento_id}, '')`
			],
			{ table: 'historico_pagamentos_fts', rowid: historicoPagamentos.id }
		)
	return or(
		contains(historicoPagamentos.descricao, search),
		contains(historicoPagamentos.boleto_id, search),
		contains(historicoPagamentos.asaas_evento_id, search)
	)
}

/** GET /api/historico-pagamentos: the scope's events, newest first, filtered and paged in SQL, with the cards. */
export async function listHistorico(ctx: Ctx, user: Actor, query: HistoricoQuery): Promise<HistoricoList> {
	checkPeriod(query)
	const where = and(
		ownedRows(ctx, user, historicoPagamentos, query.empresa),
		query.tipo ? eq(historicoPagamentos.tipo_evento, query.tipo) : undefined,
		// Days in Brazil time.
		query.dataInicio ? gte(historicoPagamentos.data_evento, startOfDayInSaoPaulo(query.dataInicio)) : undefined,
		query.dataFim ? lt(historicoPagamentos.data_evento, startOfDayInSaoPaulo(addDaysIso(query.dataFim, 1))) : undefined,
		searchCondition(query.search)
	)
	const groups = await totalsBy(ctx, historicoPagamentos, historicoPagamentos.tipo_evento, where)
	const of = (tipo: string) => groups.find((g) => g.key === tipo)
	const totals = {
		total: groups.reduce((acc, g) => acc + g.n, 0),
		pagamentos: of('pagamento')?.n ?? 0,
		cancelamentos: of('cancelamento')?.n ?? 0,
		// What was received: payments and disputes won, less refunds, chargebacks and undone cash receipts (issue 34, point 9).
		valorTotal:
			Number(of('pagamento')?.valor ?? 0) +
			Number(of('disputa_vencida')?.valor ?? 0) -
			Number(of('estorno')?.valor ?? 0) -
			Number(of('pagamento_desfeito')?.valor ?? 0)
	}
	const newestFirst = [desc(historicoPagamentos.data_evento), desc(historicoPagamentos.id)]
	const ids = await pageIds(ctx.db, historicoPagamentos.id, where, newestFirst, query.limit, (query.page - 1) * query.limit)
	const rows = await inOrderOf(
		ids,
		async (page) =>
			await ctx.db
				.select({ event: historicoPagamentos, razao: companies.razao, cnpj: companies.cnpj })
				.from(historicoPagamentos)
				.leftJoin(companies, eq(companies.codigo, historicoPagamentos.empresa_codigo))
				.where(inArray(historicoPagamentos.id, page)),
		(r) => r.event.id
	)
	return {
		eventos: rows.map(({ event: e, razao, cnpj }) => ({
			id: e.id,
			tipo_evento: e.tipo_evento,
			valor: e.valor_centavos === null ? null : e.valor_centavos / 100,
			data_evento: e.data_evento,
			descricao: e.descricao,
			boleto_id: e.boleto_id,
			asaas_evento_id: e.asaas_evento_id,
			empresa_codigo: e.empresa_codigo,
			carne_id: e.carne_id,
			empresa: razao !== null && cnpj !== null ? { razao, cnpj } : null
		})),
		pagination: pagination(query.page, query.limit, totals.total),
		resumo: { ...totals, valorTotal: totals.valorTotal / 100 }
	}
}
