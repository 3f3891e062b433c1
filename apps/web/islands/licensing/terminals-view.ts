import type { TerminalView } from '../../../../modules/terminals/model'
import type { ListRead } from '../../lib/first-reads'

/** The terminals list's read (no stores: the server answers its first page into the page). */
export const terminalsRead: ListRead<'GET /api/terminals'> = {
	route: 'GET /api/terminals',
	spec: { sorts: ['empresa', 'nome_computador', 'mac', 'data'] },
	query: (p) => ({ page: p.page, limit: p.limit, search: p.search.trim(), sort: p.sort as TerminalView['sort'], order: p.order })
}
