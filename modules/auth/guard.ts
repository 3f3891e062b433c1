import { type DocumentDecoration, Elysia } from 'elysia'
import { CAPABILITIES, type Capability, can } from '../core'
import { type AppConfig, type AppContext, forbidden, unauthorized } from '../core/server'
import type { SessionUser } from './model'
import { type SessionInfo, validateSession } from './service'

export function sessionCookieName(config: AppConfig): string {
	// The __Host- prefix pins the cookie to this host and path and requires Secure.
	return config.secureCookies ? '__Host-kportal_session' : 'kportal_session'
}

export const GUARD_MESSAGES = {
	unauthenticated: 'Sessão inválida ou expirada. Faça login novamente.',
	forbidden: 'Acesso negado: seu perfil não permite esta ação.'
}

/** Who may call a route, recorded in its API-document detail where createApp, the tests and /api/docs read it. */
function accessDetail(access: 'public' | Capability): DocumentDecoration {
	const detail: Record<string, unknown> = { 'x-access': access }
	if (access === 'public') detail.security = []
	else detail['x-roles'] = CAPABILITIES[access]
	return detail as DocumentDecoration
}

/**
 * The one role guard. Every API route declares either `can` (the capability it needs, core/access.ts) or
 * `publicRoute`; createApp refuses to start when a route declares neither, so nothing is open by omission.
 */
export function authGuard(ctx: AppContext) {
	const cookieName = sessionCookieName(ctx.config)
	const signedIn = new WeakMap<Request, { user: SessionUser; session: SessionInfo }>()
	return new Elysia({ name: 'auth.guard' }).macro({
		publicRoute(_: true) {
			return { detail: accessDetail('public') }
		},
		can(capability: Capability) {
			return {
				detail: accessDetail(capability),
				// transform runs before body validation, so a caller without the capability learns nothing about the route.
				async transform({ cookie, request }) {
					const token = cookie[cookieName]?.value
					const found = await validateSession(ctx.db, ctx.clock, typeof token === 'string' ? token : null)
					if (!found) throw unauthorized(GUARD_MESSAGES.unauthenticated)
					if (!can(found.user.tipo, capability)) throw forbidden(GUARD_MESSAGES.forbidden)
					signedIn.set(request, found)
				},
				resolve({ request }) {
					const found = signedIn.get(request)
					if (!found) throw unauthorized(GUARD_MESSAGES.unauthenticated)
					return { user: found.user, session: found.session }
				}
			}
		}
	})
}
