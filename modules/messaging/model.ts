import {
	cnpjField,
	contract,
	dateField,
	deleteByIdContract,
	pagedList,
	requiredText,
	typedMessageField,
	whatsappPhoneField,
	z,
	withMessage,
	figures
} from '../core'
import { NOTIFICATION_TYPES, TEMPLATE_REQUIRED, daysAheadProblem, sendTimeProblem, unknownVariablesMessage } from './templates'

export * from './templates'

/** Top-bar items: notification rows have numeric ids; notices appear as "aviso-geral-<id>" / "aviso-individual-<id>". */
export const NOTICE_ITEM_ID = /^aviso-(geral|individual)-([1-9]\d{0,9})$/

export const MarkReadBody = z.object({
	notificationIds: z
		.array(
			z.union([
				z.number({ error: 'Identificador de notificação inválido.' }).int().positive(),
				z.string().regex(NOTICE_ITEM_ID, 'Identificador de notificação inválido.')
			]),
			{ error: 'notificationIds deve ser uma lista de identificadores.' }
		)
		.max(500, 'No máximo 500 notificações por vez.')
})
export type MarkReadBody = z.infer<typeof MarkReadBody>

/** 0/1 as the spec's client sends it; true/false are accepted too. */
const bit = (label: string) =>
	z.union([z.literal(0), z.literal(1), z.boolean()], { error: `${label}: use 0 ou 1.` }).transform((v) => (v === true || v === 1 ? 1 : 0))

const noticeFields = {
	titulo: requiredText('Título', 100),
	texto: requiredText('Texto do aviso', 1000),
	urgente: bit('Urgente').optional().default(0),
	ativo: bit('Ativo').optional().default(1),
	/** The notice's date; today when absent. */
	data: dateField.optional()
}

export const GeneralNoticeBody = z.object(noticeFields)
export type GeneralNoticeBody = z.infer<typeof GeneralNoticeBody>

export const IndividualNoticeBody = z.object({
	...noticeFields,
	representante_id: cnpjField
})
export type IndividualNoticeBody = z.infer<typeof IndividualNoticeBody>

export const NoticeQuery = z.object({
	search: z.string().max(100).optional()
})
export type NoticeQuery = z.infer<typeof NoticeQuery>

/** A top-bar item: a notification row (numeric id) or a notice addressed to the user ("aviso-geral-7"). */
export const NotificationItem = z.object({
	id: z.union([z.number(), z.string()]),
	title: z.string(),
	message: z.string(),
	type: z.string(),
	read: z.boolean(),
	/** A page of the portal that acts on it, when it has one. */
	link: z.string().nullable().optional(),
	created_at: z.string()
})
export type NotificationItem = z.infer<typeof NotificationItem>

export const GeneralNotice = z.object({
	id: z.number(),
	titulo: z.string(),
	texto: z.string(),
	urgente: z.number(),
	ativo: z.number(),
	data: z.string(),
	created_at: z.string(),
	updated_at: z.string().optional()
})
export type GeneralNotice = z.infer<typeof GeneralNotice>

export const IndividualNotice = GeneralNotice.extend({ representante_id: z.string(), representante: z.object({ nome: z.string() }) })
export type IndividualNotice = z.infer<typeof IndividualNotice>

export const NoticeRecipient = z.object({ codigo: z.number(), cnpj: z.string(), nome: z.string() })

