import { listRead } from '../core'

/** The columns the users list sorts by, in SQL, the default first (UserListQuery takes them from here). */
export const USER_SORTS = ['nome', 'cnpj', 'tipo', 'email', 'created_at'] as const

/** The users list's read: the server sorts, the browser searches and pages (the server answers it into /users). */
export const usersRead = listRead('GET /api/users', { sorts: USER_SORTS }, (view) => ({ sort: view.sort, order: view.order }))
