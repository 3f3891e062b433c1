import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { createDownloadRoute, deleteDownloadRoute, listDownloadsRoute, updateDownloadRoute } from './model'
import { deleteDownload, listDownloads, saveDownload } from './service'

export function downloadRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	return new Elysia({ name: 'downloads.routes' })
		.use(authGuard(ctx))
		.route(listDownloadsRoute.method, listDownloadsRoute.path, ({ user }) => listDownloads(db, user), {
			...routeHooks(listDownloadsRoute),
			can: 'downloads.read'
		})
		.route(
			createDownloadRoute.method,
			createDownloadRoute.path,
			({ body, user, status }) => status(201, saveDownload(db, clock, user, body)),
			{
				...routeHooks(createDownloadRoute),
				can: 'downloads.manage'
			}
		)
		.route(
			updateDownloadRoute.method,
			updateDownloadRoute.path,
			({ params, body, user }) => saveDownload(db, clock, user, body, params.id),
			{
				...routeHooks(updateDownloadRoute),
				can: 'downloads.manage'
			}
		)
		.route(
			deleteDownloadRoute.method,
			deleteDownloadRoute.path,
			({ params, user }) => {
				deleteDownload(db, clock, user, params.id)
				return { message: 'Download excluído.' }
			},
			{ ...routeHooks(deleteDownloadRoute), can: 'downloads.manage' }
		)
}
