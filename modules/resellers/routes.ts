import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { IdParams } from '../core'
import { type AppContext } from '../core/server'
import { RepresentativeCreate, RepresentativeListQuery, RepresentativeUpdate } from './model'
import {
	createRepresentative,
	currentRepresentative,
	deleteRepresentative,
	listManagers,
	listRepresentatives,
	updateRepresentative
} from './service'

export function resellersRoutes(ctx: AppContext) {
	return new Elysia({ name: 'resellers.routes', prefix: '/api' })
		.use(authGuard(ctx))
		.get('/representatives', ({ user, query }) => listRepresentatives(ctx.db, user, query.search), {
			roles: 'any',
			query: RepresentativeListQuery
		})
		.get('/representatives/current', ({ user }) => currentRepresentative(ctx.db, user), { roles: 'any' })
		.post(
			'/representatives',
			({ user, body, set }) => {
				set.status = 201
				return createRepresentative(ctx.db, ctx.clock, user, body)
			},
			{ roles: ['administrador', 'gerente'], body: RepresentativeCreate }
		)
		.put('/representatives/:id', ({ user, params, body }) => updateRepresentative(ctx.db, ctx.clock, user, params.id, body), {
			roles: 'any',
			params: IdParams,
			body: RepresentativeUpdate
		})
		.delete(
			'/representatives/:id',
			({ user, params }) => {
				deleteRepresentative(ctx.db, ctx.clock, user, params.id)
				return { message: 'Representante excluído com sucesso.' }
			},
			{ roles: ['administrador'], params: IdParams }
		)
		.get('/managers', () => listManagers(ctx.db), { roles: ['administrador', 'gerente'] })
}
