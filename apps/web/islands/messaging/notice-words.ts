import type { GetRoute } from '../../lib/api'

/** The two kinds of notice and how the screen names them (kept apart from the dialog, which loads when opened). */
export type Kind = 'general' | 'individual'
export const LABEL: Record<Kind, string> = { general: 'aviso geral', individual: 'aviso individual' }
export const TITLE: Record<Kind, string> = { general: 'Aviso geral', individual: 'Aviso individual' }
/** What a notice change can change elsewhere: the lists to refetch afterwards. */
export const NOTICE_KEYS: readonly GetRoute[] = [
	'GET /api/notices/general',
	'GET /api/notices/individual',
	'GET /api/notices/recipients',
	'GET /api/notifications'
]

export interface Draft {
	id: number | null
	representante_id: string
	titulo: string
	texto: string
	urgente: boolean
	ativo: boolean
}
