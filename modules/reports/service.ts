import { sqlRows } from '../../db/query'
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import type { SessionUser } from '../auth'
import {
	type Clock,
	addDaysIso,
	csvFilename,
	formatDateTime,
	oneMonthBefore,
	pagination,
	startOfDayInSaoPaulo,
	todayIso,
	toReais
} from '../core'
import { type CsvColumn, contains, csvColumnsResponse } from '../core/server'
import { activities } from '../activity'
import { TRANSFER, creditBalances, creditPurchases, creditTotals, credits } from '../credits'
import { representativeScope, representatives } from '../resellers'
import { SYSTEMS, SYSTEM_CATALOGUE, companies, perSystemKey } from '../companies'
import type { Activity, ActivityListQuery, ActivityView, DashboardStats, RecentActivitiesQuery, Report, ReportQuery } from './model'

type Scoped = Pick<SessionUser, 'id' | 'cnpj' | 'tipo'>

/**
 * "Active company" everywhere in the portal's figures: blocked in none of the five systems AND with a
 * licence date after today (1-core §4: a licence whose date is today has 0 days left and is expired).
 * Blocked in any system, expired or without a licence date = not active, as the companies filter says.
 * (The condition is written as the partial index companies_unblocked_idx, with 'N' in the SQL, so SQLite uses it.)
 */
export const UNBLOCKED_COMPANY = sql.join(
	SYSTEM_CATALOGUE.map((s) => sql`${companies[s.flag]} = 'N'`),
	sql` and `
)

/** GET /api/dashboard/stats (1-core §3), scoped to the user's representatives. */
export async function dashboardStats(db: DbOrTx, clock: Clock, user: Scoped): Promise<DashboardStats> {
	const today = todayIso(clock)
	const scope = representativeScope(db, user).on(companies.cnpj_representante)
	const total = (await sqlRows<{ n: number }>(db, sql`select count(*) as n from ${companies} where ${scope}`))[0]?.n ?? 0
	const active = (
		await sqlRows<{ n: number; reps: number }>(
			db,
			sql`
		select count(*) as n, count(distinct ${companies.cnpj_representante}) as reps from ${companies}
		where ${UNBLOCKED_COMPANY} and ${companies.validade_licenca} > ${today} and ${scope}`
		)
	)[0]
	const blocked = (
		await sqlRows<Record<string, number>>(
			db,
			sql`select ${sql.join(
				SYSTEM_CATALOGUE.map(
					(s) => sql`(select count(*) from ${companies} where ${companies[s.flag]} = 'S' and ${scope}) as ${sql.identifier(s.key)}`
				),
				sql`, `
			)}`
		)
	)[0]
	const reps =
		(
			await sqlRows<{ n: number }>(
				db,
				sql`select count(*) as n from ${representatives} where ${representativeScope(db, user).on(representatives.cnpj)}`
			)
		)[0]?.n ?? 0
	const available = (await creditTotals(db, representativeScope(db, user).on(creditBalances.representante_id))).disponivel
	const systemsStatus = perSystemKey((s) => {
		const b = blocked?.[s.key] ?? 0
		return { active: total - b, blocked: b }
	})
	return {
		totalCompanies: total,
		activeCompanies: active?.n ?? 0,
		availableCredits: available,
		totalRepresentatives: reps,
		activeRepresentatives: active?.reps ?? 0,
		systemsStatus
	}
}

/**
 * The activity lines a user may read: a representante those about their own data; a gerente those about their
 * representatives plus their own actions; an administrador everything. Then the search, the type and the period.
 */
function activityCondition(db: DbOrTx, user: Scoped, view: Omit<ActivityView, 'type'> & { type?: string | null }): SQL {
	let scope: SQL
	if (user.tipo === 'administrador') scope = sql`1 = 1`
	else if (user.tipo === 'gerente')
		scope = sql`(${representativeScope(db, user).on(activities.representante_cnpj)} or ${activities.user_id} = ${user.id})`
	else scope = sql`${activities.representante_cnpj} = ${user.cnpj}`
	const search = view.search
		? sql`(${contains(activities.title, view.search)} or ${contains(activities.subtitle, view.search)} or ${contains(activities.user_nome, view.search)})`
		: sql`1 = 1`
	const type = view.type ? sql`${activities.type} = ${view.type}` : sql`1 = 1`
	const from = view.inicio ? sql`${activities.created_at} >= ${startOfDayInSaoPaulo(view.inicio)}` : sql`1 = 1`
	const to = view.fim ? sql`${activities.created_at} < ${startOfDayInSaoPaulo(addDaysIso(view.fim, 1))}` : sql`1 = 1`
	return sql`${scope} and ${search} and ${type} and ${from} and ${to}`
}

