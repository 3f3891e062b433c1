import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import {
	addCreditsRoute,
	autoPurchaseRoute,
	availableCreditsRoute,
	creditSummaryRoute,
	exportCreditsRoute,
	exportSummaryRoute,
	listCreditsRoute,
	paymentStatusRoute,
	pixQrCodeRoute,
	transferRoute
} from './model'
import { purchaseQrCode, purchaseStatus, startPurchase } from './purchases'
import { addCredits, creditSummary, exportCredits, exportSummary, listCredits, scopedAvailable, transferToCompany } from './service'

export function creditRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	return new Elysia({ name: 'credits.routes' })
		.use(authGuard(ctx))
		.route(
			availableCreditsRoute.method,
			availableCreditsRoute.path,
			({ user, query }) => ({ total: scopedAvailable(db, user, query.representanteCnpj) }),
			{ ...routeHooks(availableCreditsRoute), can: 'credits.read' }
		)
		.route(listCreditsRoute.method, listCreditsRoute.path, ({ user, query }) => listCredits(db, user, query), {
			...routeHooks(listCreditsRoute),
			can: 'credits.read'
		})
		.route(exportCreditsRoute.method, exportCreditsRoute.path, ({ user, query }) => exportCredits(db, clock, user, query), {
			...routeHooks(exportCreditsRoute),
			can: 'credits.read'
		})
		.route(creditSummaryRoute.method, creditSummaryRoute.path, ({ user, query }) => creditSummary(db, user, query), {
			...routeHooks(creditSummaryRoute),
			can: 'credits.summary'
		})
		.route(exportSummaryRoute.method, exportSummaryRoute.path, ({ user, query }) => exportSummary(db, clock, user, query), {
			...routeHooks(exportSummaryRoute),
			can: 'credits.summary'
		})
		.route(
			addCreditsRoute.method,
			addCreditsRoute.path,
			({ user, body, status }) => {
				const { batch, disponivel } = addCredits(db, clock, user, body)
				return status(201, {
					message: `${body.amount} ${body.amount === 1 ? 'crédito adicionado' : 'créditos adicionados'} com sucesso.`,
					id: batch.id,
					representanteId: batch.representante_id,
					amount: batch.valor,
					unitValue: batch.valor_unitario_centavos / 100,
					disponivel
				})
			},
			{ ...routeHooks(addCreditsRoute), can: 'credits.add' }
		)
		.route(transferRoute.method, transferRoute.path, ({ user, body }) => transferToCompany(db, clock, user, body), {
			...routeHooks(transferRoute),
			can: 'credits.transfer'
		})
		.route(
			autoPurchaseRoute.method,
			autoPurchaseRoute.path,
			async ({ user, body, status }) => status(201, await startPurchase(ctx, user, body)),
			{
				...routeHooks(autoPurchaseRoute),
				can: 'credits.purchase'
			}
		)
		.route(paymentStatusRoute.method, paymentStatusRoute.path, ({ user, params }) => purchaseStatus(db, user, params.chargeId), {
			...routeHooks(paymentStatusRoute),
			can: 'credits.purchase'
		})
		.route(pixQrCodeRoute.method, pixQrCodeRoute.path, ({ user, params }) => purchaseQrCode(ctx, user, params.chargeId), {
			...routeHooks(pixQrCodeRoute),
			can: 'credits.purchase'
		})
}
