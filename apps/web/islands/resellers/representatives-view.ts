import type { RepresentativeListQuery } from '../../../../modules/resellers/model'
import type { ListRead } from '../../lib/first-reads'

/** The representatives list's read: the server searches and sorts, the browser pages (no stores: the server answers it into the page). */
export const representativesRead: ListRead<'GET /api/representatives'> = {
	route: 'GET /api/representatives',
	spec: { sorts: ['nome', 'cnpj', 'cidade', 'nempresas', 'data'] },
	query: (p) => ({ search: p.search.trim(), sort: p.sort as RepresentativeListQuery['sort'], order: p.order })
}
