import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
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
	const { db, clock } = ctx
	return new Elysia({ name: 'resellers.routes' })
		.use(authGuard(ctx))
		.route(
			listRepresentativesRoute.method,
			listRepresentativesRoute.path,
			({ user, query }) => listRepresentatives(db, holdings, user, query),
			{ ...routeHooks(listRepresentativesRoute), can: 'representatives.read' }
		)
		.route(
			exportRepresentativesRoute.method,
			exportRepresentativesRoute.path,
			({ user, query }) => exportRepresentatives(db, holdings, clock, user, query),
			{ ...routeHooks(exportRepresentativesRoute), can: 'representatives.read' }
		)
		.route(currentRepresentativeRoute.method, currentRepresentativeRoute.path, ({ user }) => currentRepresentative(db, holdings, user), {
			...routeHooks(currentRepresentativeRoute),
			can: 'representatives.read'
		})
		.route(
			createRepresentativeRoute.method,
			createRepresentativeRoute.path,
			({ user, body, status }) => status(201, createRepresentative(db, holdings, clock, user, body)),
			{ ...routeHooks(createRepresentativeRoute), can: 'representatives.manage' }
		)
		.route(
			updateRepresentativeRoute.method,
			updateRepresentativeRoute.path,
			({ user, params, body }) => updateRepresentative(db, holdings, clock, user, params.id, body),
			// A representante may call it for their own API settings; the service keeps them to those fields.
			{ ...routeHooks(updateRepresentativeRoute), can: 'representatives.read' }
		)
		.route(
			deleteRepresentativeRoute.method,
			deleteRepresentativeRoute.path,
			({ user, params }) => {
				deleteRepresentative(db, holdings, clock, user, params.id)
				return { message: 'Representante excluído com sucesso.' }
			},
			{ ...routeHooks(deleteRepresentativeRoute), can: 'representatives.delete' }
		)
		.route(listManagersRoute.method, listManagersRoute.path, () => listManagers(db), {
			...routeHooks(listManagersRoute),
			can: 'representatives.manage'
		})
		.route(
			savePromoImageRoute.method,
			savePromoImageRoute.path,
			({ body, user }) => {
				const file = savePromoImage(db, clock, ctx.config.dataDir, user, body.imageBase64)
				return { message: 'Imagem promocional atualizada.', promo: `/api/public/promo/${file}` }
			},
			{ ...routeHooks(savePromoImageRoute), can: 'representatives.promo' }
		)
		.route(
			removePromoImageRoute.method,
			removePromoImageRoute.path,
			({ user }) => {
				removePromoImage(db, clock, ctx.config.dataDir, user)
				return { message: 'Imagem promocional removida.' }
			},
			{ ...routeHooks(removePromoImageRoute), can: 'representatives.promo' }
		)
		.route(
			promoImageFileRoute.method,
			promoImageFileRoute.path,
			({ params }) => {
				const image = readPromoImage(ctx.config.dataDir, params.file)
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
			},
			{ ...routeHooks(promoImageFileRoute), publicRoute: true }
		)
}
