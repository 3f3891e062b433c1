import { eq } from 'drizzle-orm'
import { type Endpoint, serve } from '../auth'
import type { AppContext } from '../core/server'
import { clickSend } from '../messaging'
import { representativeScope } from '../resellers'
import {
	cancelCarneRoute,
	carneParcelasRoute,
	createCarneRoute,
	downloadCarneRoute,
	historicoRoute,
	listCarnesRoute,
	pagamentosRoute,
	removeParcelaRoute,
	renewalOptionRoute,
	sendCarneRoute,
	sendParcelaRoute,
	syncCarnesRoute,
	waitingRenewalsRoute
} from './carnes-model'
import {
	cancelCarne,
	carneInScope,
	carneParcels,
	carnePdf,
	carneViews,
	createCarne,
	listCarnes,
	removeParcel,
	sendCarne,
	sendParcel
} from './carnes'
import { listHistorico, listPagamentos } from './history'
import { type CreditPool, setRenewalOption, waitingRenewals } from './renewals'
import { carneParcelas, carnes } from './schema'
import { reconcileCarnes, syncMessage } from './sync'

/** /carnes, /pagamentos-parcelas and /historico-pagamentos: every role with its scope (billing.carnes). */
export function carnesRoutes(ctx: AppContext, pool: CreditPool): Endpoint[] {
	const can = 'billing.carnes' as const
	// Whose carnê a send is about, for the representative's send limits (none when there is no such carnê: the send answers 404).
	const carneOwner = async (id: number) =>
		(await ctx.db.select({ cnpj: carnes.representante_cnpj }).from(carnes).where(eq(carnes.id, id)))[0]?.cnpj ?? null
	const parcelOwner = async (id: number) =>
		(await ctx.db.select({ cnpj: carneParcelas.representante_cnpj }).from(carneParcelas).where(eq(carneParcelas.id, id)))[0]?.cnpj ?? null
	return [
		serve(listCarnesRoute, can, ({ user, query }) => listCarnes(ctx, user, query)),
		serve(createCarneRoute, can, ({ user, body }) => createCarne(ctx, user, body, pool)),
		// Whose carnê it is decides: out of the scope looks exactly like missing (404).
		serve(renewalOptionRoute, can, async ({ user, params, body }) =>
			setRenewalOption(ctx, user, await carneInScope(ctx, user, params.id), body, async (row) => (await carneViews(ctx.db, [row]))[0])
		),
		serve(waitingRenewalsRoute, can, ({ user }) => waitingRenewals(ctx, user)),
		serve(pagamentosRoute, can, ({ user, query }) => listPagamentos(ctx, user, query)),
		serve(removeParcelaRoute, can, ({ user, params }) => removeParcel(ctx, user, params.id)),
		serve(sendParcelaRoute, can, async ({ user, params, body }) =>
			clickSend(ctx, { userId: user.id, representanteCnpj: await parcelOwner(params.id) }, () =>
				sendParcel(ctx, user, params.id, body.phone)
			)
		),
		serve(syncCarnesRoute, can, async ({ user }) => {
			// The button reads every open carnê of the scope, a smaller batch than the job: a person is waiting.
			const result = await reconcileCarnes(ctx, { scope: representativeScope(ctx.db, user), batch: 100, all: true })
			return { verificadas: result.verificadas, corrigidas: result.corrigidas, message: syncMessage(result) }
		}),
		serve(carneParcelasRoute, can, ({ user, params }) => carneParcels(ctx, user, params.id)),
		serve(cancelCarneRoute, can, ({ user, params }) => cancelCarne(ctx, user, params.id)),
		serve(downloadCarneRoute, can, async ({ user, params }) => {
			const { bytes, fileName } = await carnePdf(ctx, user, params.id)
			return new Response(bytes as unknown as BodyInit, {
				headers: {
					'content-type': 'application/pdf',
					// The name in UTF-8 (RFC 6266), with an ASCII copy for old clients: the tab and the saved file say 'Carnê nº 12'.
					'content-disposition': `inline; filename="${fileName.normalize('NFD').replace(/[^\x20-\x7e]/g, '')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
					'cache-control': 'no-store',
					'x-content-type-options': 'nosniff'
				}
			})
		}),
		serve(sendCarneRoute, can, async ({ user, params, body }) =>
			clickSend(ctx, { userId: user.id, representanteCnpj: await carneOwner(params.id) }, () =>
				sendCarne(ctx, user, params.id, body.telefone)
			)
		),
		serve(historicoRoute, can, ({ user, query }) => listHistorico(ctx, user, query))
	]
}
