/** The subset of the Asaas API v3 that the client and the stand-in both speak (integrations.md Part 1). */

export type BillingType = 'UNDEFINED' | 'BOLETO' | 'CREDIT_CARD' | 'PIX'

export type PaymentStatus =
	| 'PENDING'
	| 'RECEIVED'
	| 'CONFIRMED'
	| 'OVERDUE'
	| 'REFUNDED'
	| 'RECEIVED_IN_CASH'
	| 'REFUND_REQUESTED'
	| 'REFUND_IN_PROGRESS'
	| 'CHARGEBACK_REQUESTED'
	| 'CHARGEBACK_DISPUTE'
	| 'AWAITING_CHARGEBACK_REVERSAL'
	| 'DUNNING_REQUESTED'
	| 'DUNNING_RECEIVED'
	| 'AWAITING_RISK_ANALYSIS'
	| 'AUTHORIZED'

/**
 * The money went back, or is being claimed back: refunds and chargebacks until decided. AWAITING_CHARGEBACK_REVERSAL
 * is a dispute won, the money on its way back (integrations.md, corrections 7): not a reversal.
 */
const REVERSED_STATUSES: readonly string[] = [
	'REFUNDED',
	'REFUND_REQUESTED',
	'REFUND_IN_PROGRESS',
	'CHARGEBACK_REQUESTED',
	'CHARGEBACK_DISPUTE'
]
export const isReversed = (status: string) => REVERSED_STATUSES.includes(status)

/** Every payment event Asaas can deliver; a back-office registers its webhook for these. */
export const PAYMENT_EVENTS = [
	'PAYMENT_CREATED',
	'PAYMENT_AWAITING_RISK_ANALYSIS',
	'PAYMENT_APPROVED_BY_RISK_ANALYSIS',
	'PAYMENT_REPROVED_BY_RISK_ANALYSIS',
	'PAYMENT_AUTHORIZED',
	'PAYMENT_UPDATED',
	'PAYMENT_CONFIRMED',
	'PAYMENT_RECEIVED',
	'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED',
	'PAYMENT_ANTICIPATED',
	'PAYMENT_OVERDUE',
	'PAYMENT_DELETED',
	'PAYMENT_RESTORED',
	'PAYMENT_REFUNDED',
	'PAYMENT_PARTIALLY_REFUNDED',
	'PAYMENT_REFUND_IN_PROGRESS',
	'PAYMENT_REFUND_DENIED',
	'PAYMENT_RECEIVED_IN_CASH_UNDONE',
	'PAYMENT_CHARGEBACK_REQUESTED',
	'PAYMENT_CHARGEBACK_DISPUTE',
	'PAYMENT_AWAITING_CHARGEBACK_REVERSAL',
	'PAYMENT_DUNNING_RECEIVED',
	'PAYMENT_DUNNING_REQUESTED',
	'PAYMENT_BANK_SLIP_VIEWED',
	'PAYMENT_CHECKOUT_VIEWED',
	'PAYMENT_BANK_SLIP_CANCELLED',
	'PAYMENT_SPLIT_CANCELLED',
	'PAYMENT_SPLIT_DIVERGENCE_BLOCK',
	'PAYMENT_SPLIT_DIVERGENCE_BLOCK_FINISHED'
] as const
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number]

export interface AsaasList<T> {
	object: 'list'
	hasMore: boolean
	totalCount: number
	limit: number
	offset: number
	data: T[]
}

export interface AsaasDeleted {
	deleted: boolean
	id: string
}

export interface NewCustomer {
	name: string
	/** Digits only. */
	cpfCnpj: string
	email?: string
	phone?: string
	mobilePhone?: string
	postalCode?: string
	address?: string
	addressNumber?: string
	complement?: string
	province?: string
	externalReference?: string
	/** True when the back-office sends its own reminders and Asaas must not e-mail or text the customer. */
	notificationDisabled?: boolean
	observations?: string
}

/** Asaas answers every optional field, null when empty (the sandbox capture). */
export type AsaasCustomer = {
	[K in Exclude<keyof NewCustomer, 'name' | 'cpfCnpj' | 'notificationDisabled'>]?: string | null
} & {
	object: 'customer'
	id: string
	dateCreated: string
	name: string
	cpfCnpj: string
	personType: 'FISICA' | 'JURIDICA'
	notificationDisabled: boolean
	deleted: boolean
}

export interface Discount {
	value: number
	dueDateLimitDays?: number
	type?: 'FIXED' | 'PERCENTAGE'
}

