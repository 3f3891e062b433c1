/**
 * Installment plans of the Asaas stand-in: POST/GET /v3/installments, the plan's parcels, removing its open
 * parcels, and the carnê PDF (paymentBook).
 */
import { formatBrDate, formatBrl } from '../../core'
import { boletoNumbers, formatDigitableLine, pdfDocument } from '../documents'
import type { AsaasInstallment, AsaasPayment } from '../types'
import { customerOf } from './customers'
import { billingTypeOf, descriptionOf, type StandinPayments } from './payments'
import {
	addMonths,
	cents,
	isoDate,
	json,
	notFound,
	OPEN,
	page,
	refuse,
	type Route,
	type StandinAccount,
	type StandinState,
	str
} from './shared'

/** A PDF with one page per charge: payer, value, due date, digitable line and barcode. */
export function paymentBook(a: StandinAccount, parcels: AsaasPayment[]) {
	return pdfDocument(
		parcels.map((p) => {
			const numbers = p.nossoNumero ? boletoNumbers({ value: p.value, dueDate: p.dueDate, nossoNumero: p.nossoNumero }) : null
			const count = p.installment ? a.installments.get(p.installment)?.installmentCount : undefined
			return {
				title: p.installmentNumber ? `Carnê - parcela ${p.installmentNumber} de ${count}` : 'Boleto de cobrança',
				lines: [
					`Pagador: ${a.customers.get(p.customer)?.name ?? p.customer}`,
					`Descrição: ${p.description ?? '-'}`,
					`Valor: ${formatBrl(cents(p.value))}`,
					`Vencimento: ${formatBrDate(p.dueDate)}`,
					`Nosso número: ${p.nossoNumero ?? '-'}`,
					`Linha digitável: ${numbers ? formatDigitableLine(numbers.identificationField) : '-'}`
				],
				barCode: numbers?.barCode,
				footer: 'Documento gerado pelo simulador local do Asaas (K-Licenças): não tem valor para pagamento.'
			}
		})
	)
}

export function createInstallments(state: StandinState, payments: StandinPayments) {
	const parcelsOf = (a: StandinAccount, planId: string) =>
		[...a.payments.values()]
			.filter((p) => p.installment === planId && !p.deleted)
			.sort((x, y) => (x.installmentNumber ?? 0) - (y.installmentNumber ?? 0))

	/**
	 * A plan and its parcels, due monthly. `totalValue` is split in centavos with the remainder on the last parcel
	 * (as the sandbox capture shows: 350 in 12 → 11 × 29,16 + 29,24); `value` (or POST /payments' installmentValue)
	 * is each parcel's. `amount` is what POST /installments requires (the installmentAmount mode); POST /payments
	 * with installmentCount takes either.
	 */
	function addInstallment(
		a: StandinAccount,
		origin: string,
		body: Record<string, unknown>,
		externalReference: string | null,
		amount: 'value' | 'totalValue' | 'either' = 'either'
	) {
		const customer = customerOf(a, body.customer)
		const billingType = billingTypeOf(body.billingType)
		const count = body.installmentCount
		if (typeof count !== 'number' || !Number.isInteger(count) || count < 2 || count > 60) {
			refuse('invalid_installmentCount', 'O número de parcelas deve ser um inteiro entre 2 e 60.')
		}
		const n = count as number
		const dueDate = payments.dueDateOf(body.dueDate)
		const description = descriptionOf(body.description)
		const given = (v: unknown) => (typeof v === 'number' ? cents(v) : null)
		const total = amount === 'value' ? null : given(body.totalValue)
		const each = amount === 'totalValue' ? null : (given(body.value) ?? given(body.installmentValue))
		if (amount === 'value' && each === null) refuse('invalid_value', 'Informe o valor de cada parcela (value).')
		if (amount === 'totalValue' && total === null) refuse('invalid_totalValue', 'Informe o valor total do parcelamento (totalValue).')
		const values =
			total !== null
				? Array.from({ length: n }, (_, i) => (i < n - 1 ? Math.floor(total / n) : total - Math.floor(total / n) * (n - 1)))
				: each !== null
					? Array(n).fill(each)
					: []
		if (values.length === 0 || values.some((v) => v <= 0))
			refuse('invalid_value', 'Informe o valor total (totalValue) ou o valor de cada parcela (value).')
		const sum = values.reduce((s, v) => s + v, 0)
		const plan = {
			object: 'installment',
			id: crypto.randomUUID(),
			value: sum / 100,
			netValue: (sum - 199 * n) / 100,
			paymentValue: values[n - 1] / 100,
			installmentCount: n,
			billingType,
			paymentDate: null,
			description,
			expirationDay: Number(dueDate.slice(8)),
			deleted: false,
			dateCreated: isoDate(state.now()),
			checkoutSession: null,
			customer: customer.id,
			paymentLink: null,
			transactionReceiptUrl: null,
			creditCard: null,
			refunds: null
		} as AsaasInstallment
		a.installments.set(plan.id, plan)
		const parcels = values.map((v, i) =>
			payments.addPayment(
				a,
				origin,
				{
					customer: customer.id,
					billingType,
					value: v / 100,
					dueDate: addMonths(dueDate, i),
					description: description ?? `Parcela ${i + 1} de ${n}.`,
					externalReference,
					installment: plan.id,
					installmentNumber: i + 1
				},
				body
			)
		)
		return { plan, parcels }
	}

	const routes: Route[] = [
		[
			'POST',
			/^\/installments$/,
			({ a, origin, body }) => json(addInstallment(a, origin, body, str(body.paymentExternalReference), state.modes.installmentAmount).plan)
		],
		['GET', /^\/installments\/([^/]+)$/, ({ a }, id) => json(a.installments.get(id) ?? notFound())],
		[
			'GET',
			/^\/installments\/([^/]+)\/payments$/,
			({ a, query }, id) => {
				if (!a.installments.has(id)) notFound()
				const status = query.get('status')
				return json(
					page(
						parcelsOf(a, id).filter((p) => !status || p.status === status),
						query
					)
				)
			}
		],
		[
			'DELETE',
			/^\/installments\/([^/]+)\/payments$/,
			({ a }, id) => {
				const plan = a.installments.get(id) ?? notFound()
				const removable = parcelsOf(a, id).filter((p) => OPEN.includes(p.status))
				for (const p of removable) payments.removePayment(a, p)
				if (parcelsOf(a, id).length === 0) plan.deleted = true
				return json({ deleted: removable.length > 0, id, deletedPayments: removable })
			}
		],
		[
			'GET',
			/^\/installments\/([^/]+)\/paymentBook$/,
			({ a }, id) => {
				const plan = a.installments.get(id)
				const parcels = plan && !plan.deleted ? parcelsOf(a, id) : []
				if (parcels.length === 0) return notFound()
				return new Response(paymentBook(a, parcels), { headers: { 'content-type': 'application/pdf' } })
			}
		]
	]

	return { addInstallment, routes }
}
