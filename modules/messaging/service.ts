import { and, desc, eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notifications } from './schema'

/** The newest 50 notifications of one user. */
export function listNotifications(db: DbOrTx, userId: number) {
	return db
		.select()
		.from(notifications)
		.where(eq(notifications.user_id, userId))
		.orderBy(desc(notifications.created_at), desc(notifications.id))
		.limit(50)
		.all()
}

/** Marks as read only notifications that belong to the user; others' ids are ignored. */
export function markNotificationsRead(db: DbOrTx, userId: number, ids: number[]): number {
	if (ids.length === 0) return 0
	return db
		.update(notifications)
		.set({ read: true })
		.where(and(eq(notifications.user_id, userId), inArray(notifications.id, ids), eq(notifications.read, false)))
		.returning({ id: notifications.id })
		.all().length
}
