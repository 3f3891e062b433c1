import type { DbOrTx } from '../../db/client'
import type { Clock } from '../core'
import { ACTIVITY_EVENTS, type ActivityEvent, type ActivityParams } from './events'
import { activities } from './schema'

/** Who did it, to which record, and whose data it touched (a representative's feed shows only their own). */
export interface ActivityMeta {
	actor?: { id: number; nome: string } | null
	/** Who did it when it was not a user (e.g. 'Bot WhatsApp'). */
	actorName?: string
	entityId?: string | number
	representanteCnpj?: string | null
}

/** Writes one line of the activity log; call it inside the transaction of the change it records. */
export async function logActivity<E extends ActivityEvent>(
	db: DbOrTx,
	clock: Clock,
	event: E,
	params: ActivityParams<E>,
	meta: ActivityMeta = {}
) {
	const shape = ACTIVITY_EVENTS[event] as {
		type: string | ((p: unknown) => string)
		icon: (typeof activities.$inferInsert)['icon']
		entity: string
		title: string | ((p: unknown) => string)
		subtitle: (p: unknown) => string
	}
	await db.insert(activities).values({
		created_at: clock.now().toISOString(),
		event,
		user_id: meta.actor?.id ?? null,
		user_nome: meta.actor?.nome ?? meta.actorName ?? null,
		type: (typeof shape.type === 'function' ? shape.type(params) : shape.type) as (typeof activities.$inferInsert)['type'],
		icon: shape.icon,
		title: typeof shape.title === 'function' ? shape.title(params) : shape.title,
		subtitle: shape.subtitle(params),
		entity: shape.entity,
		entity_id: meta.entityId == null ? null : String(meta.entityId),
		representante_cnpj: meta.representanteCnpj ?? null
	})
}
