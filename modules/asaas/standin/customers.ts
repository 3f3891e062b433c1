/** Customers of the Asaas stand-in: GET/POST /v3/customers, GET/PUT /v3/customers/{id}. */
import type { AsaasCustomer } from '../types'
import { isoDate, json, notFound, page, refuse, type Route, type StandinAccount, type StandinState, str } from './shared'

/**
 * A CPF (11 digits) or a CNPJ (14 characters: since July 2026 the first 12 may be letters, each worth its ASCII code
 * minus 48 in the check digits, as the Receita Federal defines them).
 */
function validCpfCnpj(doc: string): boolean {
	if (!/^(\d{11}|[0-9A-Z]{12}\d{2})$/.test(doc) || /^(.)\1+$/.test(doc)) return false
	const dv = (weights: number[]) => {
		const r = weights.reduce((sum, w, i) => sum + w * (doc.charCodeAt(i) - 48), 0) % 11
		return r < 2 ? 0 : 11 - r
	}
	if (doc.length === 11)
		return dv([10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[9]) && dv([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[10])
	return dv([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[12]) && dv([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(doc[13])
}
/** A CPF or CNPJ as sent, without its mask: letters of an alphanumeric CNPJ are kept (upper case). */
const bareDocument = (doc: string) => doc.replace(/[^0-9A-Za-z]/g, '').toUpperCase()

/** The text fields PUT /customers/{id} changes as given (a blank one empties it). */
const EDITABLE = [
	'email',
	'phone',
	'mobilePhone',
	'address',
	'addressNumber',
	'complement',
	'province',
	'postalCode',
	'externalReference',
	'observations'
] as const

/** The live customer `id` of the account, or Asaas' refusal. */
export function customerOf(a: StandinAccount, id: unknown): AsaasCustomer {
	const c = typeof id === 'string' ? a.customers.get(id) : undefined
	if (!c || c.deleted) return refuse('invalid_customer', 'O cliente informado não existe ou foi removido.')
	return c
}

export function customerRoutes(state: StandinState): Route[] {
	return [
		[
			'GET',
			/^\/customers$/,
			({ a, query }) => {
				const filters = ['cpfCnpj', 'externalReference', 'email'] as const
				const list = [...a.customers.values()].filter(
					(c) =>
						!c.deleted &&
						filters.every((f) => !query.get(f) || c[f] === query.get(f)) &&
						(!query.get('name') || c.name.includes(query.get('name') ?? ''))
				)
				return json(page(list.reverse(), query))
			}
		],
		[
			'POST',
			/^\/customers$/,
			({ a, body }) => {
				const name = str(body.name) ?? refuse('invalid_name', 'Informe o nome do cliente.')
				const cpfCnpj = typeof body.cpfCnpj === 'string' ? bareDocument(body.cpfCnpj) : ''
				if (!validCpfCnpj(cpfCnpj)) refuse('invalid_object', 'O CPF/CNPJ informado é inválido.')
				const text = (k: string) => str(body[k])
				// Shaped like the sandbox capture: every key present, null where nothing was given.
				const c = {
					object: 'customer',
					id: `cus_${String(state.nextSeq()).padStart(12, '0')}`,
					dateCreated: isoDate(state.now()),
					name,
					email: text('email'),
					company: text('company'),
					phone: text('phone'),
					mobilePhone: text('mobilePhone'),
					address: text('address'),
					addressNumber: text('addressNumber'),
					complement: text('complement'),
					province: text('province'),
					postalCode: text('postalCode'),
					cpfCnpj,
					personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
					deleted: false,
					additionalEmails: text('additionalEmails'),
					externalReference: text('externalReference'),
					notificationDisabled: body.notificationDisabled === true,
					observations: text('observations'),
					municipalInscription: text('municipalInscription'),
					stateInscription: text('stateInscription'),
					canDelete: true,
					cannotBeDeletedReason: null,
					canEdit: true,
					cannotEditReason: null,
					city: null,
					cityName: null,
					state: null,
					country: 'Brasil'
				} as AsaasCustomer
				a.customers.set(c.id, c)
				return json(c)
			}
		],
		['GET', /^\/customers\/([^/]+)$/, ({ a }, id) => json(a.customers.get(id) ?? notFound())],
		[
			'PUT',
			/^\/customers\/([^/]+)$/,
			({ a, body }, id) => {
				const c = a.customers.get(id) ?? notFound()
				if (c.deleted) refuse('invalid_action', 'Não é possível alterar um cliente removido.')
				if ('cpfCnpj' in body) {
					const cpfCnpj = typeof body.cpfCnpj === 'string' ? bareDocument(body.cpfCnpj) : ''
					if (!validCpfCnpj(cpfCnpj)) refuse('invalid_object', 'O CPF/CNPJ informado é inválido.')
					c.cpfCnpj = cpfCnpj
				}
				if ('name' in body) c.name = str(body.name) ?? refuse('invalid_name', 'Informe o nome do cliente.')
				if ('notificationDisabled' in body) c.notificationDisabled = body.notificationDisabled === true
				for (const k of EDITABLE) if (k in body) c[k] = str(body[k])
				return json(c)
			}
		]
	]
}
