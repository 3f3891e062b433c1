import { and, desc, eq, inArray, or } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { type SessionUser, users } from '../auth'
import type { Clock } from '../core'
import { writeTransaction } from '../core/server'
import { NOTICE_ITEM_ID } from './model'
import { markNoticesRead, noticeItemsFor } from './notices'
import { notifications } from './schema'

/**
 * The top-bar list: the user's newest notification rows plus the active notices addressed to them
 * (general ones, and their own individual ones), newest first, 50 at most.
 */
export async function listNotifications(db: DbOrTx, user: Pick<SessionUser, 'id' | 'cnpj'>) {
	const rows = await db
		.select({
			id: notifications.id,
			title: notifications.title,
			message: notifications.message,
			type: notifications.type,
			read: notifications.read,
			link: notifications.link,
			created_at: notifications.created_at
		})
		.from(notifications)
		.where(eq(notifications.user_id, user.id))
		.orderBy(desc(notifications.created_at), desc(notifications.id))
		.limit(50)
	const items: {
		id: number | string
		title: string
		message: string
		type: string
		read: boolean
		link?: string | null
		created_at: string
	}[] = [...rows, ...(await noticeItemsFor(db, user))]
	return items.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).slice(0, 50)
}

/**
 * Marks as read only what belongs to the user: numeric ids are the user's notification rows (others'
 * ids are ignored), "aviso-…" ids are notices the user can see, remembered per user.
 */
export function markNotificationsRead(
	db: Db,
	clock: Clock,
	user: Pick<SessionUser, 'id' | 'cnpj'>,
	ids: (number | string)[]
): Promise<number> {
	const rowIds = ids.filter((id): id is number => typeof id === 'number')
	const noticeIds = ids.flatMap((id) => {
		const m = typeof id === 'string' ? NOTICE_ITEM_ID.exec(id) : null
		return m ? [{ tipo: m[1] as 'geral' | 'individual', id: Number(m[2]) }] : []
	})
	return writeTransaction(db, async (tx) => {
		let updated = 0
		if (rowIds.length > 0) {
			updated += (
				await tx
					.update(notifications)
					.set({ read: true })
					.where(and(eq(notifications.user_id, user.id), inArray(notifications.id, rowIds), eq(notifications.read, false)))
					.returning({ id: notifications.id })
			).length
		}
		return updated + (await markNoticesRead(tx, clock, user, noticeIds))
	})
}

/**
 * A top-bar notification for the administradores (with `administradores`) and for the users of one representative
 * (`representanteCnpj`: whoever signs in with that CNPJ), written in the caller's transaction; `link`: a page of the
 * portal that acts on it.
 */
export async function notifyUsers(
	tx: DbOrTx,
	clock: Clock,
	to: { administradores?: boolean; representanteCnpj?: string | null },
	title: string,
	message: string,
	type: 'success' | 'warning' | 'info' = 'info',
	link: string | null = null
): Promise<number> {
	const who = [
		to.administradores ? eq(users.tipo, 'administrador') : undefined,
		to.representanteCnpj ? and(eq(users.tipo, 'representante'), eq(users.cnpj, to.representanteCnpj)) : undefined
	].filter(Boolean)
	if (who.length === 0) return 0
	const recipients = await tx
		.select({ id: users.id })
		.from(users)
		.where(or(...who))
	if (recipients.length === 0) return 0
	const created_at = clock.now().toISOString()
	await tx.insert(notifications).values(recipients.map((u) => ({ user_id: u.id, title, message, type, link, created_at })))
	return recipients.length
}
