import { logActivity } from '../activity'
import { serve, serveRoutes } from '../auth'
import { can } from '../core'
import { type AppContext, notFound } from '../core/server'
import { representativeScope } from '../resellers'
import { asaasAccount, reactivateWebhook } from './accounts'
import { carneTotals } from './carnes'
import { carnesRoutes } from './carnes-routes'
import { dunningRoutes } from './dunning-routes'
import type { AsaasInbox } from './inbox'
import type { CreditPool } from './renewals'
import {
	VENDOR_ACCOUNT,
	adminConfigsRoute,
	asaasWebhookRoute,
	financialStatsRoute,
	ownConfigRoute,
	ownWebhookTokenRoute,
	reactivateWebhookRoute,
	rehearsalRoute,
	saveAdminConfigRoute,
	saveOwnConfigRoute,
	saveVendorConfigRoute,
	testAdminConfigRoute,
	testOwnConfigRoute,
	testVendorConfigRoute,
	vendorConfigRoute
} from './model'
import {
	adminConfigs,
	financialStats,
	rehearseAccount,
	ownConfig,
	ownWebhookToken,
	saveAdminConfig,
	saveOwnConfig,
	saveVendorConfig,
	testAccount,
	vendorConfig
} from './service'

/** `pool`: the representatives' credits (the credits module, above this one), which a new carnê's renewal default reads. */
export function billingRoutes(ctx: AppContext, inbox: AsaasInbox, pool: CreditPool) {
	return serveRoutes(ctx, 'billing.routes', () => [
		...carnesRoutes(ctx, pool),
		...dunningRoutes(ctx),
		// The representative's own account (Configurações Financeiras).
		serve(ownConfigRoute, 'billing.ownProviderConfig', ({ user }) => ownConfig(ctx, user)),
		serve(saveOwnConfigRoute, 'billing.ownProviderConfig', ({ user, body }) =>
			saveOwnConfig(ctx, user, {
				active: body.ativar_api_asaas === 'S',
				apiKey: body.asaas_api_key,
				environment: body.asaas_ambiente,
				webhookToken: body.asaas_webhook_token
			})
		),
		serve(ownWebhookTokenRoute, 'billing.ownProviderConfig', ({ user }) => ownWebhookToken(ctx, user.cnpj)),
		serve(testOwnConfigRoute, 'billing.ownProviderConfig', ({ user }) => testAccount(ctx, user.cnpj)),
		// Admin Financeiro: every representative's account, and the vendor's.
		serve(adminConfigsRoute, 'billing.providerConfigs', () => adminConfigs(ctx)),
		serve(saveAdminConfigRoute, 'billing.providerConfigs', ({ user, params, body }) =>
			saveAdminConfig(ctx, user, params.cnpj, body.representante_cnpj, {
				active: body.ativar_api_asaas,
				apiKey: body.asaas_api_key,
				environment: body.asaas_ambiente,
				webhookToken: body.asaas_webhook_token
			})
		),
		serve(testAdminConfigRoute, 'billing.providerConfigs', ({ params }) => testAccount(ctx, params.cnpj)),
		serve(vendorConfigRoute, 'billing.providerConfigs', () => vendorConfig(ctx)),
		serve(saveVendorConfigRoute, 'billing.providerConfigs', ({ user, body }) =>
			saveVendorConfig(ctx, user, {
				apiKey: body.asaas_api_key,
				environment: body.asaas_ambiente,
				webhookToken: body.asaas_webhook_token
			})
		),
		serve(testVendorConfigRoute, 'billing.providerConfigs', () => testAccount(ctx, VENDOR_ACCOUNT)),
		serve(rehearsalRoute, 'billing.providerConfigs', ({ params }) => rehearseAccount(ctx, params.account)),
		serve(financialStatsRoute, 'billing.providerConfigs', async () => financialStats(ctx, await carneTotals(ctx.db))),
		// The banner's button: an administrador for any account, anyone else for the accounts of their scope.
		serve(reactivateWebhookRoute, 'billing.carnes', async ({ user, params }) => {
			const mine =
				params.account === VENDOR_ACCOUNT
					? can(user.tipo, 'billing.providerConfigs')
					: await representativeScope(ctx.db, user).includes(params.account)
			const account = mine ? await asaasAccount(ctx.db, ctx.secrets, params.account) : null
			if (!account) throw notFound('Conta Asaas não encontrada.')
			const webhook = await reactivateWebhook(ctx, account)
			await logActivity(
				ctx.db,
				ctx.clock,
				'billing.webhook-reactivated',
				{ conta: params.account },
				{ actor: user, entityId: params.account }
			)
			const ok = webhook.status === 'ativo'
			return {
				success: ok,
				message: ok
					? 'Fila de webhooks reativada: o Asaas volta a enviar os eventos pendentes.'
					: (webhook.message ?? 'Não foi possível reativar.'),
				webhook
			}
		}),
		// Asaas itself: authenticated by the account's token, acknowledged at once, handled after the answer.
		serve(asaasWebhookRoute, 'public', async ({ params, body, request }) => {
			const stored = await inbox.receive(params.account, request.headers.get('asaas-access-token'), body)
			if (stored !== null) setTimeout(() => inbox.process(stored).catch((e) => ctx.log('asaas.event_error', { message: String(e) })), 0)
			return { received: true }
		})
	])
}
