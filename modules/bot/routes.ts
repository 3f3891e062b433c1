import { serve, serveRoutes } from '../auth'
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
	return serveRoutes(ctx, 'bot.routes', () => [
		// Evolution's deliveries: authenticated by the portal's secret (header, or ?token= for v1), not by a session.
		serve(botWebhookRoute, 'public', ({ body, query, request }) => {
			const bearer = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? null
			return bot.receive(request.headers.get(BOT_WEBHOOK_HEADER) ?? bearer ?? query.token ?? null, body)
		}),
		serve(botMonitorRoute, 'whatsapp.bot', () => bot.monitor()),
		serve(botTestRoute, 'whatsapp.bot', async ({ body }) => {
			if (!bot.enabled()) return { success: false, replies: [], message: 'O bot está desativado: ative-o em Admin Bot para testar.' }
			const replies = await bot.test(body.phone, body.message)
			return {
				success: true,
				replies,
				message: replies.length
					? `${replies.length} resposta(s) enviada(s) para ${body.phone}.`
					: 'O bot não respondeu (conversa pausada ou limite de respostas).'
			}
		}),
		serve(botStatusRoute, 'whatsapp.bot', () => bot.status()),
		serve(botSessionsRoute, 'whatsapp.bot', () => bot.sessions()),
		serve(pausedConversationsRoute, 'whatsapp.bot', () => bot.pausedPhones()),
		serve(botEnableRoute, 'whatsapp.bot', async () => {
			await bot.setEnabled(true)
			return { message: 'Bot ativado com sucesso' }
		}),
		serve(botDisableRoute, 'whatsapp.bot', async () => {
			await bot.setEnabled(false)
			return { message: 'Bot desativado com sucesso' }
		}),
		serve(resumeConversationRoute, 'whatsapp.bot', ({ body }) => ({
			message: bot.resume(body.phone) ? 'Conversa retomada com sucesso' : 'Essa conversa não estava pausada.'
		})),
		serve(simulateAttendantRoute, 'whatsapp.bot', async ({ body }) => {
			await bot.simulateAttendant(body.phone)
			return { message: 'Mensagem de atendente simulada - bot pausado automaticamente' }
		})
	])
}
