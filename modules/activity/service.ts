import type { DbOrTx } from '../../db/client'
import type { Clock } from '../core'
import { activities } from './schema'

export type ActivityType = (typeof activities.$inferInsert)['type']
export type ActivityIcon = (typeof activities.$inferInsert)['icon']

export interface ActivityEntry {
	type: ActivityType
	icon: ActivityIcon
	title: string
	subtitle?: string
	actor?: { id: number; nome: string } | null
	entity?: string
	entityId?: string | number
	representanteCnpj?: string | null
}

/** Writes one line of the activity log; call it inside the transaction of the change it records. */
export function logActivity(db: DbOrTx, clock: Clock, entry: ActivityEntry) {
	db.insert(activities)
		.values({
			created_at: clock.now().toISOString(),
			user_id: entry.actor?.id ?? null,
			user_nome: entry.actor?.nome ?? null,
			type: entry.type,
			icon: entry.icon,
			title: entry.title,
			subtitle: entry.subtitle ?? '',
			entity: entry.entity ?? null,
			entity_id: entry.entityId == null ? null : String(entry.entityId),
			representante_cnpj: entry.representanteCnpj ?? null
		})
		.run()
}
