import { Elysia } from 'elysia'
import { logActivity } from '../activity'
import { authGuard } from '../auth'
import { can, routeHooks } from '../core'
import { type AppContext, notFound } from '../core/server'
import { representativeScope } from '../resellers'
import { asaasAccount, reactivateWebhook } from './accounts'
import { carneTotals } from './carnes'
import { carnesRoutes } from './carnes-routes'
import type { AsaasInbox } from './inbox'
import {
	VENDOR_ACCOUNT,
	adminConfigsRoute,
	asaasWebhookRoute,
	financialStatsRoute,
	ownConfigRoute,
	reactivateWebhookRoute,
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
	ownConfig,
	saveAdminConfig,
	saveOwnConfig,
	saveVendorConfig,
	testAccount,
	vendorConfig
} from './service'

export function billingRoutes(ctx: AppContext, inbox: AsaasInbox) {
	return (
		new Elysia({ name: 'billing.routes' })
			.use(authGuard(ctx))
			.use(carnesRoutes(ctx))
			// The representative's own account (Configurações Financeiras).
			.route(ownConfigRoute.method, ownConfigRoute.path, ({ user }) => ownConfig(ctx, user), {
				...routeHooks(ownConfigRoute),
				can: 'billing.ownProviderConfig'
			})
			.route(
				saveOwnConfigRoute.method,
				saveOwnConfigRoute.path,
				({ user, body }) =>
					saveOwnConfig(ctx, user, {
						active: body.ativar_api_asaas === 'S',
						apiKey: body.asaas_api_key,
						environment: body.asaas_ambiente,
						webhookToken: body.asaas_webhook_token
					}),
				{ ...routeHooks(saveOwnConfigRoute), can: 'billing.ownProviderConfig' }
			)
			.route(testOwnConfigRoute.method, testOwnConfigRoute.path, ({ user }) => testAccount(ctx, user.cnpj), {
				...routeHooks(testOwnConfigRoute),
				can: 'billing.ownProviderConfig'
			})
			// Admin Financeiro: every representative's account, and the vendor's.
			.route(adminConfigsRoute.method, adminConfigsRoute.path, () => adminConfigs(ctx), {
				...routeHooks(adminConfigsRoute),
				can: 'billing.providerConfigs'
			})
			.route(
				saveAdminConfigRoute.method,
				saveAdminConfigRoute.path,
				({ user, params, body }) =>
					saveAdminConfig(ctx, user, params.cnpj, body.representante_cnpj, {
						active: body.ativar_api_asaas,
						apiKey: body.asaas_api_key,
						environment: body.asaas_ambiente,
						webhookToken: body.asaas_webhook_token
					}),
				{ ...routeHooks(saveAdminConfigRoute), can: 'billing.providerConfigs' }
			)
			.route(testAdminConfigRoute.method, testAdminConfigRoute.path, ({ params }) => testAccount(ctx, params.cnpj), {
				...routeHooks(testAdminConfigRoute),
				can: 'billing.providerConfigs'
			})
			.route(vendorConfigRoute.method, vendorConfigRoute.path, () => vendorConfig(ctx), {
				...routeHooks(vendorConfigRoute),
				can: 'billing.providerConfigs'
			})
			.route(
				saveVendorConfigRoute.method,
				saveVendorConfigRoute.path,
				({ user, body }) =>
					saveVendorConfig(ctx, user, {
						apiKey: body.asaas_api_key,
						environment: body.asaas_ambiente,
						webhookToken: body.asaas_webhook_token
					}),
				{ ...routeHooks(saveVendorConfigRoute), can: 'billing.providerConfigs' }
			)
			.route(testVendorConfigRoute.method, testVendorConfigRoute.path, () => testAccount(ctx, VENDOR_ACCOUNT), {
				...routeHooks(testVendorConfigRoute),
				can: 'billing.providerConfigs'
			})
			.route(financialStatsRoute.method, financialStatsRoute.path, () => financialStats(ctx, carneTotals(ctx.db)), {
				...routeHooks(financialStatsRoute),
				can: 'billing.providerConfigs'
			})
			// The banner's button: an administrador for any account, anyone else for the accounts of their scope.
			.route(
				reactivateWebhookRoute.method,
				reactivateWebhookRoute.path,
				async ({ user, params }) => {
					const mine =
						params.account === VENDOR_ACCOUNT
							? can(user.tipo, 'billing.providerConfigs')
							: representativeScope(ctx.db, user).includes(params.account)
					const account = mine ? asaasAccount(ctx.db, ctx.secrets, params.account) : null
					if (!account) throw notFound('Conta Asaas não encontrada.')
					const webhook = await reactivateWebhook(ctx, account)
					logActivity(
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
				},
				{ ...routeHooks(reactivateWebhookRoute), can: 'billing.carnes' }
			)
			// Asaas itself: authenticated by the account's token, acknowledged at once, handled after the answer.
			.route(
				asaasWebhookRoute.method,
				asaasWebhookRoute.path,
				({ params, body, request }) => {
					const stored = inbox.receive(params.account, request.headers.get('asaas-access-token'), body)
					if (stored !== null) setTimeout(() => inbox.process(stored).catch((e) => ctx.log('asaas.event_error', { message: String(e) })), 0)
					return { received: true }
				},
				{ ...routeHooks(asaasWebhookRoute), publicRoute: true }
			)
	)
}
