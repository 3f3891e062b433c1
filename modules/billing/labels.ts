import { valuesOf } from '../core'

/**
 * The billing words (the carnês' states, the Asaas settings' messages) as plain data, without the schema library: the
 * billing screens read them on first load, so they do not carry zod (issue 15). Re-exported by the model files.
 */
/** What can happen to a parcel, as the payment history names it (3-billing-messaging §4). */
export const EVENT_LABELS = {
	pagamento: 'Pagamento',
	cancelamento: 'Cancelamento',
	estorno: 'Estorno',
	vencimento: 'Vencimento',
	pagamento_desfeito: 'Pagamento desfeito',
	restauracao: 'Restauração',
	disputa_vencida: 'Disputa vencida',
	renovacao: 'Renovação da licença'
}
export const EVENT_TYPES = valuesOf(EVENT_LABELS)
export type EventType = (typeof EVENT_TYPES)[number]

/** The states of a carnê, from its creation at Asaas to its end. */
export const CARNE_STATUSES = ['criando', 'ativo', 'quitado', 'cancelado'] as const

/** Asaas statuses of a parcel that can still be paid (and sent, removed, shown with its boleto). */
export const OPEN_STATUSES = ['PENDING', 'OVERDUE'] as const
/** Asaas statuses the portal reads as paid (integrations.md §1.5); a dispute won (AWAITING_CHARGEBACK_REVERSAL) is money kept. */
export const PAID_STATUSES = ['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'DUNNING_RECEIVED', 'AWAITING_CHARGEBACK_REVERSAL'] as const

export const isPaid = (status: string) => (PAID_STATUSES as readonly string[]).includes(status)
/** An open parcel: one a person can still act on (send, remove, pay). */
export const canActOnParcel = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status)

/**
 * Status labels (3-billing-messaging §4): the monitor says 'Indefinido' where the carnê view says 'Pendente'. Money sent
 * back is said as such everywhere (issue 34, point 9): a refund is 'Estornado' (or on its way), a chargeback 'Em disputa'.
 */
export function parcelStatusLabel(status: string, where: 'carne' | 'monitor' = 'monitor'): string {
	if (isPaid(status)) return 'Pago'
	if (status === 'PENDING') return 'Pendente'
	if (status === 'OVERDUE') return 'Vencido'
	if (status === 'CANCELED' || status === 'REMOVED') return 'Cancelado'
	if (status === 'REFUNDED') return 'Estornado'
	if (status === 'REFUND_REQUESTED' || status === 'REFUND_IN_PROGRESS') return 'Estorno em andamento'
	if (status === 'CHARGEBACK_REQUESTED' || status === 'CHARGEBACK_DISPUTE') return 'Em disputa'
	return where === 'carne' ? 'Pendente' : 'Indefinido'
}

/** The Asaas settings' own messages (3-billing-messaging §2), shown by the forms before the server would answer them. */
export const MESSAGES = {
	keyRequired: 'Campo obrigatório: A chave API do Asaas é obrigatória quando a integração está ativada.',
	keyMissingForTest: 'Configuração incompleta: Insira a chave API antes de testar a configuração.',
	chooseRepresentative: 'Erro: Selecione um representante.'
}
