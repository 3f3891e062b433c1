import { Elysia } from 'elysia'
import { LoginThrottle, RefusalLog, authJobs, authRoutes, recordOf } from '../../modules/auth'
import {
	type AsaasInbox,
	type PaymentEventHandler,
	billingJobs,
	billingRoutes,
	carnePaymentHandler,
	createAsaasInbox
} from '../../modules/billing'
import { type BotService, botJobs, botRoutes, createBotService } from '../../modules/bot'
import { companiesPerRepresentative, companyCountSql, companyRoutes } from '../../modules/companies'
import { type AppContext, clientIp } from '../../modules/core/server'
import {
	availableCredits,
	creditBatchesPerRepresentative,
	creditJobs,
	creditRoutes,
	purchasePaymentHandler,
	renewalPaymentHandler
} from '../../modules/credits'
import { downloadRoutes } from '../../modules/downloads'
import type { JobDefinition } from '../../modules/jobs'
import { type LicenceService, createLicenceService, licensingJobs, licensingRoutes } from '../../modules/licensing'
import { messagingJobs, messagingRoutes } from '../../modules/messaging'
import { reportRoutes } from '../../modules/reports'
import { resellersRoutes } from '../../modules/resellers'
import { systemJobs, systemRoutes } from '../../modules/system'
import { terminalRoutes } from '../../modules/terminals'
import { userRoutes } from '../../modules/users'
import { portalGauges } from './gauges'
import { PAGE_READS } from './page-reads'
import { apiDocs } from './plugins/docs'
import { errorHandler } from './plugins/errors'
import { observe } from './plugins/observe'
import { type Site, pagesPlugin } from './plugins/pages'
import { requestGuards } from './plugins/security'

/** The services the app shares between its routes and its jobs, built once per process. */
export interface AppServices {
	licence: LicenceService
	/** Failed sign-ins and wrong current passwords, counted together per account and address. */
	loginThrottle: LoginThrottle
	/** Refused authorisations, grouped, for the log and the Sistema tab. */
	refusals: RefusalLog
	/** The Asaas webhook inbox, with the modules that own payments as its handlers. */
	asaasInbox: AsaasInbox
	/** The WhatsApp bot: each phone handled by one instance at a time. */
	bot: BotService
	/** Set when the process is shutting down: the readiness probe then answers 503. */
	lifecycle: { draining: boolean }
}

/** `extraHandlers` lets a test watch the inbox hand out events beside the portal's own handlers. */
export async function createServices(ctx: AppContext, extraHandlers: PaymentEventHandler[] = []): Promise<AppServices> {
	return {
		licence: await createLicenceService(ctx),
		loginThrottle: new LoginThrottle(ctx.db, ctx.clock),
		refusals: new RefusalLog(ctx),
		// The renewals come after the carnês: a parcel the carnês' handler records paid renews its licence at once.
		asaasInbox: createAsaasInbox(ctx, [
			carnePaymentHandler(ctx),
			purchasePaymentHandler(ctx),
			renewalPaymentHandler(ctx),
			...extraHandlers
		]),
		bot: createBotService(ctx),
		lifecycle: { draining: false }
	}
}

/** Builds the whole portal from its dependencies; tests build it on an in-memory database. */
export async function createApp(ctx: AppContext, given?: AppServices, site: Site | null = null) {
	const services = given ?? (await createServices(ctx))
	const app = new Elysia()
		.use(observe(ctx))
		.use(
			errorHandler(ctx.log, (refused) =>
				services.refusals.record({
					status: refused.status,
					method: refused.request.method,
					route: refused.route,
					record: recordOf(refused.params, refused.body),
					ip: clientIp(refused.request, refused.server, ctx.config.trustProxy),
					request: refused.request
				})
			)
		)
		.use(
			requestGuards(ctx.config, {
				// Called by other systems, with their own credential: the desktop systems and Asaas.
				csrfExempt: ['/api/licenca/', '/api/asaas/webhook/', '/api/whatsapp/webhook'],
				// A 5 MB image arrives as about 6.7 MB of base64; an Asaas event is a few kilobytes.
				bodyLimits: {
					'/api/representantes/promo-image': 7 * 1024 * 1024,
					'/api/asaas/webhook/': 64 * 1024,
					// Evolution serialises thumbnails as {"0":255,…}; the bot judges the rest at 64 KB once they are dropped.
					'/api/whatsapp/webhook': 2 * 1024 * 1024
				}
			})
		)
		.use(authRoutes(ctx, services.loginThrottle, services.refusals))
		// Saving the gateway settings points the instance's webhook at the bot (when PUBLIC_URL says where the portal is).
		.use(
			systemRoutes(ctx, {
				onSettingsSaved: (keys) => gatewaySaved(services.bot, keys),
				gauges: portalGauges(ctx.db),
				draining: () => services.lifecycle.draining
			})
		)
		.use(messagingRoutes(ctx))
		.use(userRoutes(ctx, services.loginThrottle))
		// Companies and credits sit above resellers: their counts reach it from here.
		.use(
			resellersRoutes(ctx, { empresas: companiesPerRepresentative, empresasSql: companyCountSql, lotes: creditBatchesPerRepresentative })
		)
		.use(companyRoutes(ctx))
		.use(terminalRoutes(ctx))
		.use(downloadRoutes(ctx))
		.use(licensingRoutes(ctx, services.licence))
		.use(creditRoutes(ctx))
		.use(reportRoutes(ctx))
		// Credits sit above billing: a new carnê's renewal default reads the representative's credits from here.
		.use(billingRoutes(ctx, services.asaasInbox, { available: availableCredits }))
		.use(botRoutes(ctx, services.bot))
	// A page's first reads are answered by the app itself, with the caller's cookie (page-reads.ts).
	const portal = app.use(apiDocs(ctx, app)).use(pagesPlugin(ctx, site, { reads: PAGE_READS, answer: (request) => app.handle(request) }))
	assertEveryRouteDeclaresAccess(portal)
	return portal
}

export type App = ReturnType<typeof createApp>

/** After the Evolution settings change, the bot's webhook is set again on the (maybe new) instance. */
async function gatewaySaved(bot: BotService, keys: string[]) {
	if (keys.some((k) => k.startsWith('evolution_'))) await bot.configureWebhook()
}

/** Every scheduled job of the portal; main.ts registers them on the cron, tests call their functions directly. */
export function appJobs(ctx: AppContext, services: AppServices): JobDefinition[] {
	return [
		...authJobs(ctx, services.refusals),
		...licensingJobs(ctx, services.licence),
		...systemJobs(ctx),
		...billingJobs(ctx, services.asaasInbox),
		...messagingJobs(ctx),
		...creditJobs(ctx),
		...botJobs(ctx, services.bot)
	]
}

/** Deny by default: a route that declares neither `can` nor `publicRoute` stops the portal from starting. */
export function assertEveryRouteDeclaresAccess(app: Elysia<any, any, any, any, any, any, any>) {
	const open = app.routes.filter((route) => !(route.hooks as { detail?: Record<string, unknown> })?.detail?.['x-access'])
	if (open.length > 0) {
		throw new Error(`Rotas sem controle de acesso declarado: ${open.map((r) => `${r.method} ${r.path}`).join(', ')}`)
	}
}
