import { dateField, z } from '../core'

export const ACTIVITY_TYPES = ['success', 'info', 'warning', 'error'] as const

export const RecentActivitiesQuery = z.object({
	limit: z.coerce.number({ error: 'limit deve ser um número.' }).int('limit deve ser inteiro.').min(1, 'limit deve ser no mínimo 1.').max(500, 'limit deve ser no máximo 500.').default(10),
	search: z.string().max(100, 'A busca aceita no máximo 100 caracteres.').optional().transform((v) => v?.trim() ?? ''),
	type: z
		.union([z.literal(''), z.literal('all'), z.enum(ACTIVITY_TYPES)], { error: 'Tipo inválido: use success, info, warning ou error.' })
		.optional()
		.transform((v) => (v === 'all' || !v ? null : v))
})
export type RecentActivitiesQuery = z.infer<typeof RecentActivitiesQuery>

export const REPORT_TYPES = ['geral', 'financeiro', 'uso'] as const

export const ReportQuery = z
	.object({
		// The spec names the types in English (general, financial, usage); both spellings are accepted.
		tipo: z
			.preprocess(
				(v) => (typeof v === 'string' ? ({ general: 'geral', financial: 'financeiro', usage: 'uso' } as Record<string, string>)[v] ?? v : v),
				z.enum(REPORT_TYPES, { error: 'Tipo de relatório inválido: use geral, financeiro ou uso.' })
			)
			.default('geral'),
		inicio: dateField.optional(),
		fim: dateField.optional()
	})
	.refine((q) => !q.inicio || !q.fim || q.inicio <= q.fim, { message: 'A data inicial deve ser anterior ou igual à final.' })
export type ReportQuery = z.infer<typeof ReportQuery>

export interface SystemStatus {
	active: number
	blocked: number
}

export interface DashboardStats {
	totalCompanies: number
	activeCompanies: number
	availableCredits: number
	totalRepresentatives: number
	activeRepresentatives: number
	systemsStatus: { kreta: SystemStatus; kpdv: SystemStatus; kchef: SystemStatus; katelie: SystemStatus; kprevenda: SystemStatus }
}

export interface Activity {
	id: number
	type: (typeof ACTIVITY_TYPES)[number]
	title: string
	subtitle: string
	time: string
	icon: 'Building' | 'Coins' | 'Users' | 'AlertTriangle' | 'Terminal'
}

export interface Report {
	tipo: (typeof REPORT_TYPES)[number]
	inicio: string
	fim: string
	totalCompanies: number
	activeCompanies: number
	totalRepresentatives: number
	/** Credits sold (added to pools) in the range. */
	totalCredits: number
	/** Credits transferred to companies in the range. */
	usedCredits: number
	/** Revenue (R$) of the credits sold this calendar month and the last. */
	revenueThisMonth: number
	revenueLastMonth: number
	/** Change of this month's revenue against last month's, in percent (null when last month was 0). */
	revenueChange: number | null
	/** Revenue (R$) of the credits sold in the range. */
	revenue: number
	topRepresentatives: { nome: string; cnpj: string; empresas: number; creditos: number; receita: number }[]
	systemUsage: { sistema: string; empresas: number; creditos: number; percentage: number }[]
	monthlyRevenue: { month: string; credits: number; revenue: number }[]
}
