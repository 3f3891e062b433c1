import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { representativeScope } from '../resellers'
import {
	cancelCarneRoute,
	carneParcelasRoute,
	createCarneRoute,
	downloadCarneRoute,
	historicoRoute,
	listCarnesRoute,
	pagamentosRoute,
	removeParcelaRoute,
	sendCarneRoute,
	sendParcelaRoute,
	syncCarnesRoute
} from './carnes-model'
import { cancelCarne, carneParcels, carnePdf, createCarne, listCarnes, removeParcel, sendCarne, sendParcel } from './carnes'
import { listHistorico, listPagamentos } from './history'
import { reconcileCarnes } from './sync'

/** /carnes, /pagamentos-parcelas and /historico-pagamentos: every role with its scope (billing.carnes). */
export function carnesRoutes(ctx: AppContext) {
	const can = 'billing.carnes' as const
	return new Elysia({ name: 'billing.carnes' })
		.use(authGuard(ctx))
		.route(listCarnesRoute.method, listCarnesRoute.path, ({ user, query }) => listCarnes(ctx, user, query), {
			...routeHooks(listCarnesRoute),
			can
		})
		.route(
			createCarneRoute.method,
			createCarneRoute.path,
			async ({ user, body, set }) => {
				const created = await createCarne(ctx, user, body)
				set.status = 201
				return created
			},
			{ ...routeHooks(createCarneRoute), can }
		)
		.route(pagamentosRoute.method, pagamentosRoute.path, ({ user, query }) => listPagamentos(ctx, user, query), {
			...routeHooks(pagamentosRoute),
			can
		})
		.route(removeParcelaRoute.method, removeParcelaRoute.path, ({ user, params }) => removeParcel(ctx, user, params.id), {
			...routeHooks(removeParcelaRoute),
			can
		})
		.route(sendParcelaRoute.method, sendParcelaRoute.path, ({ user, params, body }) => sendParcel(ctx, user, params.id, body.phone), {
			...routeHooks(sendParcelaRoute),
			can
		})
		.route(
			syncCarnesRoute.method,
			syncCarnesRoute.path,
			async ({ user }) => {
				// The button reads a smaller batch than the job: a person is waiting for the answer.
				const result = await reconcileCarnes(ctx, { scope: representativeScope(ctx.db, user), batch: 100 })
				return {
					...result,
					message:
						result.corrigidas > 0
							? `Sincronizado: ${result.corrigidas} parcela(s) atualizada(s) a partir do Asaas.`
							: `Sincronizado: ${result.verificadas} carnê(s) conferido(s), nada a corrigir.`
				}
			},
			{ ...routeHooks(syncCarnesRoute), can }
		)
		.route(carneParcelasRoute.method, carneParcelasRoute.path, ({ user, params }) => carneParcels(ctx, user, params.id), {
			...routeHooks(carneParcelasRoute),
			can
		})
		.route(cancelCarneRoute.method, cancelCarneRoute.path, ({ user, params }) => cancelCarne(ctx, user, params.id), {
			...routeHooks(cancelCarneRoute),
			can
		})
		.route(
			downloadCarneRoute.method,
			downloadCarneRoute.path,
			async ({ user, params }) => {
				const { bytes, fileName } = await carnePdf(ctx, user, params.id)
				return new Response(bytes as unknown as BodyInit, {
					headers: {
						'content-type': 'application/pdf',
						'content-disposition': `inline; filename="${fileName}"`,
						'cache-control': 'no-store',
						'x-content-type-options': 'nosniff'
					}
				})
			},
			{ ...routeHooks(downloadCarneRoute), can }
		)
		.route(sendCarneRoute.method, sendCarneRoute.path, ({ user, params, body }) => sendCarne(ctx, user, params.id, body.telefone), {
			...routeHooks(sendCarneRoute),
			can
		})
		.route(historicoRoute.method, historicoRoute.path, ({ user, query }) => listHistorico(ctx, user, query), {
			...routeHooks(historicoRoute),
			can
		})
}
