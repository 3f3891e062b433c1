import { desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { type Clock, can } from '../core'
import { notFound, writeTransaction } from '../core/server'
import type { Download, DownloadBody } from './model'
import { downloads } from './schema'

/** Administrators see every download; everyone else only the active ones. */
export async function listDownloads(db: DbOrTx, user: SessionUser): Promise<Download[]> {
	return await db
		.select()
		.from(downloads)
		.where(can(user.tipo, 'downloads.manage') ? undefined : eq(downloads.ativo, 1))
		.orderBy(desc(downloads.data), desc(downloads.id))
}

export function saveDownload(db: DbOrTx, clock: Clock, user: SessionUser, body: DownloadBody, id?: number): Promise<Download> {
	return writeTransaction(db, async (tx) => {
		let saved: typeof downloads.$inferSelect | undefined
		if (id === undefined) {
			saved = (
				await tx
					.insert(downloads)
					.values({ ...body, data: clock.now().toISOString() })
					.returning()
			)[0]
		} else {
			saved = (await tx.update(downloads).set(body).where(eq(downloads.id, id)).returning())[0]
			if (!saved) throw notFound('Download não encontrado.')
		}
		await logActivity(
			tx,
			clock,
			id === undefined ? 'downloads.created' : 'downloads.updated',
			{ titulo: body.titulo },
			{ actor: user, entityId: saved.id }
		)
		return saved
	})
}

export async function deleteDownload(db: DbOrTx, clock: Clock, user: SessionUser, id: number) {
	await writeTransaction(db, async (tx) => {
		const removed = (await tx.delete(downloads).where(eq(downloads.id, id)).returning())[0]
		if (!removed) throw notFound('Download não encontrado.')
		await logActivity(tx, clock, 'downloads.deleted', { titulo: removed.titulo }, { actor: user, entityId: id })
	})
}
