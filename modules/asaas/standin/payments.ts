/**
 * Payments of the Asaas stand-in: creating, reading, listing, changing and removing charges, their state changes
 * (paid, overdue, refunded, chargeback) with the webhook events Asaas sends for each, the Pix QR and the boleto line.
 */
import QRCode from 'qrcode'
import { boletoNumbers, pixPayload } from '../documents'
import type { AsaasPayment, BillingType } from '../types'
import { customerOf } from './customers'
import {
	cents,
	dateTime,
	isoDate,
	json,
	notFound,
	OPEN,
	PAID,
	page,
	randomId,
	refuse,
	type Route,
	type StandinAccount,
	type StandinState,
	str,
	validDate
} from './shared'
import type { StandinWebhooks } from './webhooks'

const BILLING_TYPES: BillingType[] = ['UNDEFINED', 'BOLETO', 'CREDIT_CARD', 'PIX']

export type NewStandinPayment = Pick<AsaasPayment, 'customer' | 'billingType' | 'value' | 'dueDate' | 'description' | 'externalReference'> &
	Partial<Pick<AsaasPayment, 'installment' | 'installmentNumber'>>

export function billingTypeOf(v: unknown): BillingType {
	if (!BILLING_TYPES.includes(v as BillingType))
		refuse('invalid_billingType', 'Informe uma forma de pagamento válida: BOLETO, CREDIT_CARD, PIX ou UNDEFINED.')
	return v as BillingType
}

export function descriptionOf(v: unknown): string | null {
	const d = str(v)
	if (d && d.length > 500) refuse('invalid_description', 'A descrição da cobrança pode ter no máximo 500 caracteres.')
	return d
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {})

/** discount, fine and interest as Asaas answers them: always present, zero when not asked for. */
export function chargeTerms(body: Record<string, unknown>) {
	const discount = obj(body.discount)
	const fine = obj(body.fine)
	return {
		discount: {
			value: num(discount.value, 0),
			limitDate: null,
			dueDateLimitDays: num(discount.dueDateLimitDays, 0),
			type: discount.type === 'PERCENTAGE' ? 'PERCENTAGE' : 'FIXED'
		},
		fine: { value: num(fine.value, 0), type: fine.type === 'PERCENTAGE' ? 'PERCENTAGE' : 'FIXED' },
		interest: { value: num(obj(body.interest).value, 0), type: 'PERCENTAGE' }
	}
}

