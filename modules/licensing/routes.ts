import { serve, serveRoutes } from '../auth'
import { type AppContext, clientIp } from '../core/server'
import { checkLicenceRoute, publicKeyRoute } from './model'
import type { LicenceService } from './service'

/** The licence-check API the five desktop systems call: no cookie, no Origin, its own rate limits. */
export function licensingRoutes(ctx: AppContext, licence: LicenceService) {
	return serveRoutes(ctx, 'licensing.routes', () => [
		serve(checkLicenceRoute, 'public', async ({ body, request, server }) => {
			// The address is read only for a wrong key, after the check: a client that hung up by then gets no
			// answer to learn from, and its failure is counted under "unknown".
			const json = await licence.check(body, () => clientIp(request, server, ctx.config.trustProxy))
			// The answer is already JSON text (from a worker thread): sent as it is, not parsed and validated again.
			return new Response(json, { headers: { 'content-type': 'application/json; charset=utf-8' } })
		}),
		serve(publicKeyRoute, 'public', () => licence.publicKey)
	])
}
