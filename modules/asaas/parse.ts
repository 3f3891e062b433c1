/**
 * Lenient readers of Asaas' answers: unknown keys are kept, absent or null optional fields become null, numbers
 * sent as strings are read as numbers; only what the portal cannot do without (an id, a status, a value, a real
 * due date, a list's data) must be there. Anything else is a bad answer (ParseError), never a crash later on.
 */
import type {
	AsaasCustomer,
	AsaasDeleted,
	AsaasIdentificationField,
	AsaasInstallment,
	AsaasList,
	AsaasPayment,
	AsaasPixQrCode,
	AsaasWebhook,
	BillingType,
	InstallmentPaymentsDeleted,
	PaymentEvent,
	PaymentStatus
} from './types'

/** An answer without what the portal needs; `field` names what was missing or wrong. */
export class ParseError extends Error {
	constructor(readonly field: string) {
		super(`Resposta do Asaas sem o campo ${field} esperado.`)
	}
}

type Raw = Record<string, unknown>

function record(v: unknown, what: string): Raw {
	if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ParseError(what)
	return v as Raw
}
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null)
const number = (v: unknown) =>
	typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : null
const bool = (v: unknown) => v === true || v === 'true'
function need<T>(v: T | null, field: string): T {
	if (v === null || v === '') throw new ParseError(field)
	return v
}
/** YYYY-MM-DD of a real day. */
const realDate = (v: unknown) => {
	const s = text(v)?.slice(0, 10) ?? null
	const day = s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T00:00:00Z`) : null
	return s && day && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(s) ? s : null
}

export function parseList<T>(v: unknown, item: (x: unknown) => T): AsaasList<T> {
	const o = record(v, 'lista')
	if (!Array.isArray(o.data)) throw new ParseError('data')
	const data = o.data.map(item)
	return {
		object: 'list',
		hasMore: bool(o.hasMore),
		totalCount: number(o.totalCount) ?? data.length,
		limit: number(o.limit) ?? data.length,
		offset: number(o.offset) ?? 0,
		data
	}
}

export function parsePayment(v: unknown): AsaasPayment {
	const o = record(v, 'cobrança')
	const value = need(number(o.value), 'value')
	const dueDate = need(realDate(o.dueDate), 'dueDate')
	return {
		...o,
		object: 'payment',
		id: need(text(o.id), 'id'),
		dateCreated: text(o.dateCreated) ?? '',
		customer: text(o.customer) ?? '',
		installment: text(o.installment),
		installmentNumber: number(o.installmentNumber),
		value,
		netValue: number(o.netValue) ?? value,
		description: text(o.description),
		billingType: (text(o.billingType) ?? 'UNDEFINED') as BillingType,
		status: need(text(o.status), 'status') as PaymentStatus,
		dueDate,
		originalDueDate: realDate(o.originalDueDate) ?? dueDate,
		paymentDate: realDate(o.paymentDate),
		clientPaymentDate: realDate(o.clientPaymentDate),
		confirmedDate: realDate(o.confirmedDate),
		creditDate: realDate(o.creditDate),
		invoiceUrl: text(o.invoiceUrl) ?? '',
		bankSlipUrl: text(o.bankSlipUrl),
		invoiceNumber: text(o.invoiceNumber) ?? '',
		nossoNumero: text(o.nossoNumero),
		externalReference: text(o.externalReference),
		deleted: bool(o.deleted),
		refunds: Array.isArray(o.refunds) ? (o.refunds as AsaasPayment['refunds']) : null
	}
}

export function parseCustomer(v: unknown): AsaasCustomer {
	const o = record(v, 'cliente')
	const cpfCnpj = text(o.cpfCnpj) ?? ''
	return {
		...o,
		object: 'customer',
		id: need(text(o.id), 'id'),
		dateCreated: text(o.dateCreated) ?? '',
		name: text(o.name) ?? '',
		cpfCnpj,
		personType: o.personType === 'FISICA' || (o.personType === undefined && cpfCnpj.length === 11) ? 'FISICA' : 'JURIDICA',
		notificationDisabled: bool(o.notificationDisabled),
		deleted: bool(o.deleted)
	}
}

export function parseInstallment(v: unknown): AsaasInstallment {
	const o = record(v, 'parcelamento')
	const value = need(number(o.value), 'value')
	return {
		...o,
		object: 'installment',
		id: need(text(o.id), 'id'),
		value,
		netValue: number(o.netValue) ?? value,
		paymentValue: number(o.paymentValue) ?? 0,
		installmentCount: number(o.installmentCount) ?? 0,
		billingType: (text(o.billingType) ?? 'UNDEFINED') as BillingType,
		paymentDate: realDate(o.paymentDate),
		description: text(o.description),
		expirationDay: number(o.expirationDay) ?? 0,
		dateCreated: text(o.dateCreated) ?? '',
		customer: text(o.customer) ?? '',
		deleted: bool(o.deleted)
	}
}

export function parseDeleted(v: unknown): AsaasDeleted {
	const o = record(v, 'remoção')
	return { ...o, deleted: bool(o.deleted), id: need(text(o.id), 'id') }
}

export function parseInstallmentPaymentsDeleted(v: unknown): InstallmentPaymentsDeleted {
	const o = record(v, 'remoção')
	const removed = Array.isArray(o.deletedPayments) ? o.deletedPayments : []
	return {
		...parseDeleted(o),
		deletedPayments: removed.map((p) => ({ ...record(p, 'deletedPayments'), id: need(text(record(p, 'deletedPayments').id), 'id') }))
	}
}

export function parsePixQrCode(v: unknown): AsaasPixQrCode {
	const o = record(v, 'QR Code Pix')
	return {
		encodedImage: need(text(o.encodedImage), 'encodedImage'),
		payload: need(text(o.payload), 'payload'),
		expirationDate: text(o.expirationDate) ?? '',
		description: text(o.description)
	}
}

export function parseIdentificationField(v: unknown): AsaasIdentificationField {
	const o = record(v, 'linha digitável')
	const digits = (x: unknown) => text(x)?.replace(/\D/g, '') ?? null
	return {
		identificationField: need(digits(o.identificationField), 'identificationField'),
		nossoNumero: text(o.nossoNumero) ?? '',
		barCode: digits(o.barCode) ?? ''
	}
}

export function parsePaymentStatus(v: unknown): { status: PaymentStatus } {
	return { status: need(text(record(v, 'situação').status), 'status') as PaymentStatus }
}

export function parseWebhook(v: unknown): AsaasWebhook {
	const o = record(v, 'webhook')
	return {
		...o,
		object: 'webhook',
		id: need(text(o.id), 'id'),
		name: text(o.name) ?? '',
		url: text(o.url) ?? '',
		email: text(o.email),
		enabled: o.enabled === undefined ? true : bool(o.enabled),
		interrupted: bool(o.interrupted),
		apiVersion: 3,
		hasAuthToken: bool(o.hasAuthToken),
		sendType: o.sendType === 'NON_SEQUENTIALLY' ? 'NON_SEQUENTIALLY' : 'SEQUENTIALLY',
		events: Array.isArray(o.events) ? o.events.filter((e): e is string => typeof e === 'string') : [],
		penalizedRequestsCount: number(o.penalizedRequestsCount) ?? 0
	}
}

/**
 * A webhook delivery: its id (the dedup key), event name and date, and the payment when the event is a payment's
 * (null for other categories, e.g. INVOICE_CREATED or SUBSCRIPTION_CREATED).
 */
export function parseEvent(v: unknown): { id: string; event: string; dateCreated: string; payment: AsaasPayment | null } {
	const o = record(v, 'evento')
	const event = need(text(o.event), 'event')
	return {
		id: need(text(o.id), 'id'),
		event: event as PaymentEvent,
		dateCreated: text(o.dateCreated) ?? '',
		payment: event.startsWith('PAYMENT_') && o.payment !== undefined ? parsePayment(o.payment) : null
	}
}
