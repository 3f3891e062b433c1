import { type ApiResponse, call, errorText } from '../lib/api'
import { LIVE_PACE, polling, revalidateReads, routeStore } from '../lib/query'
import { CREDIT_READS } from './credits'
import { toast } from './toast'

/** A top-bar item: a number for notification rows; "aviso-geral-N" / "aviso-individual-N" for notices. */
export type Notification = ApiResponse<'GET /api/notifications'>[number]

/** Read again every 10 s while the page is visible: a parcel paid at Asaas or a purchase credited shows in the bell. */
export const $notifications = routeStore('GET /api/notifications', undefined, polling(LIVE_PACE.notifications))

/**
 * A notification newer than those already read (a purchase credited after its buyer went on to another one) says the
 * credit figures on the open page changed: they are read again. The billing lists poll on their own.
 */
let newest: number | undefined
$notifications.listen(({ data }) => {
	if (!data) return
	const top = Math.max(0, ...data.map((n) => (typeof n.id === 'number' ? n.id : 0)))
	if (newest !== undefined && top > newest) revalidateReads(CREDIT_READS)
	newest = top
})

/** 'Marcar todas como lidas' of the top-bar dialog (1-core §8 'Notifications'). */
export async function markAllRead() {
	const unread = ($notifications.get().data ?? []).filter((n) => !n.read).map((n) => n.id)
	if (unread.length === 0) {
		toast({ title: 'Não há notificações não lidas para limpar', variant: 'info' })
		return
	}
	try {
		await call('POST /api/notifications/mark-read', { body: { notificationIds: unread } })
		await $notifications.revalidate()
		toast({ title: 'Notificações limpas com sucesso!', variant: 'success' })
	} catch (error) {
		toast({
			title: 'Erro ao limpar notificações',
			description: errorText(error, 'Erro inesperado ao limpar notificações'),
			variant: 'destructive'
		})
	}
}