type ActivityRow = Activity & { user_nome: string | null }

async function activityRows(db: DbOrTx, where: SQL, limit: number, offset: number): Promise<ActivityRow[]> {
	return await sqlRows(
		db,
		sql`
		select ${activities.id}, ${activities.type}, ${activities.title}, ${activities.subtitle}, ${activities.created_at} as time,
			${activities.icon}, ${activities.user_nome} from ${activities}
		where ${where}
		order by ${activities.id} desc limit ${limit} offset ${offset}`
	)
}

/** GET /api/activities/recent: newest first (the dashboard's card). */
export async function recentActivities(db: DbOrTx, user: Scoped, query: RecentActivitiesQuery): Promise<Activity[]> {
	return (await activityRows(db, activityCondition(db, user, query), query.limit, 0)).map(({ user_nome: _, ...a }) => a)
}

/** GET /api/activities: the history, newest first, one page at a time. */
export async function listActivities(db: DbOrTx, user: Scoped, query: ActivityListQuery) {
	const where = activityCondition(db, user, query)
	const total = (await sqlRows<{ n: number }>(db, sql`select count(*) as n from ${activities} where ${where}`))[0]?.n ?? 0
	const rows = (await activityRows(db, where, query.limit, (query.page - 1) * query.limit)).map(({ user_nome: _, ...a }) => a)
	return { activities: rows, pagination: pagination(query.page, query.limit, total) }
}

const TYPE_WORDS: Record<string, string> = { success: 'Sucesso', info: 'Info', warning: 'Aviso', error: 'Erro' }

const ACTIVITY_CSV_COLUMNS: CsvColumn<ActivityRow>[] = [
	['Data e hora', (a) => formatDateTime(a.time)],
	['Tipo', (a) => TYPE_WORDS[a.type] ?? a.type],
	['Atividade', (a) => a.title],
	['Detalhe', (a) => a.subtitle],
	['Usuário', (a) => a.user_nome]
]

/** GET /api/activities/export: the filtered history, newest first, as a pt-BR spreadsheet. */
export function exportActivities(db: DbOrTx, clock: Clock, user: Scoped, view: ActivityView): Response {
	const where = activityCondition(db, user, view)
	return csvColumnsResponse(csvFilename('atividades', todayIso(clock)), ACTIVITY_CSV_COLUMNS, (offset, limit) =>
		activityRows(db, where, limit, offset)
	)
}

function monthStart(iso: string) {
	return `${iso.slice(0, 7)}-01`
}
function addMonths(isoMonthStart: string, n: number) {
	const [y, m] = isoMonthStart.split('-').map(Number)
	const d = new Date(Date.UTC(y, m - 1 + n, 1))
	return d.toISOString().slice(0, 10)
}

// Sold: the pools' batches, less the purchases refunded or charged back (their money went back).
const SOLD = sql`${credits.origem} <> 'transferencia' and not exists (select 1 from ${creditPurchases}
	where ${creditPurchases.batch_id} = ${credits.id} and ${creditPurchases.status} = 'estornada')`
const SOLD_QTY = sql`coalesce(${credits.valor_original}, ${credits.valor})`
const SOLD_REVENUE = sql`${SOLD_QTY} * ${credits.valor_unitario_centavos}`

/**
 * GET /api/reports (2-administration §2.9, §3.12), from the ledger: credits sold = batches added to the
 * pools (by data_compra), revenue = Σ sold credits × their unit value, usage = transfers (by data_uso).
 */
