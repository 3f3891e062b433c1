import { CARNE_STATUSES, EVENT_TYPES } from '../../../../modules/billing/model'
import type { ListRead } from '../../lib/first-reads'
import { ISO_DATE, type ListParams } from '../../lib/list-state'

/** The instalment and history lists' reads (no stores: the server answers their first page into the page). */

export const PARCEL_STATUSES = [
	['', 'Todos os status'],
	['PENDING', 'Pendente'],
	['OVERDUE', 'Vencido'],
	['RECEIVED', 'Pago'],
	['CANCELED', 'Cancelado']
] as const

/** The company and period filters both lists share, kept in the address. */
const COMPANY_DATE_FILTERS = {
	empresa: { test: (v: string) => /^\d+$/.test(v) },
	dataInicio: { test: ISO_DATE },
	dataFim: { test: ISO_DATE }
}
const companyDateQuery = (p: ListParams) => ({
	empresa: p.filters.empresa || undefined,
	dataInicio: p.filters.dataInicio || undefined,
	dataFim: p.filters.dataFim || undefined
})

export const pagamentosRead: ListRead<'GET /api/carnes/pagamentos'> = {
	route: 'GET /api/carnes/pagamentos',
	spec: { filters: { status: { values: PARCEL_STATUSES.map(([v]) => v), default: '' }, ...COMPANY_DATE_FILTERS } },
	query: (p) => ({ page: p.page, limit: p.limit, status: p.filters.status || undefined, ...companyDateQuery(p) })
}

export const historicoRead: ListRead<'GET /api/historico-pagamentos'> = {
	route: 'GET /api/historico-pagamentos',
	spec: { filters: { tipo: { values: ['', ...EVENT_TYPES], default: '' }, ...COMPANY_DATE_FILTERS } },
	query: (p) => ({ page: p.page, limit: p.limit, search: p.search.trim(), tipo: p.filters.tipo || undefined, ...companyDateQuery(p) })
}

export const carnesRead: ListRead<'GET /api/carnes'> = {
	route: 'GET /api/carnes',
	spec: { filters: { status: { values: ['', ...CARNE_STATUSES], default: '' }, empresa: COMPANY_DATE_FILTERS.empresa } },
	query: (p) => ({
		page: p.page,
		limit: p.limit,
		search: p.search.trim() || undefined,
		status: p.filters.status || undefined,
		empresa: p.filters.empresa || undefined
	})
}
