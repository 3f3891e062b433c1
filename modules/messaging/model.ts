import { IdParams, MessageResponse, cnpjField, contract, dateField, requiredText, z } from '../core'

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
	response: z.object({ message: z.string(), updated: z.number() }),
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
	params: IdParams,
	body: GeneralNoticeBody,
	response: GeneralNotice,
	summary: 'Atualiza um aviso geral'
})
export const deleteGeneralNoticeRoute = contract({
	method: 'DELETE',
	path: '/api/notices/general/:id',
	params: IdParams,
	response: MessageResponse,
	summary: 'Exclui um aviso geral'
})
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
	params: IdParams,
	body: IndividualNoticeBody,
	response: IndividualNotice,
	summary: 'Atualiza um aviso individual'
})
export const deleteIndividualNoticeRoute = contract({
	method: 'DELETE',
	path: '/api/notices/individual/:id',
	params: IdParams,
	response: MessageResponse,
	summary: 'Exclui um aviso individual'
})

/** The gateway's connection as the API tab shows it (3-billing-messaging §3 'Gateway status'). */
export const GatewayStatus = z.object({
	connected: z.boolean(),
	/** The instance's state (open, close, connecting), or nao_configurado / erro. */
	status: z.string(),
	message: z.string().nullable()
})
export type GatewayStatus = z.infer<typeof GatewayStatus>

const INCOMPLETE = 'Dados incompletos: Telefone e mensagem são obrigatórios'

/** POST /api/evolution-api/test (§5): both required; the phone as country code + area code + number. */
export const TestSendBody = z.object({
	phone: z
		.string({ error: INCOMPLETE })
		.transform((v) => v.replace(/\D/g, ''))
		.refine((v) => v.length > 0, INCOMPLETE)
		.refine(
			(v) => v.length >= 10 && v.length <= 15,
			'Telefone inválido: use código do país, DDD e número, só dígitos (ex.: 5585999999999).'
		),
	message: z
		.string({ error: INCOMPLETE })
		.transform((v) => v.trim())
		.refine((v) => v.length > 0, INCOMPLETE)
		.refine((v) => v.length <= 4000, 'Mensagem: no máximo 4.000 caracteres.')
})
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
