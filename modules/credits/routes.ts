import { serve, serveRoutes } from '../auth'
import type { AppContext } from '../core/server'
import {
	addCreditsRoute,
	autoPurchaseAvailabilityRoute,
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
import { autoPurchaseAvailability } from './purchase-availability'
import { limitedPurchase } from './purchase-limits'
import { purchaseQrCode, purchaseStatus, startPurchase } from './purchases'
import { addCredits, creditSummary, exportCredits, exportSummary, listCredits, scopedAvailable, transferToCompany } from './service'

export function creditRoutes(ctx: AppContext) {
	return serveRoutes(ctx, 'credits.routes', ({ db, clock }) => [
		serve(availableCreditsRoute, 'credits.read', async ({ user, query }) => ({
			total: await scopedAvailable(db, user, query.representanteCnpj)
		})),
		serve(listCreditsRoute, 'credits.read', ({ user, query }) => listCredits(db, user, query)),
		serve(exportCreditsRoute, 'credits.read', ({ user, query }) => exportCredits(db, clock, user, query)),
		serve(creditSummaryRoute, 'credits.summary', ({ user, query }) => creditSummary(db, user, query)),
		serve(exportSummaryRoute, 'credits.summary', ({ user, query }) => exportSummary(db, clock, user, query)),
		serve(addCreditsRoute, 'credits.add', async ({ user, body }) => {
			const { batch, renovadas, disponivel } = await addCredits(db, clock, user, body)
			const added = `${body.amount} ${body.amount === 1 ? 'crédito adicionado' : 'créditos adicionados'} com sucesso.`
			return {
				message:
					renovadas > 0
						? `${added} ${renovadas === 1 ? 'Uma renovação de licença que aguardava créditos foi aplicada' : `${renovadas} renovações de licença que aguardavam créditos foram aplicadas`}.`
						: added,
				id: batch.id,
				representanteId: batch.representante_id,
				amount: batch.valor,
				unitValue: batch.valor_unitario_centavos / 100,
				disponivel
			}
		}),
		serve(transferRoute, 'credits.transfer', ({ user, body }) => transferToCompany(db, clock, user, body)),
		serve(autoPurchaseRoute, 'credits.purchase', ({ user, body }) =>
			limitedPurchase(ctx, user, body, (admit) => startPurchase(ctx, user, body, admit))
		),
		serve(autoPurchaseAvailabilityRoute, 'credits.purchase', () => autoPurchaseAvailability(ctx)),
		serve(paymentStatusRoute, 'credits.purchase', ({ user, params }) => purchaseStatus(db, user, params.chargeId)),
		serve(pixQrCodeRoute, 'credits.purchase', ({ user, params }) => purchaseQrCode(ctx, user, params.chargeId))
	])
}