export async function buildReport(db: DbOrTx, clock: Clock, query: ReportQuery): Promise<Report> {
	const today = todayIso(clock)
	const fim = query.fim ?? today
	const inicio = query.inicio ?? oneMonthBefore(fim)
	const dash = await dashboardStats(db, clock, { id: 0, cnpj: '', tipo: 'administrador' })
	const inRange = (column: SQLWrapper) => sql`${column} between ${inicio} and ${fim}`

	const sold = (
		await sqlRows<{ credits: number | null; revenue: number | null }>(
			db,
			sql`
		select sum(${SOLD_QTY}) as credits, sum(${SOLD_REVENUE}) as revenue
		from ${credits} where ${SOLD} and ${inRange(credits.data_compra)}`
		)
	)[0]
	const used =
		(
			await sqlRows<{ n: number | null }>(
				db,
				sql`select sum(${credits.valor}) as n from ${credits} where ${TRANSFER} and ${inRange(credits.data_uso)}`
			)
		)[0]?.n ?? 0

	const revenueBetween = async (from: string, to: string) =>
		(
			await sqlRows<{ n: number | null }>(
				db,
				sql`
			select sum(${SOLD_REVENUE}) as n from ${credits}
			where ${SOLD} and ${credits.data_compra} >= ${from} and ${credits.data_compra} < ${to}`
			)
		)[0]?.n ?? 0
	const thisMonth = monthStart(today)
	const revenueThisMonth = await revenueBetween(thisMonth, addMonths(thisMonth, 1))
	const revenueLastMonth = await revenueBetween(addMonths(thisMonth, -1), thisMonth)

	// s: each representative's sales in the period.
	const top = await sqlRows<{ nome: string; cnpj: string; empresas: number; creditos: number; receita: number }>(
		db,
		sql`
		select ${representatives.nome}, ${representatives.cnpj},
			(select count(*) from ${companies} where ${companies.cnpj_representante} = ${representatives.cnpj}) as empresas,
			s.creditos, s.receita
		from (select ${credits.representante_id} as representante_id, sum(${SOLD_QTY}) as creditos, sum(${SOLD_REVENUE}) as receita
			from ${credits} where ${SOLD} and ${inRange(credits.data_compra)} group by ${credits.representante_id}) s
		join ${representatives} on ${representatives.cnpj} = s.representante_id
		order by s.creditos desc, ${representatives.nome} limit 10`
	)

	const bySystem = new Map(
		(
			await sqlRows<{ sistema: string; empresas: number; creditos: number }>(
				db,
				sql`
				select ${credits.sistema}, count(distinct ${credits.fk_empresa}) as empresas, sum(${credits.valor}) as creditos from ${credits}
				where ${TRANSFER} and ${inRange(credits.data_uso)} group by ${credits.sistema}`
			)
		).map((r) => [r.sistema, r])
	)
	const transferred = [...bySystem.values()].reduce((s, r) => s + r.creditos, 0)
	const systemUsage = SYSTEMS.map((sistema) => {
		const r = bySystem.get(sistema)
		const creditos = r?.creditos ?? 0
		return {
			sistema,
			empresas: r?.empresas ?? 0,
			creditos,
			percentage: transferred === 0 ? 0 : Math.round((creditos / transferred) * 1000) / 10
		}
	})

	const months = new Map(
		(
			await sqlRows<{ month: string; credits: number; revenue: number }>(
				db,
				sql`
				select substr(${credits.data_compra}, 1, 7) as month, sum(${SOLD_QTY}) as credits, sum(${SOLD_REVENUE}) as revenue
				from ${credits} where ${SOLD} and ${inRange(credits.data_compra)} group by 1`
			)
		).map((r) => [r.month, r])
	)
	const monthlyRevenue: Report['monthlyRevenue'] = []
	for (let m = monthStart(inicio); m <= fim && monthlyRevenue.length < 120; m = addMonths(m, 1)) {
		const key = m.slice(0, 7)
		const r = months.get(key)
		monthlyRevenue.push({ month: key, credits: r?.credits ?? 0, revenue: toReais(r?.revenue ?? 0) })
	}

	return {
		tipo: query.tipo,
		inicio,
		fim,
		totalCompanies: dash.totalCompanies,
		activeCompanies: dash.activeCompanies,
		totalRepresentatives: dash.totalRepresentatives,
		totalCredits: sold?.credits ?? 0,
		usedCredits: used,
		revenueThisMonth: toReais(revenueThisMonth),
		revenueLastMonth: toReais(revenueLastMonth),
		revenueChange: revenueLastMonth === 0 ? null : Math.round(((revenueThisMonth - revenueLastMonth) / revenueLastMonth) * 1000) / 10,
		revenue: toReais(sold?.revenue ?? 0),
		topRepresentatives: top.map((t) => ({ ...t, receita: toReais(t.receita) })),
		systemUsage,
		monthlyRevenue
	}
}
