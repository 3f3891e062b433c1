import { cnpjField, dateField, requiredText, z } from '../core'

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
	z
		.union([z.literal(0), z.literal(1), z.boolean()], { error: `${label}: use 0 ou 1.` })
		.transform((v) => (v === true || v === 1 ? 1 : 0))

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
