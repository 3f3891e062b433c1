import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import type { AppContext } from '../core/server'
import { AddCreditsBody, AvailableQuery, CreditListQuery, SummaryQuery, TransferBody } from './model'
import { addCredits, creditSummary, listCredits, scopedAvailable, transferToCompany } from './service'

export function creditRoutes(ctx: AppContext) {
	return new Elysia({ name: 'credits.routes', prefix: '/api/credits' })
		.use(authGuard(ctx))
		.get('/available', ({ user, query }) => ({ total: scopedAvailable(ctx.db, user, query.representanteCnpj) }), {
			roles: 'any',
			query: AvailableQuery
		})
		.get('/', ({ user, query }) => listCredits(ctx.db, user, query), { roles: 'any', query: CreditListQuery })
		.get('/summary', ({ user, query }) => creditSummary(ctx.db, user, query), { roles: ['administrador', 'gerente'], query: SummaryQuery })
		.post(
			'/',
			({ user, body, status }) => {
				const { batch, disponivel } = addCredits(ctx.db, ctx.clock, user, body)
				return status(201, {
					message: `${body.amount} ${body.amount === 1 ? 'crédito adicionado' : 'créditos adicionados'} com sucesso.`,
					id: batch.id,
					representanteId: batch.representante_id,
					amount: batch.valor,
					unitValue: batch.valor_unitario_centavos / 100,
					disponivel
				})
			},
			{ roles: ['administrador'], body: AddCreditsBody }
		)
		.post('/transfer-to-company', ({ user, body }) => transferToCompany(ctx.db, ctx.clock, user, body), {
			roles: ['administrador', 'gerente', 'representante'],
			body: TransferBody
		})
}
