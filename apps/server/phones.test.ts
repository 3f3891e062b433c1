import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies } from '../../modules/companies'
import { representatives } from '../../modules/resellers'
import { CNPJ, TEST_ORIGIN, type TestWorld, testWorld, saveGateway } from './testing'

/** The letter O in place of a zero: read as digits it was a real, different number (5585998765431). */
const WITH_LETTER = '55859876543O1'
const HOSTILE = [WITH_LETTER, '5585999990001\u0000', '55 85 99999-0001x', '+55 (85) 9999\u202e9-0001']

/**
 * A world with the WhatsApp gateway saved. The carnê and parcel routes are called on ids that do not exist: a phone
 * is judged with the body, before the carnê is looked up (a good phone gets 404 there, a bad one 400).
 */
async function world() {
	const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
	expect((await saveGateway(w)).status).toBe(200)
	return { w, carne: { id: 9001 }, parcel: { id: 9002 } }
}

/** Every route that takes a phone, as the role that may call it, with `phone` in its phone field. */
function phoneCalls(w: TestWorld, carne: number, parcel: number, representative: number) {
	return {
		'carnê by WhatsApp': (phone: string) =>
			w.call('POST', `/api/carnes/${carne}/enviar-whatsapp`, { cookie: w.cookies.rep, body: { telefone: phone } }),
		'parcel by WhatsApp': (phone: string) =>
			w.call('POST', `/api/carnes/pagamentos/${parcel}/whatsapp`, { cookie: w.cookies.rep, body: { phone } }),
		'gateway test send': (phone: string) =>
			w.call('POST', '/api/evolution-api/test', { cookie: w.cookies.admin, body: { phone, message: 'Teste' } }),
		'bot test': (phone: string) => w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone, message: 'oi' } }),
		attendant: (phone: string) =>
			w.call('POST', '/api/whatsapp/simulate-attendant-message', { cookie: w.cookies.admin, body: { phone, message: 'Olá' } }),
		'resume conversation': (phone: string) =>
			w.call('POST', '/api/whatsapp/resume-conversation', { cookie: w.cookies.admin, body: { phone } }),
		'company phone': (phone: string) => w.postCompany(w.cookies.rep, { fone: phone }),
		'representative WhatsApp': (phone: string) =>
			w.call('PUT', `/api/representatives/${representative}`, { cookie: w.cookies.admin, body: { whatsapp: phone } }),
		'representative phone': (phone: string) =>
			w.call('PUT', `/api/representatives/${representative}`, { cookie: w.cookies.admin, body: { fone: phone } })
	}
}

describe('phone fields (issue 33, point 9)', () => {
	it('refuse anything but digits, spaces and + ( ) - on every route, sending and changing nothing', async () => {
		const { w, carne, parcel } = await world()
		const rafael = (await w.db.select().from(representatives).where(eq(representatives.cnpj, CNPJ.rep)))[0]!
		const calls = phoneCalls(w, carne.id, parcel.id, rafael.codigo)
		const companiesBefore = await w.db.select().from(companies)
		for (const [name, call] of Object.entries(calls)) {
			for (const phone of HOSTILE) {
				const res = await call(phone)
				expect({ name, phone, status: res.status }).toEqual({ name, phone, status: 400 })
				expect(res.json.message).toContain('Telefone inválido')
			}
		}
		expect(w.evolution.sent).toHaveLength(0)
		expect(await w.db.select().from(companies)).toEqual(companiesBefore)
		const after = (await w.db.select().from(representatives).where(eq(representatives.codigo, rafael.codigo)))[0]!
		expect({ fone: after.fone, whatsapp: after.whatsapp }).toEqual({ fone: null, whatsapp: null })
	})

	it('still take a phone typed with spaces, a plus, parentheses and dashes, as its digits', async () => {
		const { w, carne, parcel } = await world()
		const rafael = (await w.db.select().from(representatives).where(eq(representatives.cnpj, CNPJ.rep)))[0]!
		const calls = phoneCalls(w, carne.id, parcel.id, rafael.codigo)
		expect((await calls['carnê by WhatsApp']('+55 (85) 99999-0001')).status).toBe(404)
		expect((await calls['gateway test send']('+55 (85) 99999-0001')).json.success).toBe(true)
		expect(w.evolution.sent.at(-1)?.number).toBe('5585999990001')
		expect((await calls['representative WhatsApp']('(85) 99999-0001')).json.whatsapp).toBe('85999990001')
		const company = await calls['company phone'](' 85 3333-4444 ')
		expect(company.status).toBe(201)
		expect((await w.db.select().from(companies).where(eq(companies.codigo, company.json.company.codigo)))[0]!.fone).toBe('8533334444')
	})
})