export interface NewPayment {
	customer: string
	billingType: BillingType
	/** BRL, e.g. 100.9. For an installment plan send installmentCount with totalValue or installmentValue instead. */
	value?: number
	/** YYYY-MM-DD */
	dueDate: string
	description?: string
	externalReference?: string
	daysAfterDueDateToRegistrationCancellation?: number
	discount?: Discount
	interest?: { value: number }
	fine?: { value: number; type?: 'FIXED' | 'PERCENTAGE' }
	installmentCount?: number
	installmentValue?: number
	totalValue?: number
}

export interface AsaasRefund {
	dateCreated: string
	status: 'PENDING' | 'CANCELLED' | 'DONE'
	value: number
	description: string | null
}

export interface AsaasPayment {
	object: 'payment'
	id: string
	dateCreated: string
	customer: string
	/** The plan's id when the payment is a parcel (omitted otherwise, as in the sandbox capture). */
	installment?: string | null
	/** null on a single charge. */
	installmentNumber?: number | null
	value: number
	netValue: number
	description: string | null
	billingType: BillingType
	status: PaymentStatus
	dueDate: string
	originalDueDate: string
	paymentDate: string | null
	clientPaymentDate: string | null
	confirmedDate: string | null
	creditDate: string | null
	invoiceUrl: string
	bankSlipUrl: string | null
	invoiceNumber: string
	nossoNumero: string | null
	externalReference: string | null
	deleted: boolean
	refunds: AsaasRefund[] | null
	chargeback?: { status: string; reason: string }
}

export interface PaymentFilters {
	customer?: string
	externalReference?: string
	installment?: string
	status?: PaymentStatus
	billingType?: BillingType
	'dueDate[ge]'?: string
	'dueDate[le]'?: string
	offset?: number
	/** At most 100 (Asaas' cap); Asaas' default is 10. */
	limit?: number
}

export interface NewInstallment {
	customer: string
	billingType: BillingType
	installmentCount: number
	/** Asaas splits it: equal parcels in centavos, the remainder on the last one. */
	totalValue?: number
	/** Per-parcel value, instead of totalValue. */
	value?: number
	/** First parcel, YYYY-MM-DD; the next ones fall monthly after it. */
	dueDate: string
	description?: string
	/** Written into every parcel's externalReference. */
	paymentExternalReference?: string
	daysAfterDueDateToRegistrationCancellation?: number
}

export interface AsaasInstallment {
	object: 'installment'
	id: string
	/** The plan's total. */
	value: number
	netValue: number
	paymentValue: number
	installmentCount: number
	billingType: BillingType
	paymentDate: string | null
	description: string | null
	expirationDay: number
	dateCreated: string
	customer: string
	deleted: boolean
}

export interface InstallmentPaymentsDeleted extends AsaasDeleted {
	/** Only `id` is relied upon: the removed parcels. */
	deletedPayments: { id: string }[]
}

export interface AsaasPixQrCode {
	/** Base64 PNG, without a data: prefix. */
	encodedImage: string
	/** The Pix copia-e-cola string. */
	payload: string
	expirationDate: string
	description?: string | null
}

export interface AsaasIdentificationField {
	/** The 47-digit digitable line, digits only. */
	identificationField: string
	nossoNumero: string
	/** The 44-digit barcode. */
	barCode: string
}

export type WebhookSendType = 'SEQUENTIALLY' | 'NON_SEQUENTIALLY'

export interface WebhookInput {
	name: string
	url: string
	email?: string
	enabled?: boolean
	/** false reactivates a queue Asaas paused after 15 failed deliveries. */
	interrupted?: boolean
	apiVersion?: 3
	/** Sent back on every delivery in the `asaas-access-token` header; 32 to 255 characters, no spaces. */
	authToken?: string
	sendType: WebhookSendType
	events: string[]
}

export interface AsaasWebhook {
	object: 'webhook'
	id: string
	name: string
	url: string
	email: string | null
	enabled: boolean
	interrupted: boolean
	apiVersion: 3
	hasAuthToken: boolean
	sendType: WebhookSendType
	events: string[]
	penalizedRequestsCount: number
}

/** What Asaas POSTs to a webhook. Other event categories carry other keys; this is the payment one. */
export interface AsaasEvent {
	/** The dedup key: the same event may arrive more than once. */
	id: string
	event: PaymentEvent
	dateCreated: string
	payment: AsaasPayment
}