export const listNotificationsRoute = contract({
	method: 'GET',
	path: '/api/notifications',
	response: z.array(NotificationItem),
	summary: 'As notificações da barra superior: as do usuário e os avisos ativos dirigidos a ele'
})
export const markReadRoute = contract({
	method: 'POST',
	path: '/api/notifications/mark-read',
	body: MarkReadBody,
	response: withMessage({ updated: z.number() }),
	summary: 'Marca notificações e avisos como lidos pelo usuário'
})
export const listGeneralNoticesRoute = contract({
	method: 'GET',
	path: '/api/notices/general',
	query: NoticeQuery,
	response: z.array(GeneralNotice),
	summary: 'Avisos gerais (o representante vê só os ativos)'
})
export const createGeneralNoticeRoute = contract({
	method: 'POST',
	path: '/api/notices/general',
	body: GeneralNoticeBody,
	response: GeneralNotice,
	summary: 'Cria um aviso geral'
})
export const updateGeneralNoticeRoute = contract({
	method: 'PUT',
	path: '/api/notices/general/:id',
	body: GeneralNoticeBody,
	response: GeneralNotice,
	summary: 'Atualiza um aviso geral'
})
export const deleteGeneralNoticeRoute = deleteByIdContract('/api/notices/general/:id', 'Exclui um aviso geral', 'Aviso geral excluído.')
export const listIndividualNoticesRoute = contract({
	method: 'GET',
	path: '/api/notices/individual',
	query: NoticeQuery,
	response: z.array(IndividualNotice),
	summary: 'Avisos individuais do escopo do usuário'
})
export const noticeRecipientsRoute = contract({
	method: 'GET',
	path: '/api/notices/recipients',
	response: z.array(NoticeRecipient),
	summary: 'Os representantes a quem o usuário pode dirigir um aviso individual'
})
export const createIndividualNoticeRoute = contract({
	method: 'POST',
	path: '/api/notices/individual',
	body: IndividualNoticeBody,
	response: IndividualNotice,
	summary: 'Cria um aviso individual para um representante do escopo'
})
export const updateIndividualNoticeRoute = contract({
	method: 'PUT',
	path: '/api/notices/individual/:id',
	body: IndividualNoticeBody,
	response: IndividualNotice,
	summary: 'Atualiza um aviso individual'
})
export const deleteIndividualNoticeRoute = deleteByIdContract(
	'/api/notices/individual/:id',
	'Exclui um aviso individual',
	'Aviso individual excluído.'
)

/** The gateway's connection as the API tab shows it (3-billing-messaging §3 'Gateway status'). */
export const GatewayStatus = z.object({
	connected: z.boolean(),
	/** The instance's state (open, close, connecting), or nao_configurado / erro. */
	status: z.string(),
	message: z.string().nullable()
})
export type GatewayStatus = z.infer<typeof GatewayStatus>

/** POST /api/evolution-api/test (§5): both required, each with its own words; the phone read as every WhatsApp form's. */
export const TestSendBody = z.object({ phone: whatsappPhoneField, message: typedMessageField })
export type TestSendBody = z.infer<typeof TestSendBody>

export const TestSendResult = z.object({ success: z.boolean(), messageId: z.string().nullable(), error: z.string().nullable() })
export type TestSendResult = z.infer<typeof TestSendResult>

export const gatewayStatusRoute = contract({
	method: 'GET',
	path: '/api/evolution-api/status',
	response: GatewayStatus,
	summary: 'Se o WhatsApp da instância da Evolution API está conectado'
})
export const testSendRoute = contract({
	method: 'POST',
	path: '/api/evolution-api/test',
	body: TestSendBody,
	response: TestSendResult,
	summary: 'Envia uma mensagem de teste pelo WhatsApp do portal'
})

/** POST /api/evolution-api/rehearsal: the check:evolution rehearsal from the Teste tab, to the operator's own phone. */
export const RehearsalBody = z.object({
	phone: whatsappPhoneField
})
export const RehearsalResult = z.object({
	ok: z.boolean(),
	verdict: z.string(),
	steps: z.array(z.object({ step: z.string(), required: z.boolean(), ok: z.boolean(), answer: z.string(), note: z.string() }))
})
export type RehearsalResult = z.infer<typeof RehearsalResult>
export const rehearsalRoute = contract({
	method: 'POST',
	path: '/api/evolution-api/rehearsal',
	body: RehearsalBody,
	response: RehearsalResult,
	summary: 'Ensaio completo da Evolution API: versão, conexão, um envio ao seu número, o webhook e o eco do envio'
})

