import { serve, serveRoutes } from '../auth'
import type { AppContext } from '../core/server'
import { createTerminalRoute, deleteTerminalRoute, exportTerminalsRoute, listTerminalsRoute, updateTerminalRoute } from './model'
import { createTerminal, deleteTerminal, exportTerminals, listTerminals, updateTerminal } from './service'

export function terminalRoutes(ctx: AppContext) {
	return serveRoutes(ctx, 'terminals.routes', ({ db, clock }) => [
		serve(listTerminalsRoute, 'terminals.read', ({ query, user }) => listTerminals(db, clock, user, query)),
		serve(exportTerminalsRoute, 'terminals.read', ({ query, user }) => exportTerminals(db, clock, user, query)),
		serve(createTerminalRoute, 'terminals.write', async ({ body, user }) => ({
			message: 'Terminal criado.',
			codigo: await createTerminal(db, clock, user, body)
		})),
		serve(updateTerminalRoute, 'terminals.write', async ({ params, body, user }) => {
			await updateTerminal(db, clock, user, params.codigo, body)
			return { message: 'Terminal atualizado.' }
		}),
		serve(deleteTerminalRoute, 'terminals.write', ({ params, user }) => deleteTerminal(db, clock, user, params.codigo))
	])
}
