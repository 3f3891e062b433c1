import { type LoginThrottle, serve, serveRoutes } from '../auth'
import { type AppContext, clientIp } from '../core/server'
import {
	changePasswordRoute,
	createUserRoute,
	deleteUserRoute,
	exportUsersRoute,
	listUsersRoute,
	ownAccountRoute,
	updateProfileRoute,
	updateUserRoute
} from './model'
import {
	changeOwnPassword,
	createUserAccount,
	deleteUserAccount,
	exportUsers,
	listUsers,
	ownAccount,
	updateOwnProfile,
	updateUserAccount
} from './service'

/** User administration (2-administration §2.5, §5.5) and the signed-in user's own profile and password. */
export function userRoutes(ctx: AppContext, throttle: LoginThrottle) {
	return serveRoutes(ctx, 'users.routes', ({ db, clock }) => [
		serve(listUsersRoute, 'users.manage', ({ query }) => listUsers(db, query)),
		serve(exportUsersRoute, 'users.manage', ({ query }) => exportUsers(db, clock, query)),
		serve(createUserRoute, 'users.manage', ({ body, user }) => createUserAccount(db, clock, user, body)),
		serve(ownAccountRoute, 'session', ({ user }) => ownAccount(db, user)),
		serve(updateProfileRoute, 'session', ({ body, user }) => updateOwnProfile(db, clock, user, body)),
		serve(changePasswordRoute, 'session', async ({ body, user, session, request, server }) => {
			const ip = clientIp(request, server, ctx.config.trustProxy)
			await changeOwnPassword({ db, clock, throttle }, { user, sessionId: session.id, ip }, body)
			return { message: 'Senha alterada com sucesso!' }
		}),
		serve(updateUserRoute, 'users.manage', ({ params, body, user, session }) =>
			updateUserAccount(db, clock, user, session.id, params.id, body)
		),
		serve(deleteUserRoute, 'users.manage', ({ params, user }) => deleteUserAccount(db, clock, user, params.id))
	])
}