/** New settings (§9): 7 days ahead, 09:00:00, weekends off; each type's default template is the portal's own. */
export const NOTIFICATION_DEFAULTS = { dias_antecedencia: 7, horario_envio: '09:00:00', enviar_fins_semana: false } as const

/** A message template: not empty, at most 4,000 characters, only the known variables (the screen tells the same with templateProblem). */
export const NotificationTemplate = requiredText('Modelo da mensagem', 4000, TEMPLATE_REQUIRED).superRefine((v, issue) => {
	const message = unknownVariablesMessage(v)
	if (message) issue.addIssue({ code: 'custom', message })
})

const notificationFields = {
	ativo: z.boolean({ error: 'Ativo deve ser verdadeiro ou falso.' }),
	dias_antecedencia: z.number({ error: 'Dias de antecedência deve ser um número.' }).superRefine((v, issue) => {
		const message = daysAheadProblem(v)
		if (message) issue.addIssue({ code: 'custom', message })
	}),
	template_mensagem: NotificationTemplate,
	horario_envio: z
		.string({ error: 'Horário de envio inválido: use HH:MM:SS.' })
		.superRefine((v, issue) => {
			const message = sendTimeProblem(v)
			if (message) issue.addIssue({ code: 'custom', message })
		})
		.transform((v) => (v.length === 5 ? `${v}:00` : v)),
	enviar_fins_semana: z.boolean({ error: 'Enviar nos fins de semana deve ser verdadeiro ou falso.' })
}

/** POST /api/notification-settings: a type turned on for the first time; missing fields take the defaults. */
export const NotificationSettingBody = z.object({
	tipo: z.enum(NOTIFICATION_TYPES, { error: 'Tipo inválido: use whatsapp_expiracao, whatsapp_expirada ou whatsapp_boas_vindas.' }),
	...notificationFields,
	dias_antecedencia: notificationFields.dias_antecedencia.optional(),
	template_mensagem: NotificationTemplate.optional(),
	horario_envio: notificationFields.horario_envio.optional(),
	enviar_fins_semana: notificationFields.enviar_fins_semana.optional()
})
export type NotificationSettingBody = z.infer<typeof NotificationSettingBody>

/** PUT /api/notification-settings/{id}: any of the fields, each edit saved at once. */
export const NotificationSettingPatch = z
	.object(notificationFields)
	.partial()
	.refine((v) => Object.keys(v).length > 0, 'Nada para alterar.')
export type NotificationSettingPatch = z.infer<typeof NotificationSettingPatch>

export const NotificationSetting = z.object({
	id: z.number(),
	tipo: z.enum(NOTIFICATION_TYPES),
	ativo: z.boolean(),
	dias_antecedencia: z.number(),
	template_mensagem: z.string(),
	horario_envio: z.string(),
	enviar_fins_semana: z.boolean(),
	ultima_execucao: z.string().nullable()
})
export type NotificationSetting = z.infer<typeof NotificationSetting>

export const PlannedNotification = z.object({
	tipo: z.enum(NOTIFICATION_TYPES),
	empresa_codigo: z.number(),
	empresa: z.string(),
	/** Null when the company has no valid phone (it will be skipped, with the reason). */
	telefone: z.string().nullable(),
	texto: z.string(),
	motivo: z.string().nullable()
})
export type PlannedNotification = z.infer<typeof PlannedNotification>

/**
 * A company the template preview renders with: one the type tells today (its hour and what was already sent aside),
 * or, when there is none, a labelled example dated as the type would date it (`exemplo`, no company code).
 */
export const NotificationSample = z.object({
	empresa_codigo: z.number().nullable(),
	empresa: z.string(),
	exemplo: z.boolean(),
	valores: z.object({
		empresa_nome: z.string(),
		sistema: z.string(),
		data_vencimento: z.string(),
		dias_restantes: z.string(),
		representante_nome: z.string()
	})
})
export type NotificationSample = z.infer<typeof NotificationSample>

