import { ISO_DATE, type ListParams, listRead } from '../core'
import { CARNE_STATUSES, EVENT_TYPES } from './labels'

/** The parcel states the instalments screen filters by. */
export const PARCEL_STATUS_FILTERS = ['PENDING', 'OVERDUE', 'RECEIVED', 'CANCELED'] as const

/** The company and period filters both lists share, kept in the address. */
const COMPANY_DATE_FILTERS = {
	empresa: { test: (v: string) => /^\d+$/.test(v) },
	dataInicio: { test: ISO_DATE },
	dataFim: { test: ISO_DATE }
}
const companyDateQuery = (view: ListParams) => ({
	empresa: view.filters.empresa || undefined,
	dataInicio: view.filters.dataInicio || undefined,
	dataFim: view.filters.dataFim || undefined
})

/** The instalments' list (the server answers its first page into /pagamentos-parcelas). */
export const pagamentosRead = listRead(
	'GET /api/carnes/pagamentos',
	{ filters: { status: { values: ['', ...PARCEL_STATUS_FILTERS], default: '' }, ...COMPANY_DATE_FILTERS } },
	(view) => ({ page: view.page, limit: view.limit, status: view.filters.status || undefined, ...companyDateQuery(view) })
)

/** The payment history's list (answered into /historico-pagamentos). */
export const historicoRead = listRead(
	'GET /api/historico-pagamentos',
	{ filters: { tipo: { values: ['', ...EVENT_TYPES], default: '' }, ...COMPANY_DATE_FILTERS } },
	(view) => ({
		page: view.page,
		limit: view.limit,
		search: view.search.trim(),
		tipo: view.filters.tipo || undefined,
		...companyDateQuery(view)
	})
)

/** The carnês' list (the server answers its first page into /carnes). */
export const carnesRead = listRead(
	'GET /api/carnes',
	{ filters: { status: { values: ['', ...CARNE_STATUSES], default: '' }, empresa: COMPANY_DATE_FILTERS.empresa } },
	(view) => ({
		page: view.page,
		limit: view.limit,
		search: view.search.trim() || undefined,
		status: view.filters.status || undefined,
		empresa: view.filters.empresa || undefined
	})
)
