import { serve, serveRoutes } from '../auth'
import type { AppContext } from '../core/server'
import { createDownloadRoute, deleteDownloadRoute, listDownloadsRoute, updateDownloadRoute } from './model'
import { deleteDownload, listDownloads, saveDownload } from './service'

export function downloadRoutes(ctx: AppContext) {
	return serveRoutes(ctx, 'downloads.routes', ({ db, clock }) => [
		serve(listDownloadsRoute, 'downloads.read', ({ user }) => listDownloads(db, user)),
		serve(createDownloadRoute, 'downloads.manage', ({ body, user }) => saveDownload(db, clock, user, body)),
		serve(updateDownloadRoute, 'downloads.manage', ({ params, body, user }) => saveDownload(db, clock, user, body, params.id)),
		serve(deleteDownloadRoute, 'downloads.manage', ({ params, user }) => deleteDownload(db, clock, user, params.id))
	])
}
