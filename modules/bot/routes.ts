import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import {
	BOT_WEBHOOK_HEADER,
	botDisableRoute,
	botEnableRoute,
	botMonitorRoute,
	botSessionsRoute,
	botStatusRoute,
	botTestRoute,
	botWebhookRoute,
	pausedConversationsRoute,
	resumeConversationRoute,
	simulateAttendantRoute
} from './model'
import type { BotService } from './service'

export function botRoutes(ctx: AppContext, bot: BotService) {
	return (
		new Elysia({ name: 'bot.routes' })
			.use(authGuard(ctx))
			// Evolution's deliveries: authenticated by the portal's secret (header, or ?token= for v1), not by a session.
			.route(
				botWebhookRoute.method,
				botWebhookRoute.path,
				({ body, query, request }) => {
					const bearer = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? null
					return bot.receive(request.headers.get(BOT_WEBHOOK_HEADER) ?? bearer ?? query.token ?? null, body)
				},
				{ ...routeHooks(botWebhookRoute), publicRoute: true }
			)
			.route(botMonitorRoute.method, botMonitorRoute.path, () => bot.monitor(), { ...routeHooks(botMonitorRoute), can: 'whatsapp.bot' })
			.route(
				botTestRoute.method,
				botTestRoute.path,
				async ({ body }) => {
					if (!bot.enabled()) return { success: false, replies: [], message: 'O bot está desativado: ative-o em Admin Bot para testar.' }
					const replies = await bot.test(body.phone, body.message)
					return {
						success: true,
						replies,
						message: replies.length
							? `${replies.length} resposta(s) enviada(s) para ${body.phone}.`
							: 'O bot não respondeu (conversa pausada ou limite de respostas).'
					}
				},
				{ ...routeHooks(botTestRoute), can: 'whatsapp.bot' }
			)
			.route(botStatusRoute.method, botStatusRoute.path, () => bot.status(), { ...routeHooks(botStatusRoute), can: 'whatsapp.bot' })
			.route(botSessionsRoute.method, botSessionsRoute.path, () => bot.sessions(), { ...routeHooks(botSessionsRoute), can: 'whatsapp.bot' })
			.route(pausedConversationsRoute.method, pausedConversationsRoute.path, () => bot.pausedPhones(), {
				...routeHooks(pausedConversationsRoute),
				can: 'whatsapp.bot'
			})
			.route(
				botEnableRoute.method,
				botEnableRoute.path,
				async () => {
					await bot.setEnabled(true)
					return { message: 'Bot ativado com sucesso' }
				},
				{ ...routeHooks(botEnableRoute), can: 'whatsapp.bot' }
			)
			.route(
				botDisableRoute.method,
				botDisableRoute.path,
				async () => {
					await bot.setEnabled(false)
					return { message: 'Bot desativado com sucesso' }
				},
				{ ...routeHooks(botDisableRoute), can: 'whatsapp.bot' }
			)
			.route(
				resumeConversationRoute.method,
				resumeConversationRoute.path,
				({ body }) => ({
					message: bot.resume(body.phone) ? 'Conversa retomada com sucesso' : 'Essa conversa não estava pausada.'
				}),
				{ ...routeHooks(resumeConversationRoute), can: 'whatsapp.bot' }
			)
			.route(
				simulateAttendantRoute.method,
				simulateAttendantRoute.path,
				async ({ body }) => {
					await bot.simulateAttendant(body.phone)
					return { message: 'Mensagem de atendente simulada - bot pausado automaticamente' }
				},
				{ ...routeHooks(simulateAttendantRoute), can: 'whatsapp.bot' }
			)
	)
}
