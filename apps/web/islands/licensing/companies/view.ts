import type { CompanyFilter } from '../../../../../modules/companies/model'
import type { ListRead } from '../../../lib/first-reads'

/** The status and notice filters of 1-core §2.8 (the API also takes expiring_soon and no-license). */
export const STATUS_OPTIONS = [
	['todas', 'Todas'],
	['ativas', 'Ativas'],
	['bloqueadas', 'Bloqueadas'],
	['expiradas', 'Expiradas']
] as const
export const NOTICE_OPTIONS = [
	['todas', 'Todas'],
	['com', 'Com Avisos Ativados'],
	['sem', 'Sem Avisos']
] as const

type Status = CompanyFilter['status']
type Notices = CompanyFilter['avisos']

/** The companies list's read: its view in the address and the API query of a view (no stores: the server uses it too). */
export const companiesRead: ListRead<'GET /api/companies'> = {
	route: 'GET /api/companies',
	spec: {
		sorts: ['razao', 'cnpj', 'validade_licenca', 'validade_certificado', 'terminal_count'],
		filters: {
			status: { values: ['todas', 'ativas', 'bloqueadas', 'expiradas', 'expiring_soon', 'no-license'], default: 'todas' },
			avisos: { values: NOTICE_OPTIONS.map(([v]) => v), default: 'todas' }
		}
	},
	query: (p) => ({
		page: p.page,
		limit: p.limit,
		search: p.search.trim(),
		status: p.filters.status as Status,
		avisos: p.filters.avisos as Notices,
		sort: p.sort as 'razao',
		order: p.order
	})
}
