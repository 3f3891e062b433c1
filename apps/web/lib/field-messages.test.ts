import { describe, expect, it } from 'bun:test'
import { AttendantBody, BotTestBody } from '../../../modules/bot/model'
import { PhoneBody, TelefoneBody } from '../../../modules/billing/model'
import { whatsappMessageProblems, whatsappPhoneProblem } from '../../../modules/core'
import { NotificationSettingPatch, RehearsalBody, TestSendBody, daysAheadProblem, sendTimeProblem } from '../../../modules/messaging/model'
import { fieldErrors } from './form'
import { billingWorld, carneBody, saveGateway } from '../../server/testing'

/** A field's message in `errors`, or null (the screens' checks answer null when all is well). */
const at = (errors: Record<string, string>, key: string): string | null => errors[key] ?? null

/** No field key, no 'Dados inválidos', no quotes: the field's own words, as they are shown beside it. */
const TECHNICAL = /Dados inválidos|"|dias_antecedencia|horario_envio|template_mensagem|enviar_fins_semana|\bphone\b|telefone"|\bmessage\b/

async function world() {
	const { w, empresa } = await billingWorld()
	await saveGateway(w)
	return { w, empresa }
}

describe('each field says what is wrong in its own words (issue 34, point 7)', () => {
	it('the notification settings: every body field, with no field key and no "Dados inválidos"', async () => {
		const { w } = await world()
		const created = await w.call('POST', '/api/notification-settings', {
			cookie: w.cookies.admin,
			body: { tipo: 'whatsapp_expiracao', ativo: true }
		})
		expect(created.status).toBe(201)
		const cases: [Record<string, unknown>, string][] = [
			[{ dias_antecedencia: 0 }, 'Dias de antecedência: de 1 a 30.'],
			[{ dias_antecedencia: 31 }, 'Dias de antecedência: de 1 a 30.'],
			[{ dias_antecedencia: 2.5 }, 'Dias de antecedência deve ser um número inteiro.'],
			[{ dias_antecedencia: 'sete' }, 'Dias de antecedência deve ser um número.'],
			[{ horario_envio: '25:00' }, 'Horário de envio inválido: use HH:MM:SS, de 00:00:00 a 23:59:59.'],
			[{ horario_envio: '' }, 'Informe o horário de envio.'],
			[{ horario_envio: 9 }, 'Horário de envio inválido: use HH:MM:SS.'],
			[{ template_mensagem: '' }, 'Modelo da mensagem é obrigatório.'],
			[{ ativo: 'sim' }, 'Ativo deve ser verdadeiro ou falso.'],
			[{ enviar_fins_semana: 'x' }, 'Enviar nos fins de semana deve ser verdadeiro ou falso.'],
			[{}, 'Nada para alterar.']
		]
		for (const [body, message] of cases) {
			const res = await w.call('PUT', `/api/notification-settings/${created.json.id}`, { cookie: w.cookies.admin, body })
			expect({ body, status: res.status, message: res.json.message }).toEqual({ body, status: 400, message })
			expect(res.json.message).not.toMatch(TECHNICAL)
		}
		const badType = await w.call('POST', '/api/notification-settings', { cookie: w.cookies.admin, body: { tipo: 'sms', ativo: true } })
		expect([badType.status, badType.json.message]).toEqual([
			400,
			'Tipo inválido: use whatsapp_expiracao, whatsapp_expirada ou whatsapp_boas_vindas.'
		])
		expect((await w.call('GET', '/api/notification-settings', { cookie: w.cookies.admin })).json).toMatchObject([
			{ dias_antecedencia: 7, horario_envio: '09:00:00', enviar_fins_semana: false }
		])
	})

	it('the WhatsApp forms: a missing, wrong or non-text phone and message each in their own words, nothing sent', async () => {
		const { w, empresa } = await world()
		const carne = (await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo) })).json.carne
		const parcel = (await w.call('GET', `/api/carnes/${carne.id}/parcelas`, { cookie: w.cookies.rep })).json[0]
		const forms = {
			carnê: (phone: unknown) =>
				w.call('POST', `/api/carnes/${carne.id}/enviar-whatsapp`, { cookie: w.cookies.rep, body: { telefone: phone } }),
			parcela: (phone: unknown) =>
				w.call('POST', `/api/carnes/pagamentos/${parcel.id}/whatsapp`, { cookie: w.cookies.rep, body: { phone } }),
			teste: (phone: unknown, message: unknown = 'Oi') =>
				w.call('POST', '/api/evolution-api/test', { cookie: w.cookies.admin, body: { phone, message } }),
			bot: (phone: unknown, message: unknown = 'Oi') =>
				w.call('POST', '/api/whatsapp/bot/test', { cookie: w.cookies.admin, body: { phone, message } }),
			atendente: (phone: unknown, message: unknown = 'Oi') =>
				w.call('POST', '/api/whatsapp/simulate-attendant-message', { cookie: w.cookies.admin, body: { phone, message } })
		}
		for (const [name, send] of Object.entries(forms)) {
			for (const [phone, message] of [
				['', 'Informe o telefone.'],
				[undefined, 'Informe o telefone.'],
				[5585981039595, 'Telefone inválido: envie o telefone como texto.'],
				['85 9810', 'Telefone inválido: informe DDD e número, com ou sem o 55 (ex.: (85) 98103-9595).']
			] as const) {
				const res = await send(phone)
				expect({ name, phone, status: res.status, message: res.json.message }).toEqual({ name, phone, status: 400, message })
			}
		}
		for (const [name, send] of [
			['teste', forms.teste],
			['bot', forms.bot],
			['atendente', forms.atendente]
		] as const) {
			for (const [text, message] of [
				['   ', 'Escreva a mensagem.'],
				[42, 'Mensagem inválida: envie o texto da mensagem.'],
				['x'.repeat(4001), 'Mensagem: no máximo 4.000 caracteres.']
			] as const) {
				const res = await send('5585981039595', text)
				expect({ name, text: String(text).slice(0, 5), message: res.json.message }).toEqual({
					name,
					text: String(text).slice(0, 5),
					message
				})
				expect(res.status).toBe(400)
			}
		}
		expect(w.evolution.sent).toHaveLength(0)
	})

	it('the screens check with the same rules before sending: their words are the schema’s', () => {
		// What the screens call (core's zod-free typed-input.ts) against the bodies' schemas, field by field.
		const phones = ['', '  ', '85 9810', '(85) 98103-9595', '5585981039595', '55859876543O1', '0800 123', '(85) 18103-9595']
		const messages = ['', '  ', 'Oi', 'x'.repeat(4001)]
		for (const phone of phones) {
			for (const [schema, body] of [
				[PhoneBody, { phone }],
				[TelefoneBody, { telefone: phone }],
				[RehearsalBody, { phone }]
			] as const) {
				const errors = fieldErrors(schema, body)
				expect({ phone, error: at(errors, 'phone') ?? at(errors, 'telefone') }).toEqual({ phone, error: whatsappPhoneProblem(phone) })
			}
			for (const message of messages) {
				for (const schema of [TestSendBody, BotTestBody, AttendantBody]) {
					expect({ phone, message, errors: fieldErrors(schema, { phone, message }) }).toEqual({
						phone,
						message,
						errors: whatsappMessageProblems({ phone, message })
					})
				}
			}
		}
		for (const days of [0, 1, 30, 31, 2.5])
			expect(at(fieldErrors(NotificationSettingPatch, { dias_antecedencia: days }), 'dias_antecedencia')).toBe(daysAheadProblem(days))
		for (const time of ['', '25:00', '09:00', '09:00:00', '9h'])
			expect(at(fieldErrors(NotificationSettingPatch, { horario_envio: time }), 'horario_envio')).toBe(sendTimeProblem(time))
	})
})
