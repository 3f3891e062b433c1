import { listRead } from '../core'

/** The columns the representatives list sorts by, in SQL (the company count as a subquery). */
export const REPRESENTATIVE_SORTS = ['nome', 'cnpj', 'cidade', 'nempresas', 'data'] as const

/** The representatives list's read: the server searches and sorts, the browser pages (answered into /representatives). */
export const representativesRead = listRead('GET /api/representatives', { sorts: REPRESENTATIVE_SORTS }, (view) => ({
	search: view.search.trim(),
	sort: view.sort,
	order: view.order
}))
