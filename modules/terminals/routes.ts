import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { createTerminalRoute, deleteTerminalRoute, exportTerminalsRoute, listTerminalsRoute, updateTerminalRoute } from './model'
import { createTerminal, deleteTerminal, exportTerminals, listTerminals, updateTerminal } from './service'

export function terminalRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	return new Elysia({ name: 'terminals.routes' })
		.use(authGuard(ctx))
		.route(listTerminalsRoute.method, listTerminalsRoute.path, ({ query, user }) => listTerminals(db, clock, user, query), {
			...routeHooks(listTerminalsRoute),
			can: 'terminals.read'
		})
		.route(exportTerminalsRoute.method, exportTerminalsRoute.path, ({ query, user }) => exportTerminals(db, clock, user, query), {
			...routeHooks(exportTerminalsRoute),
			can: 'terminals.read'
		})
		.route(
			createTerminalRoute.method,
			createTerminalRoute.path,
			({ body, user, status }) => status(201, { message: 'Terminal criado.', codigo: createTerminal(db, clock, user, body) }),
			{ ...routeHooks(createTerminalRoute), can: 'terminals.write' }
		)
		.route(
			updateTerminalRoute.method,
			updateTerminalRoute.path,
			({ params, body, user }) => {
				updateTerminal(db, clock, user, params.codigo, body)
				return { message: 'Terminal atualizado.' }
			},
			{ ...routeHooks(updateTerminalRoute), can: 'terminals.write' }
		)
		.route(
			deleteTerminalRoute.method,
			deleteTerminalRoute.path,
			({ params, user }) => {
				deleteTerminal(db, clock, user, params.codigo)
				return { message: 'Terminal excluído.' }
			},
			{ ...routeHooks(deleteTerminalRoute), can: 'terminals.write' }
		)
}
