import { MessageResponse, contract, typedMessageField, typedPhoneField, webhookContract, whatsappPhoneField, valuesOf, z } from '../core'
import { BOT_STEP_LABELS } from './words'

export * from './words'

/** The events the instance's webhook must send (the monitor lists them for manual setup). */
export const BOT_WEBHOOK_EVENTS = ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] as const
/** The header Evolution v2 sends with the secret; v1 has no headers, so there it travels as ?token=. */
export const BOT_WEBHOOK_HEADER = 'x-webhook-token'
/** A gateway connected but silent this long is suspicious (the webhook is probably not configured). */
export const BOT_SILENCE_WARNING_MS = 30 * 60_000
/** A client who wrote while paused and has waited this long is flagged on /whatsapp-admin. */
export const BOT_WAITING_FLAG_MS = 15 * 60_000

export const BotSession = z.object({
	phone: z.string(),
	cnpj: z.string().nullable(),
	step: z.enum(valuesOf(BOT_STEP_LABELS)),
	lastActivity: z.string(),
	isPaused: z.boolean(),
	pausedUntil: z.string().nullable(),
	/** When the client wrote while paused and nobody answered since. */
	waitingSince: z.string().nullable(),
	/** Waiting more than 15 minutes. */
	waitingTooLong: z.boolean()
})
export type BotSession = z.infer<typeof BotSession>

export const BotMonitor = z.object({
	enabled: z.boolean(),
	activeSessions: z.number(),
	sessions: z.array(BotSession),
	/** The gateway's connection as the last connection.update said (null until one arrives). */
	connection: z.object({ state: z.string().nullable(), at: z.string().nullable() }),
	lastEventAt: z.string().nullable(),
	/** Connected but no event for 30 minutes, or the webhook could not be configured. */
	warning: z.string().nullable(),
	webhook: z.object({
		path: z.literal('/api/whatsapp/webhook'),
		/** The full URL to configure (null while PUBLIC_URL is not set). */
		url: z.string().nullable(),
		/** The same URL with ?token=, for Evolution v1 (no headers there). */
		urlWithToken: z.string().nullable(),
		header: z.string(),
		secret: z.string(),
		events: z.array(z.string()),
		status: z.string().nullable(),
		message: z.string().nullable(),
		at: z.string().nullable()
	})
})
export type BotMonitor = z.infer<typeof BotMonitor>

export const BotStatus = z.object({ enabled: z.boolean(), activeSessions: z.number(), pausedConversations: z.number() })

/** The bot's test, as every WhatsApp form: each field with its own words. */
export const BotTestBody = z.object({ phone: whatsappPhoneField, message: typedMessageField })
export type BotTestBody = z.infer<typeof BotTestBody>
export const BotTestResult = z.object({ success: z.boolean(), replies: z.array(z.string()), message: z.string() })

/**
 * Resuming a conversation names it by the phone the bot keys it with, which may be a foreign number (the paused list's
 * Retomar sends it as stored): any 10 to 15 digits, not only the WhatsApp forms' Brazilian numbers.
 */
export const PhoneBody = z.object({
	phone: typedPhoneField('Informe o telefone.', 'Telefone inválido: use DDD e número, com ou sem o 55 (ex.: 5585999999999).')
})
export const AttendantBody = z.object({ phone: whatsappPhoneField, message: typedMessageField })

export const botWebhookRoute = webhookContract(
	'/api/whatsapp/webhook',
	{ query: z.object({ token: z.string().max(200).optional() }) },
	'Eventos da Evolution API (segredo no header x-webhook-token ou em ?token=); respondido com 200 na hora, processado depois'
)
export const botMonitorRoute = contract({
	method: 'GET',
	path: '/api/whatsapp/bot/status',
	response: BotMonitor,
	summary: 'O monitor do bot: sessões ativas, estado real (ligado, conexão do WhatsApp, último evento) e o webhook'
})
export const botTestRoute = contract({
	method: 'POST',
	path: '/api/whatsapp/bot/test',
	body: BotTestBody,
	response: BotTestResult,
	summary: 'Passa a mensagem pelo bot como se o telefone a tivesse enviado; as respostas vão ao telefone e voltam aqui'
})
export const botStatusRoute = contract({
	method: 'GET',
	path: '/api/whatsapp/bot-status',
	response: BotStatus,
	summary: 'Bot ligado ou não, sessões ativas e conversas pausadas'
})
export const botSessionsRoute = contract({
	method: 'GET',
	path: '/api/whatsapp/sessions',
	response: z.array(BotSession),
	summary: 'As conversas das últimas 30 minutos e as pausadas'
})
export const pausedConversationsRoute = contract({
	method: 'GET',
	path: '/api/whatsapp/paused-conversations',
	response: z.array(z.string()),
	summary: 'Os telefones cujas conversas estão com um atendente (bot pausado)'
})
export const botEnableRoute = contract({
	method: 'POST',
	path: '/api/whatsapp/bot-enable',
	response: MessageResponse,
	summary: 'Liga o bot (e configura o webhook na instância quando PUBLIC_URL está definido)'
})
export const botDisableRoute = contract({
	method: 'POST',
	path: '/api/whatsapp/bot-disable',
	response: MessageResponse,
	summary: 'Desliga o bot: ele não envia nada a ninguém'
})
export const resumeConversationRoute = contract({
	method: 'POST',
	path: '/api/whatsapp/resume-conversation',
	body: PhoneBody,
	response: MessageResponse,
	summary: 'Devolve a conversa de um telefone ao bot'
})
export const simulateAttendantRoute = contract({
	method: 'POST',
	path: '/api/whatsapp/simulate-attendant-message',
	body: AttendantBody,
	response: MessageResponse,
	summary: 'O administrador responde ao cliente pelo portal: o texto vai ao telefone pelo WhatsApp e o bot pausa a conversa'
})
