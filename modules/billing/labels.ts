import { valuesOf } from '../core'

/**
 * The carnês' states and their words as plain data, without the schema library: the billing list screens read them on
 * first load, so pages without a form do not carry zod (issue 15). Re-exported by model.ts like the rest.
 */
/** What can happen to a parcel, as the payment history names it (3-billing-messaging §4). */
export const EVENT_LABELS = {
	pagamento: 'Pagamento',
	cancelamento: 'Cancelamento',
	estorno: 'Estorno',
	vencimento: 'Vencimento'
}
export const EVENT_TYPES = valuesOf(EVENT_LABELS)
export type EventType = (typeof EVENT_TYPES)[number]

/** Status labels (3-billing-messaging §4): the monitor says 'Indefinido' where the carnê view says 'Pendente'. */
export function parcelStatusLabel(status: string, where: 'carne' | 'monitor' = 'monitor'): string {
	if (status === 'RECEIVED' || status === 'CONFIRMED' || status === 'RECEIVED_IN_CASH' || status === 'DUNNING_RECEIVED') return 'Pago'
	if (status === 'PENDING') return 'Pendente'
	if (status === 'OVERDUE') return 'Vencido'
	if (status === 'CANCELED' || status === 'REMOVED') return 'Cancelado'
	return where === 'carne' ? 'Pendente' : 'Indefinido'
}
export const canActOnParcel = (status: string) => status === 'PENDING' || status === 'OVERDUE'
