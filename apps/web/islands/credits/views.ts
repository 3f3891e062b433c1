import type { CreditView, SummaryView } from '../../../../modules/credits/model'
import type { ListRead } from '../../lib/first-reads'

/** A representative's batches ('pool', under lotes.) or transfers ('transfer', under transferencias.). */
export function creditsRead(kind: 'pool' | 'transfer', prefix: string): ListRead<'GET /api/credits'> {
	return {
		route: 'GET /api/credits',
		spec: { prefix, sorts: ['id', 'valor', 'data_compra', 'data_uso'], order: 'desc' },
		query: (p) => ({ kind, page: p.page, limit: p.limit, search: '', sort: p.sort as CreditView['sort'], order: p.order })
	}
}
export const poolRead = creditsRead('pool', 'lotes.')
export const transfersRead = creditsRead('transfer', 'transferencias.')

/** The administrador's and gerente's summary per representative. */
export const summaryRead: ListRead<'GET /api/credits/summary'> = {
	route: 'GET /api/credits/summary',
	spec: { sorts: ['disponivel', 'nome', 'cnpj', 'utilizado', 'total'], order: 'desc' },
	query: (p) => ({ page: p.page, limit: p.limit, search: p.search.trim(), sort: p.sort as SummaryView['sort'], order: p.order })
}
