import { serve, serveRoutes } from '../auth'
import { type AppContext, notFound } from '../core/server'
import {
	createRepresentativeRoute,
	currentRepresentativeRoute,
	deleteRepresentativeRoute,
	exportRepresentativesRoute,
	listManagersRoute,
	listRepresentativesRoute,
	promoImageFileRoute,
	removePromoImageRoute,
	savePromoImageRoute,
	updateRepresentativeRoute
} from './model'
import { readPromoImage, removePromoImage, savePromoImage } from './promo'
import {
	type RepresentativeHoldings,
	createRepresentative,
	currentRepresentative,
	deleteRepresentative,
	exportRepresentatives,
	listManagers,
	listRepresentatives,
	updateRepresentative
} from './service'

export function resellersRoutes(ctx: AppContext, holdings: RepresentativeHoldings) {
	return serveRoutes(ctx, 'resellers.routes', ({ db, clock }) => [
		serve(listRepresentativesRoute, 'representatives.read', ({ user, query }) => listRepresentatives(db, holdings, user, query)),
		serve(exportRepresentativesRoute, 'representatives.read', ({ user, query }) => exportRepresentatives(db, holdings, clock, user, query)),
		serve(currentRepresentativeRoute, 'representatives.read', ({ user }) => currentRepresentative(db, holdings, user)),
		serve(createRepresentativeRoute, 'representatives.manage', ({ user, body }) => createRepresentative(db, holdings, clock, user, body)),
		// A representante may call it for their own API settings; the service keeps them to those fields.
		serve(updateRepresentativeRoute, 'representatives.read', ({ user, params, body }) =>
			updateRepresentative(db, holdings, clock, user, params.id, body)
		),
		serve(deleteRepresentativeRoute, 'representatives.delete', ({ user, params }) =>
			deleteRepresentative(db, holdings, clock, user, params.id)
		),
		serve(listManagersRoute, 'representatives.manage', () => listManagers(db)),
		serve(savePromoImageRoute, 'representatives.promo', async ({ body, user }) => {
			const file = await savePromoImage(db, clock, user, body.imageBase64)
			return { message: 'Imagem promocional atualizada.', promo: `/api/public/promo/${file}` }
		}),
		serve(removePromoImageRoute, 'representatives.promo', async ({ user }) => {
			await removePromoImage(db, clock, user)
			return { message: 'Imagem promocional removida.' }
		}),
		serve(promoImageFileRoute, 'public', async ({ params }) => {
			const image = await readPromoImage(db, params.file)
			if (!image) throw notFound('Imagem não encontrada.')
			return new Response(image.bytes as unknown as BodyInit, {
				headers: {
					'content-type': image.type,
					'cache-control': 'public, max-age=86400',
					'x-content-type-options': 'nosniff',
					// An uploaded file is only ever an image: nothing in it may run, even if opened directly.
					'content-security-policy': "default-src 'none'; sandbox"
				}
			})
		})
	])
}
