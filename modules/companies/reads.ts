import { listRead } from '../core'

/** The columns the companies list sorts by, in SQL with an index each (razão social first). */
export const COMPANY_SORTS = ['razao', 'cnpj', 'validade_licenca', 'validade_certificado', 'terminal_count'] as const

/** The status filter of 1-core §2.8, the default first (the API also takes expiring_soon and no-license). */
export const COMPANY_STATUS_FILTERS = ['todas', 'ativas', 'bloqueadas', 'expiradas', 'expiring_soon', 'no-license'] as const
/** The notice filter of 1-core §2.8, the default first. */
export const COMPANY_NOTICE_FILTERS = ['todas', 'com', 'sem'] as const

/** The companies list's read: its view in the address and the API query of a view (answered into /companies). */
export const companiesRead = listRead(
	'GET /api/companies',
	{
		sorts: COMPANY_SORTS,
		filters: {
			status: { values: COMPANY_STATUS_FILTERS, default: 'todas' },
			avisos: { values: COMPANY_NOTICE_FILTERS, default: 'todas' }
		}
	},
	(view) => ({
		page: view.page,
		limit: view.limit,
		search: view.search.trim(),
		status: view.filters.status,
		avisos: view.filters.avisos,
		sort: view.sort,
		order: view.order
	})
)
