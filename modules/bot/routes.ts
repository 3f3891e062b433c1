import { serve, serveRoutes } from '../auth'
import { type AppContext, errorResponse } from '../core/server'
import { clickSend } from '../messaging'
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

/** The secret of a delivery: the header (Evolution 2.1.1+), a Bearer, or ?token= (2.0.x, 2.1.0, 1.8, global webhooks). */
function webhookToken(request: Request): string | null {
	const bearer = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? null
	const query = request.url.includes('?') ? new URL(request.url).searchParams.get('token') : null
	return request.headers.get(BOT_WEBHOOK_HEADER) ?? bearer ?? query
}

export function botRoutes(ctx: AppContext, bot: BotService) {
	return serveRoutes(ctx, 'bot.routes', () => [
		// Evolution's deliveries: authenticated by the portal's secret (header, or ?token=), not by a session.
		serve(botWebhookRoute, 'public', ({ body, request }) => bot.receive(webhookToken(request), body, request)),
		serve(botMonitorRoute, 'whatsapp.bot', () => bot.monitor()),
		serve(botTestRoute, 'whatsapp.bot', async ({ user, body }) => {
			if (!(await bot.enabled()))
				return { success: false, replies: [], message: 'O bot está desativado: ative-o em Admin Bot para testar.' }
			const replies = await clickSend(ctx, { userId: user.id, representanteCnpj: null }, () => bot.test(body.phone, body.message))
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
		serve(resumeConversationRoute, 'whatsapp.bot', async ({ body }) => ({
			message: (await bot.resume(body.phone)) ? 'Conversa retomada com sucesso' : 'Essa conversa não estava pausada.'
		})),
		// The administrador's answer goes out through the gateway, paced like every click that sends.
		serve(simulateAttendantRoute, 'whatsapp.bot', async ({ user, body }) => {
			await clickSend(ctx, { userId: user.id, representanteCnpj: null }, () => bot.answerAsAttendant(body.phone, body.message))
			return { message: 'Mensagem de atendente simulada - bot pausado automaticamente' }
		})
	]).onRequest(async ({ request }) => {
		// Before the body is read: without the secret, a large body costs nothing.
		if (request.method !== 'POST' || !request.url.includes(botWebhookRoute.path)) return
		if (new URL(request.url).pathname !== botWebhookRoute.path) return
		bot.arrive(request)
		if (!(await bot.webhookTokenMatches(webhookToken(request)))) {
			bot.refused(request)
			return errorResponse(401, 'Token do webhook inválido.', 'UNAUTHORIZED')
		}
	})
}
