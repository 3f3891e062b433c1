import { type SQL, and, asc, count, desc, eq, gte, lt, or, sql } from 'drizzle-orm'
import type { SessionUser } from '../auth'
import { companies } from '../companies'
import { addDaysIso, pagination, startOfDayInSaoPaulo } from '../core'
import type { AppContext } from '../core/server'
import { representativeScope } from '../resellers'
import type { HistoricoList, HistoricoQuery, PagamentosList, PagamentosQuery } from './carnes-model'
import { carneParcelas, carnes, historicoPagamentos } from './schema'

type Ctx = Pick<AppContext, 'db'>
type Actor = Pick<SessionUser, 'id' | 'tipo' | 'cnpj'>

const PAID_SQL = sql.raw(`('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'DUNNING_RECEIVED')`)

/** The monitor's status filter: 'RECEIVED' and 'CONFIRMED' both mean Pago. */
function statusCondition(status: PagamentosQuery['status']): SQL | undefined {
	if (!status) return undefined
	if (status === 'RECEIVED' || status === 'CONFIRMED') return sql`${carneParcelas.status} in ${PAID_SQL}`
	return eq(carneParcelas.status, status)
}

/** GET /api/carnes/pagamentos: the scope's parcels, filtered and paged in SQL, soonest due first, with the cards' totals. */
export function listPagamentos(ctx: Ctx, user: Actor, query: PagamentosQuery): PagamentosList {
	const scope = representativeScope(ctx.db, user)
	const base = and(
		scope.all ? undefined : scope.on(carneParcelas.representante_cnpj),
		query.empresa ? eq(carneParcelas.empresa_codigo, query.empresa) : undefined,
		query.dataInicio ? gte(carneParcelas.vencimento, query.dataInicio) : undefined,
		query.dataFim ? sql`${carneParcelas.vencimento} <= ${query.dataFim}` : undefined
	)
	const where = and(base, statusCondition(query.status))
	// The cards count the filtered view (all statuses of it when no status is chosen).
	const totals = ctx.db
		.select({
			total: count(),
			valorTotal: sql<number>`coalesce(sum(${carneParcelas.valor_centavos}), 0)`,
			pagas: sql<number>`coalesce(sum(case when ${carneParcelas.status} in ${PAID_SQL} then 1 else 0 end), 0)`,
			valorRecebido: sql<number>`coalesce(sum(case when ${carneParcelas.status} in ${PAID_SQL} then ${carneParcelas.valor_centavos} else 0 end), 0)`,
			pendentes: sql<number>`coalesce(sum(case when ${carneParcelas.status} = 'PENDING' then 1 else 0 end), 0)`,
			vencidas: sql<number>`coalesce(sum(case when ${carneParcelas.status} = 'OVERDUE' then 1 else 0 end), 0)`
		})
		.from(carneParcelas)
		.where(where)
		.get()!
	const rows = ctx.db
		.select({
			parcel: carneParcelas,
			totalParcelas: carnes.numero_parcelas,
			asaasInstallmentId: carnes.asaas_installment_id,
			razao: companies.razao,
			cnpj: companies.cnpj
		})
		.from(carneParcelas)
		.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
		.innerJoin(companies, eq(companies.codigo, carneParcelas.empresa_codigo))
		.where(where)
		.orderBy(asc(carneParcelas.vencimento), asc(carneParcelas.id))
		.limit(query.limit)
		.offset((query.page - 1) * query.limit)
		.all()
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
			asaasInstallmentId: r.asaasInstallmentId,
			empresa: { codigo: p.empresa_codigo, razao: r.razao, cnpj: r.cnpj }
		})),
		pagination: pagination(query.page, query.limit, totals.total),
		resumo: {
			total: totals.total,
			valorTotal: Number(totals.valorTotal) / 100,
			pagas: Number(totals.pagas),
			valorRecebido: Number(totals.valorRecebido) / 100,
			pendentes: Number(totals.pendentes),
			vencidas: Number(totals.vencidas)
		}
	}
}

/** GET /api/historico-pagamentos: the scope's events, newest first, filtered and paged in SQL, with the cards. */
export function listHistorico(ctx: Ctx, user: Actor, query: HistoricoQuery): HistoricoList {
	const scope = representativeScope(ctx.db, user)
	const search = query.search.replace(/[%_\\]/g, (c) => `\\${c}`)
	const where = and(
		scope.all ? undefined : scope.on(historicoPagamentos.representante_cnpj),
		query.tipo ? eq(historicoPagamentos.tipo_evento, query.tipo) : undefined,
		query.empresa ? eq(historicoPagamentos.empresa_codigo, query.empresa) : undefined,
		// Days in Brazil time.
		query.dataInicio ? gte(historicoPagamentos.data_evento, startOfDayInSaoPaulo(query.dataInicio)) : undefined,
		query.dataFim ? lt(historicoPagamentos.data_evento, startOfDayInSaoPaulo(addDaysIso(query.dataFim, 1))) : undefined,
		search
			? or(
					sql`${historicoPagamentos.descricao} like ${`%${search}%`} escape '\\'`,
					sql`${historicoPagamentos.boleto_id} like ${`${search}%`} escape '\\'`,
					sql`${historicoPagamentos.asaas_evento_id} like ${`${search}%`} escape '\\'`
				)
			: undefined
	)
	const totals = ctx.db
		.select({
			total: count(),
			pagamentos: sql<number>`coalesce(sum(case when ${historicoPagamentos.tipo_evento} = 'pagamento' then 1 else 0 end), 0)`,
			cancelamentos: sql<number>`coalesce(sum(case when ${historicoPagamentos.tipo_evento} = 'cancelamento' then 1 else 0 end), 0)`,
			valorTotal: sql<number>`coalesce(sum(case when ${historicoPagamentos.tipo_evento} = 'pagamento' then ${historicoPagamentos.valor_centavos} else 0 end), 0)`
		})
		.from(historicoPagamentos)
		.where(where)
		.get()!
	const rows = ctx.db
		.select({ event: historicoPagamentos, razao: companies.razao, cnpj: companies.cnpj })
		.from(historicoPagamentos)
		.leftJoin(companies, eq(companies.codigo, historicoPagamentos.empresa_codigo))
		.where(where)
		.orderBy(desc(historicoPagamentos.data_evento), desc(historicoPagamentos.id))
		.limit(query.limit)
		.offset((query.page - 1) * query.limit)
		.all()
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
		resumo: {
			total: totals.total,
			pagamentos: Number(totals.pagamentos),
			cancelamentos: Number(totals.cancelamentos),
			valorTotal: Number(totals.valorTotal) / 100
		}
	}
}
