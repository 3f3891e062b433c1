import type { UserListQuery } from '../../../../modules/users/model'
import type { ListRead } from '../../lib/first-reads'

/** The users list's read: the server sorts, the browser searches and pages (no stores: the server answers it into the page). */
export const usersRead: ListRead<'GET /api/users'> = {
	route: 'GET /api/users',
	spec: { sorts: ['nome', 'cnpj', 'tipo', 'email', 'created_at'] },
	query: (p) => ({ sort: p.sort as UserListQuery['sort'], order: p.order })
}
