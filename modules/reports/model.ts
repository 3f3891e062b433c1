import { perSystemKey } from '../companies/model'
import { contract, csvExportContract, dateField, pageFields, searchField, z, pagedList, figures } from '../core'
import { ACTIVITY_TYPES, REPORT_TYPES } from './reads'

export const RecentActivitiesQuery = z.object({
	limit: z.coerce
		.number({ error: 'limit deve ser um número.' })
		.int('limit deve ser inteiro.')
		.min(1, 'limit deve ser no mínimo 1.')
		.max(500, 'limit deve ser no máximo 500.')
		.default(10),
	search: z
		.string()
		.max(100, 'A busca aceita no máximo 100 caracteres.')
		.optional()
		.transform((v) => v?.trim() ?? ''),
	type: z
		.union([z.literal(''), z.literal('all'), z.enum(ACTIVITY_TYPES)], { error: 'Tipo inválido: use success, info, warning ou error.' })
		.optional()
		.transform((v) => (v === 'all' || !v ? null : v))
})
export type RecentActivitiesQuery = z.infer<typeof RecentActivitiesQuery>

/** The activity history's view: search, type and a period of days (Brazil time), newest first. */
export const ActivityView = z
	.object({
		search: searchField,
		type: z.enum(ACTIVITY_TYPES, { error: 'Tipo inválido: use success, info, warning ou error.' }).optional(),
		inicio: dateField.optional(),
		fim: dateField.optional()
	})
	.refine((q) => !q.inicio || !q.fim || q.inicio <= q.fim, { message: 'A data inicial deve ser anterior ou igual à final.' })
export type ActivityView = z.infer<typeof ActivityView>

export const ActivityListQuery = ActivityView.safeExtend(pageFields)
export type ActivityListQuery = z.infer<typeof ActivityListQuery>

export const ReportQuery = z
	.object({
		// The spec names the types in English (general, financial, usage); both spellings are accepted.
		tipo: z
			.preprocess(
				(v) =>
					typeof v === 'string' ? (({ general: 'geral', financial: 'financeiro', usage: 'uso' } as Record<string, string>)[v] ?? v) : v,
				z.enum(REPORT_TYPES, { error: 'Tipo de relatório inválido: use geral, financeiro ou uso.' })
			)
			.default('geral'),
		inicio: dateField.optional(),
		fim: dateField.optional()
	})
	.refine((q) => !q.inicio || !q.fim || q.inicio <= q.fim, { message: 'A data inicial deve ser anterior ou igual à final.' })
export type ReportQuery = z.infer<typeof ReportQuery>

const SystemStatus = figures('active', 'blocked')
export type SystemStatus = z.infer<typeof SystemStatus>

export const DashboardStats = figures(
	'totalCompanies',
	'activeCompanies',
	'availableCredits',
	'totalRepresentatives',
	'activeRepresentatives'
).extend({ systemsStatus: z.object(perSystemKey(() => SystemStatus)) })
export type DashboardStats = z.infer<typeof DashboardStats>

export const Activity = z.object({
	id: z.number(),
	type: z.enum(ACTIVITY_TYPES),
	title: z.string(),
	subtitle: z.string(),
	time: z.string(),
	icon: z.enum(['Building', 'Coins', 'Users', 'AlertTriangle', 'Terminal'])
})
export type Activity = z.infer<typeof Activity>

export const Report = z.object({
	tipo: z.enum(REPORT_TYPES),
	inicio: z.string(),
	fim: z.string(),
	totalCompanies: z.number(),
	activeCompanies: z.number(),
	totalRepresentatives: z.number(),
	/** Credits sold (added to pools) in the range. */
	totalCredits: z.number(),
	/** Credits transferred to companies in the range. */
	usedCredits: z.number(),
	/** Revenue (R$) of the credits sold this calendar month and the last. */
	revenueThisMonth: z.number(),
	revenueLastMonth: z.number(),
	/** Change of this month's revenue against last month's, in percent (null when last month was 0). */
	revenueChange: z.number().nullable(),
	/** Revenue (R$) of the credits sold in the range. */
	revenue: z.number(),
	topRepresentatives: z.array(
		z.object({ nome: z.string(), cnpj: z.string(), empresas: z.number(), creditos: z.number(), receita: z.number() })
	),
	systemUsage: z.array(z.object({ sistema: z.string(), empresas: z.number(), creditos: z.number(), percentage: z.number() })),
	monthlyRevenue: z.array(z.object({ month: z.string(), credits: z.number(), revenue: z.number() }))
})
export type Report = z.infer<typeof Report>

export const dashboardStatsRoute = contract({
	method: 'GET',
	path: '/api/dashboard/stats',
	response: DashboardStats,
	summary: 'Os números do painel, no escopo do usuário'
})
export const recentActivitiesRoute = contract({
	method: 'GET',
	path: '/api/activities/recent',
	query: RecentActivitiesQuery,
	response: z.array(Activity),
	summary: 'Atividades recentes do escopo do usuário, com busca e filtro de tipo'
})
export const listActivitiesRoute = contract({
	method: 'GET',
	path: '/api/activities',
	query: ActivityListQuery,
	response: pagedList('activities', Activity),
	summary: 'O histórico de atividades do escopo, paginado, com busca, tipo e período'
})
export const exportActivitiesRoute = csvExportContract(
	'/api/activities/export',
	ActivityView,
	'O histórico de atividades filtrado, em CSV para planilhas, transmitido aos poucos'
)
export const reportRoute = contract({
	method: 'GET',
	path: '/api/reports',
	query: ReportQuery,
	response: Report,
	summary: 'Relatório geral, financeiro ou de uso de um período'
})
