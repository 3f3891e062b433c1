import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import { type AppContext, clientIp } from '../core/server'
import { checkLicenceRoute, publicKeyRoute } from './model'
import type { LicenceService } from './service'

/** The licence-check API the five desktop systems call: no cookie, no Origin, its own rate limits. */
export function licensingRoutes(ctx: AppContext, licence: LicenceService) {
	return new Elysia({ name: 'licensing.routes' })
		.use(authGuard(ctx))
		.route(
			checkLicenceRoute.method,
			checkLicenceRoute.path,
			async ({ body, request, server }) => {
				// The address is read only for a wrong key, after the check: a client that hung up by then gets no
				// answer to learn from, and its failure is counted under "unknown".
				const json = await licence.check(body, () => clientIp(request, server, ctx.config.trustProxy))
				// The answer is already JSON text (from a worker thread): sent as it is, not parsed and validated again.
				return new Response(json, { headers: { 'content-type': 'application/json; charset=utf-8' } })
			},
			{ ...routeHooks(checkLicenceRoute), publicRoute: true }
		)
		.route(publicKeyRoute.method, publicKeyRoute.path, () => licence.publicKey, {
			...routeHooks(publicKeyRoute),
			publicRoute: true
		})
}
