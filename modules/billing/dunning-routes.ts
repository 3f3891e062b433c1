import { type Endpoint, serve } from '../auth'
import type { AppContext } from '../core/server'
import { getDunningRoute, runDunningRoute, saveDunningRoute } from './dunning-model'
import { getDunning, runDunningNow, saveDunning } from './dunning'

/** /api/regua-cobranca: a representante's own schedule, or any one an administrador names; 'Executar agora'. */
export function dunningRoutes(ctx: AppContext): Endpoint[] {
	return [
		serve(getDunningRoute, 'billing.dunning', ({ user, query }) => getDunning(ctx, user, query)),
		serve(saveDunningRoute, 'billing.dunning', ({ user, query, body }) => saveDunning(ctx, user, query, body)),
		serve(runDunningRoute, 'billing.dunningAll', () => runDunningNow(ctx))
	]
}
