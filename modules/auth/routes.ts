import { Elysia } from 'elysia'
import { IdParams } from '../core'
import { type AppContext, clientIp } from '../core/server'
import { authGuard, sessionCookieName } from './guard'
import { ChangePasswordBody, LoginBody, ProfileUpdate, UserCreate, UserListQuery, UserUpdate } from './model'
import { invalidateSession, login, validateSession } from './service'
import { LoginThrottle } from './throttle'
import { changeOwnPassword, createUserAccount, deleteUserAccount, listUsers, ownAccount, updateOwnProfile, updateUserAccount } from './users'

export function authRoutes(ctx: AppContext) {
	const throttle = new LoginThrottle(ctx.clock)
	const cookieName = sessionCookieName(ctx.config)
	const cookieOptions = {
		httpOnly: true,
		secure: ctx.config.secureCookies,
		sameSite: 'lax' as const,
		path: '/',
		maxAge: ctx.config.sessionMaxHours * 3600
	}

	return new Elysia({ name: 'auth.routes', prefix: '/api/auth' })
		.use(authGuard(ctx))
		.post(
			'/login',
			async ({ body, request, server, cookie }) => {
				const ip = clientIp(request, server, ctx.config.trustProxy)
				try {
					const result = await login(
						{ ...ctx, throttle },
						{ cnpj: body.cnpj, senha: body.senha, ip, userAgent: request.headers.get('user-agent') }
					)
					ctx.log('login', { outcome: 'success', cnpj: body.cnpj, ip, userId: result.user.id })
					cookie[cookieName].set({ value: result.token, ...cookieOptions })
					return { user: result.user, session: { expiresAt: result.session.expiresAt } }
				} catch (error) {
					ctx.log('login', { outcome: 'failure', cnpj: body.cnpj, ip, reason: (error as { code?: string }).code })
					throw error
				}
			},
			{ publicRoute: true, body: LoginBody }
		)
		.post(
			'/logout',
			({ cookie }) => {
				const token = cookie[cookieName]?.value
				invalidateSession(ctx.db, typeof token === 'string' ? token : null)
				cookie[cookieName].set({ value: '', ...cookieOptions, maxAge: 0 })
				return { message: 'Logout realizado com sucesso.' }
			},
			{ publicRoute: true }
		)
		.get('/me', ({ user, session }) => ({ user, session: { expiresAt: session.expiresAt } }), { roles: 'any' })
		.post(
			'/renew',
			({ cookie }) => {
				const token = cookie[cookieName]?.value
				const renewed = validateSession(ctx.db, ctx.clock, typeof token === 'string' ? token : null, { renew: true })
				return { session: { expiresAt: renewed?.session.expiresAt ?? null } }
			},
			{ roles: 'any' }
		)
}

/** User administration (2-administration §2.5, §5.5) and the signed-in user's own profile and password. */
export function userRoutes(ctx: AppContext) {
	return new Elysia({ name: 'auth.users', prefix: '/api' })
		.use(authGuard(ctx))
		.get('/users', ({ query }) => listUsers(ctx.db, query.search), { roles: ['administrador'], query: UserListQuery })
		.post(
			'/users',
			async ({ body, user, set }) => {
				const created = await createUserAccount(ctx.db, ctx.clock, user, body)
				set.status = 201
				return created
			},
			{ roles: ['administrador'], body: UserCreate }
		)
		.get('/users/me', ({ user }) => ownAccount(ctx.db, user), { roles: 'any' })
		.put('/users/me', ({ body, user }) => updateOwnProfile(ctx.db, ctx.clock, user, body), { roles: 'any', body: ProfileUpdate })
		.post(
			'/users/change-password',
			async ({ body, user, session }) => {
				await changeOwnPassword(ctx.db, ctx.clock, user, session.id, body)
				return { message: 'Senha alterada com sucesso!' }
			},
			{ roles: 'any', body: ChangePasswordBody }
		)
		.put('/users/:id', ({ params, body, user, session }) => updateUserAccount(ctx.db, ctx.clock, user, session.id, params.id, body), {
			roles: ['administrador'],
			params: IdParams,
			body: UserUpdate
		})
		.delete(
			'/users/:id',
			({ params, user }) => {
				deleteUserAccount(ctx.db, ctx.clock, user, params.id)
				return { message: 'Usuário excluído com sucesso.' }
			},
			{ roles: ['administrador'], params: IdParams }
		)
}
