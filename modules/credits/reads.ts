import { listRead } from '../core'

/** The columns a representative's credit lists sort by (newest first). */
export const CREDIT_SORTS = ['id', 'valor', 'data_compra', 'data_uso'] as const

/** The columns the administrator's per-representative summary sorts by (most available first). */
export const SUMMARY_SORTS = ['disponivel', 'nome', 'cnpj', 'utilizado', 'total'] as const

/** A representative's batches ('pool', under lotes.) or transfers ('transfer', under transferencias.). */
function creditsRead(kind: 'pool' | 'transfer', prefix: string) {
	return listRead('GET /api/credits', { prefix, sorts: CREDIT_SORTS, order: 'desc' }, (view) => ({
		kind,
		page: view.page,
		limit: view.limit,
		search: '',
		sort: view.sort,
		order: view.order
	}))
}
export const poolRead = creditsRead('pool', 'lotes.')
export const transfersRead = creditsRead('transfer', 'transferencias.')

/** The administrador's and gerente's summary per representative. */
export const summaryRead = listRead('GET /api/credits/summary', { sorts: SUMMARY_SORTS, order: 'desc' }, (view) => ({
	page: view.page,
	limit: view.limit,
	search: view.search.trim(),
	sort: view.sort,
	order: view.order
}))
