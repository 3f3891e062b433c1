import { serve, serveRoutes } from './serve'
import { type AppContext, clientIp } from '../core/server'
import { sessionCookieName } from './guard'
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

	return serveRoutes(ctx, 'auth.routes', () => [
		serve(loginRoute, 'public', async ({ body, request, server, cookie }) => {
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
		}),
		serve(logoutRoute, 'public', async ({ cookie }) => {
			const token = cookie[cookieName]?.value
			await invalidateSession(ctx.db, typeof token === 'string' ? token : null)
			cookie[cookieName].set({ value: '', ...cookieOptions, maxAge: 0 })
			return { message: 'Logout realizado com sucesso.' }
		}),
		serve(meRoute, 'session', ({ user, session }) => ({ user, session: { expiresAt: session.expiresAt } })),
		serve(renewRoute, 'session', async ({ cookie }) => {
			const token = cookie[cookieName]?.value
			const renewed = await validateSession(ctx.db, ctx.clock, typeof token === 'string' ? token : null, { renew: true })
			return { session: { expiresAt: renewed?.session.expiresAt ?? null } }
		}),
		serve(refusalsRoute, 'system.manage', async () => ({ refusals: await refusals.list() }))
	])
}