export function createPayments(state: StandinState, webhooks: StandinWebhooks) {
	const { emit } = webhooks
	const { now } = state

	function dueDateOf(v: unknown): string {
		if (!validDate(v)) return refuse('invalid_dueDate', 'Informe a data de vencimento no formato AAAA-MM-DD.')
		if (v < isoDate(now())) refuse('invalid_dueDate', 'A data de vencimento não pode ser anterior à data atual.')
		return v
	}

	function findPayment(a: StandinAccount, id: string, allowDeleted = false): AsaasPayment {
		const p = a.payments.get(id)
		if (!p || (p.deleted && !allowDeleted)) return notFound()
		return p
	}

	/** Asaas' fee in the sandbox captures: netValue = value − R$ 1,99. */
	const net = (value: number) => Math.max(0, cents(value) - 199) / 100

	/** A charge shaped like the sandbox captures: every key present, null where there is nothing. */
	function addPayment(a: StandinAccount, origin: string, fields: NewStandinPayment, terms: Record<string, unknown> = {}): AsaasPayment {
		const n = state.nextSeq()
		const token = randomId(12)
		const boleto = fields.billingType === 'BOLETO' || fields.billingType === 'UNDEFINED'
		const p = {
			object: 'payment',
			id: `pay_${randomId(16)}`,
			dateCreated: isoDate(now()),
			customer: fields.customer,
			...(fields.installment ? { installment: fields.installment } : {}),
			checkoutSession: null,
			paymentLink: null,
			value: fields.value,
			netValue: net(fields.value),
			originalValue: null,
			interestValue: null,
			description: fields.description,
			billingType: fields.billingType,
			...(boleto ? { canBePaidAfterDueDate: true } : {}),
			pixTransaction: null,
			status: 'PENDING',
			dueDate: fields.dueDate,
			originalDueDate: fields.dueDate,
			paymentDate: null,
			clientPaymentDate: null,
			confirmedDate: null,
			installmentNumber: fields.installmentNumber ?? null,
			invoiceUrl: `${origin}/i/${token}`,
			invoiceNumber: String(n).padStart(8, '0'),
			externalReference: fields.externalReference,
			deleted: false,
			anticipated: false,
			anticipable: false,
			creditDate: null,
			estimatedCreditDate: null,
			transactionReceiptUrl: null,
			nossoNumero: boleto ? String(n) : null,
			bankSlipUrl: boleto ? `${origin}/b/pdf/${token}` : null,
			lastInvoiceViewedDate: null,
			lastBankSlipViewedDate: null,
			...chargeTerms(terms),
			postalService: false,
			escrow: null,
			refunds: null
		} as AsaasPayment
		a.payments.set(p.id, p)
		state.tokens.set(token, { account: a, payment: p })
		emit(a, 'PAYMENT_CREATED', p)
		return p
	}

	/** Clock-driven changes: with overdueByItself, a PENDING charge turns OVERDUE the day after its due date. */
	function tick() {
		if (!state.modes.overdueByItself) return
		const today = isoDate(now())
		for (const a of state.accounts.values())
			for (const p of a.payments.values()) if (p.status === 'PENDING' && !p.deleted && p.dueDate < today) overdue(a, p)
	}

	function removePayment(a: StandinAccount, p: AsaasPayment) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível remover cobranças aguardando pagamento ou vencidas.')
		p.deleted = true
		emit(a, 'PAYMENT_DELETED', p)
	}

	function confirm(a: StandinAccount, p: AsaasPayment) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível confirmar cobranças aguardando pagamento ou vencidas.')
		const today = isoDate(now())
		p.clientPaymentDate = today
		p.confirmedDate = today
		if (p.billingType === 'PIX' && !state.modes.pixConfirmedFirst) {
			Object.assign(p, { status: 'RECEIVED', paymentDate: today, creditDate: today })
			emit(a, 'PAYMENT_RECEIVED', p)
			return p
		}
		p.status = 'CONFIRMED'
		emit(a, 'PAYMENT_CONFIRMED', p)
		if (p.billingType !== 'CREDIT_CARD') {
			Object.assign(p, { status: 'RECEIVED', paymentDate: today, creditDate: today })
			emit(a, 'PAYMENT_RECEIVED', p)
		}
		return p
	}

	/** PUT /payments/{id}: only an open charge changes (value, due date, description); Asaas announces PAYMENT_UPDATED. */
	function update(a: StandinAccount, p: AsaasPayment, body: Record<string, unknown>) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível alterar cobranças aguardando pagamento ou vencidas.')
		if (body.customer !== undefined && body.customer !== p.customer)
			refuse('invalid_customer', 'Não é possível alterar o cliente da cobrança.')
		if (body.value !== undefined) {
			if (typeof body.value !== 'number' || !(body.value > 0)) refuse('invalid_value', 'Informe o valor da cobrança.')
			p.value = cents(body.value as number) / 100
			p.netValue = net(p.value)
		}
		if (body.dueDate !== undefined) {
			p.dueDate = dueDateOf(body.dueDate)
			if (p.status === 'OVERDUE') p.status = 'PENDING'
		}
		if (body.description !== undefined) p.description = descriptionOf(body.description)
		emit(a, 'PAYMENT_UPDATED', p)
		return p
	}

	/** POST /payments/{id}/receiveInCash: marked paid by hand, no money moves; Asaas announces it as PAYMENT_RECEIVED. */
	function receiveInCash(a: StandinAccount, p: AsaasPayment, body: Record<string, unknown>) {
		if (!OPEN.includes(p.status)) refuse('invalid_action', 'Só é possível confirmar cobranças aguardando pagamento ou vencidas.')
		const paymentDate = body.paymentDate === undefined ? isoDate(now()) : validDate(body.paymentDate) ? body.paymentDate : null
		if (!paymentDate) return refuse('invalid_paymentDate', 'Informe a data do pagamento no formato AAAA-MM-DD.')
		if (typeof body.value !== 'number' || !(body.value > 0)) refuse('invalid_value', 'Informe o valor recebido.')
		Object.assign(p, {
			status: 'RECEIVED_IN_CASH',
			value: cents(body.value as number) / 100,
			paymentDate,
			clientPaymentDate: paymentDate,
			confirmedDate: paymentDate
		})
		emit(a, 'PAYMENT_RECEIVED', p)
		return p
	}

	function overdue(a: StandinAccount, p: AsaasPayment) {
		if (p.status !== 'PENDING') refuse('invalid_action', 'Só é possível vencer cobranças aguardando pagamento.')
		p.status = 'OVERDUE'
		emit(a, 'PAYMENT_OVERDUE', p)
		return p
	}

	function refund(a: StandinAccount, p: AsaasPayment, value: number, description: string | null) {
		if (!PAID.includes(p.status)) refuse('invalid_action', 'Só é possível estornar cobranças recebidas ou confirmadas.')
		if (!(value > 0) || cents(value) > cents(p.value))
			refuse('invalid_value', 'O valor do estorno deve ser maior que zero e no máximo o valor da cobrança.')
		p.refunds = [...(p.refunds ?? []), { dateCreated: dateTime(now()), status: 'DONE', value, description }]
		const whole = cents(value) === cents(p.value)
		if (whole) p.status = 'REFUNDED'
		emit(a, whole ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED', p)
		return p
	}

	function chargeback(a: StandinAccount, p: AsaasPayment) {
		if (!PAID.includes(p.status)) refuse('invalid_action', 'Só há chargeback de cobranças recebidas ou confirmadas.')
		p.status = 'CHARGEBACK_REQUESTED'
		p.chargeback = { status: 'REQUESTED', reason: 'ABSENCE_OF_PRINT' }
		emit(a, 'PAYMENT_CHARGEBACK_REQUESTED', p)
		return p
	}

	/** POST /payments/{id}/undoReceivedInCash: a cash receipt undone, the charge open again (PAYMENT_RECEIVED_IN_CASH_UNDONE). */
	function undoReceivedInCash(a: StandinAccount, p: AsaasPayment) {
		if (p.status !== 'RECEIVED_IN_CASH') refuse('invalid_action', 'Só é possível desfazer recebimentos em dinheiro.')
		const status = p.dueDate < isoDate(now()) ? 'OVERDUE' : 'PENDING'
		Object.assign(p, { status, paymentDate: null, clientPaymentDate: null, confirmedDate: null })
		emit(a, 'PAYMENT_RECEIVED_IN_CASH_UNDONE', p)
		return p
	}

	/** POST /payments/{id}/restore: a removed charge comes back as it was (PAYMENT_RESTORED). */
	function restore(a: StandinAccount, p: AsaasPayment) {
		if (!p.deleted) refuse('invalid_action', 'Só é possível restaurar cobranças removidas.')
		p.deleted = false
		const plan = p.installment ? a.installments.get(p.installment) : undefined
		if (plan) plan.deleted = false
		emit(a, 'PAYMENT_RESTORED', p)
		return p
	}

	/** A chargeback dispute won: the money is on its way back (PAYMENT_AWAITING_CHARGEBACK_REVERSAL). */
	function chargebackWon(a: StandinAccount, p: AsaasPayment) {
		if (p.status !== 'CHARGEBACK_REQUESTED' && p.status !== 'CHARGEBACK_DISPUTE')
			refuse('invalid_action', 'Só há disputa vencida de cobranças com chargeback.')
		p.status = 'AWAITING_CHARGEBACK_REVERSAL'
		p.chargeback = { status: 'DONE', reason: p.chargeback?.reason ?? 'ABSENCE_OF_PRINT' }
		emit(a, 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL', p)
		return p
	}

	/** A payment of any account, for the controls (which hold no key). */
	function anyPayment(id: string): { a: StandinAccount; p: AsaasPayment } {
		for (const a of state.accounts.values()) {
			const p = a.payments.get(id)
			if (p && !p.deleted) return { a, p }
		}
		return notFound()
	}

	/** The /v3/payments routes; a POST with installmentCount makes a plan through `addPlan` and answers its first parcel. */
	function routes(
		addPlan: (a: StandinAccount, origin: string, body: Record<string, unknown>, externalReference: string | null) => AsaasPayment[]
	): Route[] {
		return [
			[
				'GET',
				/^\/payments$/,
				({ a, query }) => {
					const filters = ['customer', 'externalReference', 'installment', 'status', 'billingType'] as const
					const list = [...a.payments.values()].filter(
						(p) =>
							!p.deleted &&
							filters.every((f) => !query.get(f) || p[f] === query.get(f)) &&
							(!query.get('dueDate[ge]') || p.dueDate >= (query.get('dueDate[ge]') ?? '')) &&
							(!query.get('dueDate[le]') || p.dueDate <= (query.get('dueDate[le]') ?? ''))
					)
					return json(page(list.reverse(), query))
				}
			],
			[
				'POST',
				/^\/payments$/,
				({ a, origin, body }) => {
					const externalReference = str(body.externalReference)
					if (body.installmentCount !== undefined) return json(addPlan(a, origin, { ...body, value: undefined }, externalReference)[0])
					const customer = customerOf(a, body.customer)
					const billingType = billingTypeOf(body.billingType)
					if (typeof body.value !== 'number' || !(body.value > 0)) refuse('invalid_value', 'Informe o valor da cobrança.')
					const dueDate = dueDateOf(body.dueDate)
					const value = cents(body.value as number) / 100
					return json(
						addPayment(
							a,
							origin,
							{
								customer: customer.id,
								billingType,
								value,
								dueDate,
								description: descriptionOf(body.description),
								externalReference
							},
							body
						)
					)
				}
			],
			['GET', /^\/payments\/([^/]+)$/, ({ a }, id) => json(findPayment(a, id, state.modes.deletedPayment === 'deleted-flag'))],
			['GET', /^\/payments\/([^/]+)\/status$/, ({ a }, id) => json({ status: findPayment(a, id).status })],
			['PUT', /^\/payments\/([^/]+)$/, ({ a, body }, id) => json(update(a, findPayment(a, id), body))],
			['POST', /^\/payments\/([^/]+)\/receiveInCash$/, ({ a, body }, id) => json(receiveInCash(a, findPayment(a, id), body))],
			['POST', /^\/payments\/([^/]+)\/undoReceivedInCash$/, ({ a }, id) => json(undoReceivedInCash(a, findPayment(a, id)))],
			['POST', /^\/payments\/([^/]+)\/restore$/, ({ a }, id) => json(restore(a, findPayment(a, id, true)))],
			[
				'DELETE',
				/^\/payments\/([^/]+)$/,
				({ a }, id) => {
					removePayment(a, findPayment(a, id))
					return json({ deleted: true, id })
				}
			],
			[
				'GET',
				/^\/payments\/([^/]+)\/pixQrCode$/,
				async ({ a, origin }, id) => {
					const p = findPayment(a, id)
					if (p.billingType === 'CREDIT_CARD') refuse('invalid_billingType', 'Esta cobrança não aceita pagamento via Pix.')
					if (state.modes.pixKeyRequired && !a.pixKey)
						refuse('invalid_billingType', 'Não há nenhuma chave Pix disponível para receber cobranças.')
					if (!OPEN.includes(p.status)) refuse('invalid_action', 'A cobrança não está mais aberta para pagamento via Pix.')
					const payload = pixPayload({
						location: `${new URL(origin).host}/qr/v2/${p.id}`,
						value: p.value,
						merchant: 'K LICENCAS STANDIN',
						city: 'FORTALEZA'
					})
					const png = await QRCode.toBuffer(payload, { type: 'png', margin: 2, width: 256 })
					const expiration = `${Number(p.dueDate.slice(0, 4)) + 1}${p.dueDate.slice(4)} 23:59:59`
					return json({ encodedImage: png.toString('base64'), payload, expirationDate: expiration, description: p.description })
				}
			],
			[
				'GET',
				/^\/payments\/([^/]+)\/identificationField$/,
				({ a }, id) => {
					const p = findPayment(a, id)
					if (!p.nossoNumero) refuse('invalid_billingType', 'Esta cobrança não é um boleto e não tem linha digitável.')
					return json({
						...boletoNumbers({ value: p.value, dueDate: p.dueDate, nossoNumero: p.nossoNumero as string }),
						nossoNumero: p.nossoNumero
					})
				}
			],
			[
				'POST',
				/^\/payments\/([^/]+)\/refund$/,
				({ a, body }, id) => {
					const p = findPayment(a, id)
					return json(refund(a, p, typeof body.value === 'number' ? body.value : p.value, str(body.description)))
				}
			],
			['POST', /^\/sandbox\/payment\/([^/]+)\/confirm$/, ({ a }, id) => json(confirm(a, findPayment(a, id)))],
			['POST', /^\/sandbox\/payment\/([^/]+)\/overdue$/, ({ a }, id) => json(overdue(a, findPayment(a, id)))]
		]
	}

	return { dueDateOf, findPayment, addPayment, removePayment, confirm, overdue, chargeback, chargebackWon, anyPayment, tick, routes }
}

export type StandinPayments = ReturnType<typeof createPayments>
