import { listRead } from '../core'

/** The columns the terminals list sorts by (the company's razão social first), each in SQL on an index. */
export const TERMINAL_SORTS = ['empresa', 'nome_computador', 'mac', 'data'] as const

/** The terminals list's read (the server answers its first page into /terminals). */
export const terminalsRead = listRead('GET /api/terminals', { sorts: TERMINAL_SORTS }, (view) => ({
	page: view.page,
	limit: view.limit,
	search: view.search.trim(),
	sort: view.sort,
	order: view.order
}))
