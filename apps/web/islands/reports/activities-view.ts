import type { ActivityView } from '../../../../modules/reports/model'
import type { ListRead } from '../../lib/first-reads'
import { ISO_DATE } from '../../lib/list-state'

export const ACTIVITY_TYPES = ['success', 'info', 'warning', 'error'] as const

/** The history's read: the API's pages, with search, type and a period of days in the address (no stores: the server answers it into the page). */
export const activitiesRead: ListRead<'GET /api/activities'> = {
	route: 'GET /api/activities',
	spec: { filters: { type: { values: ['', ...ACTIVITY_TYPES], default: '' }, inicio: { test: ISO_DATE }, fim: { test: ISO_DATE } } },
	query: (p) => ({
		page: p.page,
		limit: p.limit,
		search: p.search.trim(),
		type: (p.filters.type || undefined) as ActivityView['type'],
		inicio: p.filters.inicio || undefined,
		fim: p.filters.fim || undefined
	})
}
