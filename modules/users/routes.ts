import { Elysia } from 'elysia'
import { type LoginThrottle, authGuard } from '../auth'
import { routeHooks } from '../core'
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
	const { db, clock } = ctx
	return new Elysia({ name: 'users.routes' })
		.use(authGuard(ctx))
		.route(listUsersRoute.method, listUsersRoute.path, ({ query }) => listUsers(db, query), {
			...routeHooks(listUsersRoute),
			can: 'users.manage'
		})
		.route(exportUsersRoute.method, exportUsersRoute.path, ({ query }) => exportUsers(db, clock, query), {
			...routeHooks(exportUsersRoute),
			can: 'users.manage'
		})
		.route(
			createUserRoute.method,
			createUserRoute.path,
			async ({ body, user, status }) => status(201, await createUserAccount(db, clock, user, body)),
			{ ...routeHooks(createUserRoute), can: 'users.manage' }
		)
		.route(ownAccountRoute.method, ownAccountRoute.path, ({ user }) => ownAccount(db, user), {
			...routeHooks(ownAccountRoute),
			can: 'session'
		})
		.route(updateProfileRoute.method, updateProfileRoute.path, ({ body, user }) => updateOwnProfile(db, clock, user, body), {
			...routeHooks(updateProfileRoute),
			can: 'session'
		})
		.route(
			changePasswordRoute.method,
			changePasswordRoute.path,
			async ({ body, user, session, request, server }) => {
				const ip = clientIp(request, server, ctx.config.trustProxy)
				await changeOwnPassword({ db, clock, throttle }, { user, sessionId: session.id, ip }, body)
				return { message: 'Senha alterada com sucesso!' }
			},
			{ ...routeHooks(changePasswordRoute), can: 'session' }
		)
		.route(
			updateUserRoute.method,
			updateUserRoute.path,
			({ params, body, user, session }) => updateUserAccount(db, clock, user, session.id, params.id, body),
			{ ...routeHooks(updateUserRoute), can: 'users.manage' }
		)
		.route(
			deleteUserRoute.method,
			deleteUserRoute.path,
			({ params, user }) => {
				deleteUserAccount(db, clock, user, params.id)
				return { message: 'Usuário excluído com sucesso.' }
			},
			{ ...routeHooks(deleteUserRoute), can: 'users.manage' }
		)
}
