import { Elysia } from 'elysia'
import { routeHooks } from '../core'
import { type AppContext, clientIp } from '../core/server'
import { authGuard, sessionCookieName } from './guard'
import { loginRoute, logoutRoute, meRoute, refusalsRoute, renewRoute } from './model'
import type { RefusalLog } from './refusals'
import { invalidateSession, login, validateSession } from './service'
import type { LoginThrottle } from './throttle'

/**
 * Sign-in and sessions; `throttle` is the app's one login throttle, shared with Alterar Senha, and `refusals` the
 * app's record of refused authorisations, which administradores read here.
 */
export function authRoutes(ctx: AppContext, throttle: LoginThrottle, refusals: RefusalLog) {
	const cookieName = sessionCookieName(ctx.config)
	const cookieOptions = {
		httpOnly: true,
		secure: ctx.config.secureCookies,
		sameSite: 'lax' as const,
		path: '/',
		maxAge: ctx.config.sessionMaxHours * 3600
	}

	return new Elysia({ name: 'auth.routes' })
		.use(authGuard(ctx))
		.route(
			loginRoute.method,
			loginRoute.path,
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
			{ ...routeHooks(loginRoute), publicRoute: true }
		)
		.route(
			logoutRoute.method,
			logoutRoute.path,
			({ cookie }) => {
				const token = cookie[cookieName]?.value
				invalidateSession(ctx.db, typeof token === 'string' ? token : null)
				cookie[cookieName].set({ value: '', ...cookieOptions, maxAge: 0 })
				return { message: 'Logout realizado com sucesso.' }
			},
			{ ...routeHooks(logoutRoute), publicRoute: true }
		)
		.route(meRoute.method, meRoute.path, ({ user, session }) => ({ user, session: { expiresAt: session.expiresAt } }), {
			...routeHooks(meRoute),
			can: 'session'
		})
		.route(
			renewRoute.method,
			renewRoute.path,
			({ cookie }) => {
				const token = cookie[cookieName]?.value
				const renewed = validateSession(ctx.db, ctx.clock, typeof token === 'string' ? token : null, { renew: true })
				return { session: { expiresAt: renewed?.session.expiresAt ?? null } }
			},
			{ ...routeHooks(renewRoute), can: 'session' }
		)
		.route(refusalsRoute.method, refusalsRoute.path, () => ({ refusals: refusals.list() }), {
			...routeHooks(refusalsRoute),
			can: 'system.manage'
		})
}
