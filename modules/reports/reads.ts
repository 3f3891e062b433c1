import { ISO_DATE, isoDateInSaoPaulo, listRead, oneMonthBefore } from '../core'

export const ACTIVITY_TYPES = ['success', 'info', 'warning', 'error'] as const

export const REPORT_TYPES = ['geral', 'financeiro', 'uso'] as const

/** The history's read: the API's pages, with search, type and a period of days in the address (answered into /activities). */
export const activitiesRead = listRead(
	'GET /api/activities',
	{ filters: { type: { values: ['', ...ACTIVITY_TYPES], default: '' }, inicio: { test: ISO_DATE }, fim: { test: ISO_DATE } } },
	(view) => ({
		page: view.page,
		limit: view.limit,
		search: view.search.trim(),
		type: view.filters.type || undefined,
		inicio: view.filters.inicio || undefined,
		fim: view.filters.fim || undefined
	})
)

/** The report the screen opens on: the general one of the last month, in São Paulo days (answered into /reports). */
export function openingReport(now: Date): { tipo: (typeof REPORT_TYPES)[number]; inicio: string; fim: string } {
	const today = isoDateInSaoPaulo(now)
	return { tipo: 'geral', inicio: oneMonthBefore(today), fim: today }
}
