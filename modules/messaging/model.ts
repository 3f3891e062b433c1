import { z } from '../core/validators'

export const MarkReadBody = z.object({
	notificationIds: z
		.array(z.number({ error: 'Identificador de notificação inválido.' }).int().positive(), {
			error: 'notificationIds deve ser uma lista de números.'
		})
		.max(500, 'No máximo 500 notificações por vez.')
})
export type MarkReadBody = z.infer<typeof MarkReadBody>
