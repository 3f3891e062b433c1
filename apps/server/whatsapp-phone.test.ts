import { describe, expect, it } from 'bun:test'
import { WHATSAPP_PHONE_HINT, WHATSAPP_PHONE_INVALID } from '../../modules/core'
import { type TestWorld, billingWorld, carneBody, saveGateway } from './testing'

/** The same number written the three ways people write it (issue 34, point 6). */
const SAME_NUMBER = ['85981039595', '(85) 98103-9595', '5585981039595']
const AS_SENT = '5585981039595'

async function world() {
	const { w, empresa } = await billingWorld()
	expect((await saveGateway(w)).status).toBe(200)
	expect((await w.call('POST', '/api/whatsapp/bot-enable', { cookie: w.cookies.admin })).status).toBe(200)
	const created = await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo) })
	expect(created.status).toBe(201)
	const carne = created.json.carne as { id: number }
	const parcel = ((await w.call('GET', `/api/carnes/${carne.id}/parcelas`, { cookie: w.cookies.rep })).json as { id: number }[])[0]
	return { w, empresa, carne, parcel }
}

/** The five WhatsApp forms, each as the role that uses it, with `phone` in its phone field. */
function forms(w: TestWorld, carne: number, parcel: number) {
	return {
		'carnê send': (phone: string) =>
			w.call('POST', `/api/carnes/${carne}/enviar-whatsapp`, { cookie: w.cookies.rep, body: { telefone: phone } }),
		'parcel send': (phone: string) =>
			w.call('POST', `/api/carnes/pagamentos/${parcel}/whatsapp`, { cookie: w.cookies.rep, body: { phone } }),
		'test send': (phone: string) =>
			w.call('POST', '/api/evolution-api/test', { cookie: w.cookies.admin, body: { phone, message: 'Teste' } }),
		'bot test': (phone: string) => w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone, message: 'oi' } }),
		attendant: (phone: string) =>
			w.call('POST', '/api/whatsapp/simulate-attendant-message', { cookie: w.cookies.admin, body: { phone, message: 'Olá' } })
	}
}

describe('the WhatsApp forms’ phone (issue 34, point 6)', () => {
	it('takes the number with or without 55, masked or not, and sends it to 55 + DDD + number on all five forms', async () => {
		const { w, carne, parcel } = await world()
		for (const [name, send] of Object.entries(forms(w, carne.id, parcel.id))) {
			for (const phone of SAME_NUMBER) {
				// Past the click-send pacing of the previous send.
				w.clock.advance(65_000)
				const before = w.evolution.sent.length
				const res = await send(phone)
				expect({ name, phone, status: res.status }).toEqual({ name, phone, status: 200 })
				expect(w.evolution.sent.length).toBeGreaterThan(before)
				expect(new Set(w.evolution.sent.slice(before).map((m) => m.number))).toEqual(new Set([AS_SENT]))
			}
		}
	})

	it('refuses a number that is not one with the same words on all five forms, sending nothing', async () => {
		const { w, carne, parcel } = await world()
		for (const [name, send] of Object.entries(forms(w, carne.id, parcel.id))) {
			for (const phone of ['85999', '558598103959512', '(85) 18103-9595']) {
				const res = await send(phone)
				expect({ name, phone, status: res.status, message: res.json.message }).toEqual({
					name,
					phone,
					status: 400,
					message: expect.stringContaining(WHATSAPP_PHONE_INVALID)
				})
			}
		}
		expect(w.evolution.sent).toHaveLength(0)
	})

	it('leaves resuming a conversation to the phone the bot keys it with, a foreign one too (the paused list sends it as stored)', async () => {
		const { w } = await world()
		const foreign = '15551234567'
		const resumed = await w.call('POST', '/api/whatsapp/resume-conversation', { cookie: w.cookies.admin, body: { phone: foreign } })
		expect([resumed.status, resumed.json.message]).toEqual([200, 'Essa conversa não estava pausada.'])
		const answered = await w.call('POST', '/api/whatsapp/simulate-attendant-message', {
			cookie: w.cookies.admin,
			body: { phone: foreign, message: 'Olá' }
		})
		expect([answered.status, answered.json.message]).toEqual([400, WHATSAPP_PHONE_INVALID])
	})

	it('says in its hint the three ways it accepts', () => {
		for (const phone of SAME_NUMBER) expect(WHATSAPP_PHONE_HINT).toContain(phone)
	})

	it('offers the company’s registered phone: the carnê and parcel lists carry it', async () => {
		const { w, carne } = await world()
		const carnes = (await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })).json.carnes as {
			id: number
			empresa: { fone: string | null }
		}[]
		expect(carnes.find((c) => c.id === carne.id)?.empresa.fone).toBe('85999990001')
		const parcelas = (await w.call('GET', '/api/carnes/pagamentos', { cookie: w.cookies.rep })).json.parcelas as {
			empresa: { fone: string | null }
		}[]
		expect(parcelas.map((p) => p.empresa.fone)).toEqual(['85999990001', '85999990001', '85999990001'])
	})
})
