import { api, errorText } from '../lib/api'
import { createFetcherStore } from '../lib/query'
import { toast } from './toast'

export interface Notification {
	/** A number for notification rows; "aviso-geral-N" / "aviso-individual-N" for notices. */
	id: number | string
	title: string
	message: string
	type: 'success' | 'warning' | 'info'
	read: boolean
	created_at: string
}

export const $notifications = createFetcherStore<Notification[]>(['/api/notifications'])

/** 'Marcar todas como lidas' of the top-bar dialog (1-core §8 'Notifications'). */
export async function markAllRead() {
	const unread = ($notifications.get().data ?? []).filter((n) => !n.read).map((n) => n.id)
	if (unread.length === 0) {
		toast({ title: 'Não há notificações não lidas para limpar', variant: 'info' })
		return
	}
	try {
		await api('/api/notifications/mark-read', { method: 'POST', body: { notificationIds: unread } })
		await $notifications.revalidate()
		toast({ title: 'Notificações limpas com sucesso!', variant: 'success' })
	} catch (error) {
		toast({ title: 'Erro ao limpar notificações', description: errorText(error, 'Erro inesperado ao limpar notificações'), variant: 'destructive' })
	}
}
