import { Elysia } from 'elysia'
import { authRoutes, userRoutes } from '../../modules/auth'
import type { AppContext } from '../../modules/core/server'
import { licensingRoutes } from '../../modules/licensing'
import { messagingRoutes } from '../../modules/messaging'
import { resellersRoutes } from '../../modules/resellers'
import { creditRoutes } from '../../modules/credits'
import { reportRoutes } from '../../modules/reports'
import { systemRoutes } from '../../modules/system'
import { errorHandler } from './plugins/errors'
import { type Site, pagesPlugin } from './plugins/pages'
import { requestGuards } from './plugins/security'

/** Builds the whole portal from its dependencies; tests build it on an in-memory database. */
export function createApp(ctx: AppContext, site: Site | null = null) {
	const app = new Elysia()
		.use(errorHandler(ctx.log))
		.use(
			requestGuards(ctx.config, {
				csrfExempt: ['/api/licenca/'],
				// A 5 MB image arrives as about 6.7 MB of base64.
				bodyLimits: { '/api/representantes/promo-image': 7 * 1024 * 1024 }
			})
		)
		.use(authRoutes(ctx))
		.use(systemRoutes(ctx))
		.use(messagingRoutes(ctx))
		.use(userRoutes(ctx))
		.use(resellersRoutes(ctx))
		.use(licensingRoutes(ctx))
		.use(creditRoutes(ctx))
		.use(reportRoutes(ctx))
		.use(pagesPlugin(ctx, site))
	assertEveryRouteDeclaresAccess(app)
	return app
}

export type App = ReturnType<typeof createApp>

/** Deny by default: a route that declares neither `roles` nor `publicRoute` stops the portal from starting. */
export function assertEveryRouteDeclaresAccess(app: Elysia<any, any, any, any, any, any, any>) {
	const open = app.routes.filter((route) => !(route.hooks as { detail?: Record<string, unknown> })?.detail?.['x-access'])
	if (open.length > 0) {
		throw new Error(`Rotas sem controle de acesso declarado: ${open.map((r) => `${r.method} ${r.path}`).join(', ')}`)
	}
}