export const RunResult = figures('enviadas', 'falhas', 'ignoradas')
export type RunResult = z.infer<typeof RunResult>
/** 'Enviar agora': what this run sent, or `em_andamento` when another run is sending (this one then sends nothing). */
export const RunNowResult = RunResult.extend({ em_andamento: z.boolean() })
export type RunNowResult = z.infer<typeof RunNowResult>

/** 'Envios de hoje': what went out today (Brazil's day) and when, what is still to go, and whether a run is sending. */
export const TodaySends = z.object({
	enviadas: z.number(),
	ultimo_envio: z.string().nullable(),
	a_enviar: z.number(),
	em_andamento: z.boolean()
})
export type TodaySends = z.infer<typeof TodaySends>

export const SEND_STATUSES = ['pendente', 'enviando', 'enviada', 'falhou', 'incerta', 'ignorada'] as const
export const SendLogQuery = z.object({
	page: z.coerce.number({ error: 'page deve ser um número.' }).int().min(1, 'page deve ser no mínimo 1.').default(1),
	limit: z.coerce
		.number({ error: 'limit deve ser um número.' })
		.int()
		.min(1, 'limit deve ser no mínimo 1.')
		.max(200, 'limit deve ser no máximo 200.')
		.default(20),
	tipo: z.enum(NOTIFICATION_TYPES, { error: 'Tipo inválido.' }).optional(),
	status: z.enum(SEND_STATUSES, { error: 'Status inválido.' }).optional()
})
export const SendLogEntry = z.object({
	id: z.number(),
	tipo: z.string(),
	empresa_codigo: z.number(),
	empresa: z.string().nullable(),
	data_licenca: z.string(),
	telefone: z.string().nullable(),
	status: z.enum(SEND_STATUSES),
	tentativas: z.number(),
	message_id: z.string().nullable(),
	erro: z.string().nullable(),
	criado_em: z.string(),
	enviado_em: z.string().nullable()
})
export const SendLogPage = pagedList('entries', SendLogEntry)

export const listNotificationSettingsRoute = contract({
	method: 'GET',
	path: '/api/notification-settings',
	response: z.array(NotificationSetting),
	summary: 'Os tipos de notificação automática por WhatsApp e suas configurações'
})
export const createNotificationSettingRoute = contract({
	method: 'POST',
	path: '/api/notification-settings',
	status: 201,
	body: NotificationSettingBody,
	response: NotificationSetting,
	summary: 'Liga um tipo de notificação pela primeira vez (7 dias, 09:00:00, sem fins de semana, modelo padrão)'
})
export const updateNotificationSettingRoute = contract({
	method: 'PUT',
	path: '/api/notification-settings/:id',
	body: NotificationSettingPatch,
	response: NotificationSetting,
	summary: 'Altera um tipo de notificação (cada campo é salvo na hora)'
})
export const previewNotificationsRoute = contract({
	method: 'GET',
	path: '/api/notification-settings/preview',
	response: z.array(PlannedNotification),
	summary: 'O que o envio de hoje mandaria agora: tipo, empresa, telefone e texto'
})
export const todaySendsRoute = contract({
	method: 'GET',
	path: '/api/notification-settings/hoje',
	response: TodaySends,
	summary: 'Os envios de hoje: quantos saíram e quando, quantos faltam, e se um envio está em andamento'
})
export const notificationSamplesRoute = contract({
	method: 'GET',
	path: '/api/notification-settings/:id/amostras',
	response: z.array(NotificationSample),
	summary: 'As empresas com que a pré-visualização do modelo é mostrada: as que este tipo avisa hoje (até 50), ou um exemplo'
})
export const runNotificationsRoute = contract({
	method: 'POST',
	path: '/api/notification-settings/run',
	response: RunNowResult,
	summary: 'Roda o envio agora (respeitando o que já foi enviado) e diz quantas foram enviadas, falharam ou foram ignoradas'
})
export const sendLogRoute = contract({
	method: 'GET',
	path: '/api/notification-settings/log',
	query: SendLogQuery,
	response: SendLogPage,
	summary: 'O registro dos envios automáticos'
})
