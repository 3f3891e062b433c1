import { describe, expect, it } from 'bun:test'
import type { OpenParcel } from '../billing'
import { completeCnpj, formatCnpj } from '../core'
import {
	type CompanyFacts,
	type Decision,
	type Facts,
	MAX_CNPJS_PER_HOUR,
	PAUSE_MS,
	SESSION_IDLE_MS,
	type Session,
	decide,
	paced,
	trustReleaseReply
} from './conversation'
import { words } from './messages'

/**
 * conversation.ts's `decide` alone: plain values in, plain values out, no database. conversation.test.ts drives the
 * whole bot (webhook, database, the gateway's stand-in).
 */

const NOW = new Date('2026-11-20T12:00:00.000Z')
const CLIENT = { key: '558599990001', phone: '5585999990001' }
const COMPANY_CNPJ = '11222333000181'
const UNKNOWN_CNPJ = completeCnpj('999999999999')

function company(changes: Partial<CompanyFacts> = {}): CompanyFacts {
	return {
		codigo: 7,
		cnpj: COMPANY_CNPJ,
		razao: 'Padaria Pão Quente',
		cnpj_representante: '22333444000181',
		validade_licenca: '2026-12-20',
		liberacao_confianca_data: null,
		liberacao_confianca_expira: null,
		bloqueado: 'N',
		bloqueadopdv: 'S',
		bloqueado_kchef: 'N',
		bloqueado_katelie: 'N',
		bloqueado_kprevenda: 'N',
		phoneRegistered: true,
		...changes
	}
}

function facts(changes: Partial<Facts> = {}): Facts {
	return {
		now: NOW,
		enabled: true,
		sessionCompany: null,
		namedCompany: null,
		cnpjsThisHour: [],
		parcels: [],
		vendorName: 'Kaizen Sistemas',
		pixKey: '',
		toldTextOnly: false,
		...changes
	}
}

function session(changes: Partial<Session> = {}): Session {
	return {
		phone_key: CLIENT.key,
		phone: CLIENT.phone,
		step: 'awaiting_cnpj',
		cnpj: null,
		empresa_codigo: null,
		wrong_cnpjs: 0,
		choices: null,
		paused_until: null,
		waiting_since: null,
		blocked_until: null,
		last_activity: new Date(NOW.getTime() - 60_000).toISOString(),
		created_at: '2026-11-20T11:00:00.000Z',
		...changes
	}
}

/** A session at the menu of the company, which this phone is registered for. */
const atMenu = (changes: Partial<Session> = {}) => session({ step: 'menu', cnpj: COMPANY_CNPJ, empresa_codigo: 7, ...changes })

/** The message, decided on frozen inputs: a decision that changed its session or facts would throw. */
function say(previous: Session | undefined, text: string, given: Partial<Facts> = {}): Decision {
	if (previous) Object.freeze(previous)
	return decide(previous, { ...CLIENT, text }, Object.freeze(facts(given)))
}

const parcel = (id: number, numero: number, vencimento: string, status: OpenParcel['status']): OpenParcel => ({
	id,
	numero,
	total: 3,
	valorCentavos: 15_000,
	vencimento,
	status,
	boletoUrl: `https://www.asaas.com/b/pdf/pay_${numero}`,
	identificationField: `23793.38128 6000000${numero}`,
	pixCopyPaste: `00020101021226820014br.gov.bcb.pix${numero}`
})
const OPEN = [parcel(41, 2, '2026-11-15', 'OVERDUE'), parcel(42, 3, '2026-12-10', 'PENDING')]

describe('the start of a conversation', () => {
	it('welcomes a first message with the vendor’s name and waits for the CNPJ', () => {
		const d = say(undefined, 'Bom dia')
		expect(d.replies).toEqual([words.welcome('Kaizen Sistemas')])
		expect(d.session).toMatchObject({ phone_key: CLIENT.key, phone: CLIENT.phone, step: 'awaiting_cnpj', last_activity: NOW.toISOString() })
		expect(d.effects).toEqual([])
	})

	it('goes straight to the menu when the first message already carries the CNPJ of the phone’s company', () => {
		const d = say(undefined, `meu cnpj é ${formatCnpj(COMPANY_CNPJ)}`, { namedCompany: company() })
		expect(d.replies[0]).toContain('Empresa: *Padaria Pão Quente*')
		expect(d.session).toMatchObject({ step: 'menu', cnpj: COMPANY_CNPJ, empresa_codigo: 7, wrong_cnpjs: 0 })
		expect(d.effects).toEqual([{ kind: 'cnpj-typed', phoneKey: CLIENT.key, cnpj: COMPANY_CNPJ, at: NOW.toISOString() }])
	})

	it('starts again after 30 idle minutes, keeping when the session was first created', () => {
		const old = atMenu({ last_activity: new Date(NOW.getTime() - SESSION_IDLE_MS - 1).toISOString() })
		const d = say(old, '1', { sessionCompany: company() })
		expect(d.replies).toEqual([words.welcome('Kaizen Sistemas')])
		expect(d.session).toMatchObject({ step: 'awaiting_cnpj', cnpj: null, empresa_codigo: null, created_at: old.created_at })
	})

	it('changes nothing and says nothing while the bot is off or the phone is blocked', () => {
		const untouched = { session: null, replies: [], effects: [], toldTextOnly: false }
		expect(say(atMenu(), '1', { enabled: false, sessionCompany: company() })).toEqual(untouched)
		const blocked = session({ blocked_until: new Date(NOW.getTime() + 60_000).toISOString() })
		expect(say(blocked, COMPANY_CNPJ, { namedCompany: company() })).toEqual(untouched)
	})
})

describe('the CNPJ', () => {
	it('asks again for text without one, and says when the check digits are wrong without recording an attempt', () => {
		expect(say(session(), 'Segue o comprovante').replies).toEqual([words.askCnpj])
		const wrong = say(session(), '11.111.111/1111-11')
		expect(wrong.replies).toEqual([words.invalidCnpj])
		expect(wrong.session).toMatchObject({ step: 'awaiting_cnpj', wrong_cnpjs: 1 })
		expect(wrong.effects).toEqual([])
	})

	it('answers a client’s CNPJ from a stranger’s phone exactly as a CNPJ of no one: same words, same session, same records', () => {
		const neutral = (d: Decision, cnpj: string) => ({
			replies: d.replies.map((r) => r.replace(formatCnpj(cnpj), '<cnpj>')),
			session: d.session,
			effects: d.effects.map((e) => (e.kind === 'cnpj-typed' ? { ...e, cnpj: '<cnpj>' } : e))
		})
		for (const wrongSoFar of [0, 1]) {
			const before = session({ wrong_cnpjs: wrongSoFar })
			const stranger = say(before, formatCnpj(COMPANY_CNPJ), { namedCompany: company({ phoneRegistered: false }) })
			const noOne = say(before, formatCnpj(UNKNOWN_CNPJ), { namedCompany: null })
			expect(neutral(stranger, COMPANY_CNPJ)).toEqual(neutral(noOne, UNKNOWN_CNPJ))
			expect(stranger.replies[0]).not.toContain('Padaria')
			expect(stranger.session).toMatchObject({ step: 'awaiting_cnpj', cnpj: null, empresa_codigo: null })
		}
		// The second wrong CNPJ in a row offers an attendant.
		const second = say(session({ wrong_cnpjs: 1 }), COMPANY_CNPJ, { namedCompany: company({ phoneRegistered: false }) })
		expect(second.replies[0]).toEndWith(words.attendantOffer)
	})

	it('serves nothing of a company read for another CNPJ than the one typed', () => {
		const d = say(session(), formatCnpj(UNKNOWN_CNPJ), { namedCompany: company() })
		expect(d.replies).toEqual([words.cnpjNotServed(formatCnpj(UNKNOWN_CNPJ))])
		expect(d.session?.empresa_codigo).toBeNull()
	})

	it(`blocks a phone for an hour at its ${MAX_CNPJS_PER_HOUR + 1}th different CNPJ within the hour, warning once and saying nothing`, () => {
		const five = Array.from({ length: MAX_CNPJS_PER_HOUR }, (_, i) => completeCnpj(`1000000000${10 + i}`))
		// One of the five again is no new one.
		expect(say(session(), five[0], { cnpjsThisHour: five }).session?.blocked_until).toBeNull()
		const d = say(session(), COMPANY_CNPJ, { cnpjsThisHour: five, namedCompany: company() })
		expect(d.replies).toEqual([])
		expect(d.session?.blocked_until).toBe(new Date(NOW.getTime() + 3_600_000).toISOString())
		expect(d.effects).toEqual([
			{ kind: 'cnpj-typed', phoneKey: CLIENT.key, cnpj: COMPANY_CNPJ, at: NOW.toISOString() },
			{ kind: 'phone-blocked', phone: CLIENT.phone, cnpjs: MAX_CNPJS_PER_HOUR + 1 }
		])
		// Blocked: the next messages change nothing, so the warning is not written again.
		expect(say(d.session!, COMPANY_CNPJ, { cnpjsThisHour: [...five, COMPANY_CNPJ] })).toMatchObject({ session: null, effects: [] })
	})

	it('sends a session whose company’s registered phone changed back to the CNPJ, telling why', () => {
		const d = say(atMenu(), '1', { sessionCompany: company({ phoneRegistered: false }) })
		expect(d.replies).toEqual([words.notRegistered])
		expect(d.session).toMatchObject({ step: 'awaiting_cnpj', cnpj: null, empresa_codigo: null })
	})
})

describe('the menu', () => {
	const served = { sessionCompany: company() }

	it('1: the licence, its days left and each system', () => {
		const d = say(atMenu(), '1', served)
		expect(d.replies[0]).toContain('Vencimento: 20/12/2026 (30 dias restantes)')
		expect(d.replies[0]).toContain('• K-RETA: liberado')
		expect(d.replies[0]).toContain('• K-PDV: bloqueado')
		expect(d.session?.step).toBe('consulting')
	})

	it('2 and 3: the open parcels; 3 numbers them and a number gives that one’s second copy', () => {
		const list = say(atMenu(), '2', { ...served, parcels: OPEN }).replies[0].replace(/\u00a0/g, ' ')
		expect(list).toContain('1) Parcela 2/3 — R$ 150,00 — vence 15/11/2026 (vencida)')
		expect(list).toContain('2) Parcela 3/3 — R$ 150,00 — vence 10/12/2026')

		const pick = say(atMenu(), '3', { ...served, parcels: OPEN })
		expect(pick.replies[0]).toContain('Envie o *número da parcela*')
		expect(pick.session).toMatchObject({ step: 'generating_boleto', choices: '[41,42]' })
		expect(say(pick.session!, '7', { ...served, parcels: OPEN }).replies).toEqual([words.parcelNotInList])
		const copy = say(pick.session!, '2', { ...served, parcels: OPEN })
		expect(copy.replies[0]).toContain('Segunda via — Parcela 3/3')
		expect(copy.replies[0]).toContain('Boleto: https://www.asaas.com/b/pdf/pay_3')
		expect(copy.replies[0]).toContain('PIX copia e cola:\n00020101021226820014br.gov.bcb.pix3')
		expect(copy.session).toMatchObject({ step: 'consulting', choices: null })
		// Paid meanwhile: not offered.
		expect(say(pick.session!, '1', { ...served, parcels: [OPEN[1]] }).replies).toEqual([words.noParcels])
		expect(say(atMenu(), '3', served).replies).toEqual([words.noParcels])
	})

	it('4: the vendor’s PIX key with its type, or that none is set', () => {
		expect(say(atMenu(), '4', { ...served, pixKey: '11.222.333/0001-81' }).replies[0]).toContain('Chave PIX (CNPJ): 11.222.333/0001-81')
		expect(say(atMenu(), '4', served).replies[0]).toContain('ainda não foi configurada')
	})

	it('5: hands over to a person, paused for 12 hours and waiting from now; the administradores and the representative are told', () => {
		const d = say(atMenu(), '5', served)
		expect(d.replies).toEqual([words.handOff])
		expect(d.session).toMatchObject({
			step: 'menu',
			paused_until: new Date(NOW.getTime() + PAUSE_MS).toISOString(),
			waiting_since: NOW.toISOString()
		})
		expect(d.effects).toEqual([
			{
				kind: 'attendant-requested',
				phone: CLIENT.phone,
				company: { razao: 'Padaria Pão Quente', cnpj_representante: '22333444000181' }
			}
		])
		// Before any company is identified, only the administradores can be told.
		expect(say(session(), 'atendente').effects).toEqual([{ kind: 'attendant-requested', phone: CLIENT.phone, company: null }])
	})

	it('6: offered only for an expired licence without a recent release; the release’s outcome is the reply', () => {
		expect(say(atMenu(), '6', served).replies[0]).toContain('Escolha uma opção')
		const expired = { sessionCompany: company({ validade_licenca: '2026-11-18' }) }
		expect(say(atMenu(), '0', expired).replies[0]).toContain('6 - Liberar por 24 horas')
		const d = say(atMenu(), '6', expired)
		expect(d).toMatchObject({ replies: [], effects: [{ kind: 'trust-release', empresaCodigo: 7 }] })
		expect(d.session?.step).toBe('consulting')
		const recently = { sessionCompany: company({ validade_licenca: '2026-11-18', liberacao_confianca_data: '2026-11-19T12:00:00.000Z' }) }
		expect(say(atMenu(), '6', recently).effects).toEqual([])
		expect(trustReleaseReply({ until: '2026-11-21T12:00:00.000Z' })).toContain('liberado até 21/11/2026 09:00')
		expect(trustReleaseReply({ refused: 'A liberação já foi usada.' })).toBe(words.trustRefused('A liberação já foi usada.'))
	})

	it('anything else shows the menu again', () => {
		for (const text of ['quero falar sobre outra coisa', '9', '0']) {
			const d = say(session({ step: 'consulting', cnpj: COMPANY_CNPJ, empresa_codigo: 7 }), text, served)
			expect(d.replies[0]).toContain('Escolha uma opção')
			expect(d.session?.step).toBe('menu')
		}
	})

	it('PARAR and VOLTAR switch the automatic notices off and on, from any step', () => {
		expect(say(session(), 'parar')).toMatchObject({
			replies: [words.optedOut],
			effects: [{ kind: 'opt-out', phone: CLIENT.phone, out: true }]
		})
		expect(say(atMenu(), 'VOLTAR', served)).toMatchObject({
			replies: [words.optedIn],
			effects: [{ kind: 'opt-out', phone: CLIENT.phone, out: false }]
		})
	})
})

describe('while a person has the conversation', () => {
	it('says nothing and notes the client waiting from their first message, alerting nobody again', () => {
		const paused = atMenu({ paused_until: new Date(NOW.getTime() + PAUSE_MS).toISOString() })
		const first = say(paused, '5', { sessionCompany: company() })
		expect(first).toMatchObject({ replies: [], effects: [] })
		expect(first.session).toMatchObject({ waiting_since: NOW.toISOString(), step: 'menu' })
		const later = { ...first.session!, paused_until: paused.paused_until }
		const again = decide(later, { ...CLIENT, text: 'Alô?' }, facts({ now: new Date(NOW.getTime() + 60_000) }))
		expect(again.session?.waiting_since).toBe(NOW.toISOString())
	})

	it('answers again once the pause is over', () => {
		const over = atMenu({ paused_until: new Date(NOW.getTime() - 1).toISOString(), waiting_since: '2026-11-20T00:00:00.000Z' })
		const d = say(over, '1', { sessionCompany: company() })
		expect(d.replies[0]).toContain('Situação da licença')
		expect(d.session).toMatchObject({ paused_until: null, waiting_since: null })
	})
})

describe('what the bot cannot read', () => {
	it('a sticker, an audio, a location: one "só entendo texto" per session, and the step stays', () => {
		const first = say(atMenu(), '', { sessionCompany: company() })
		expect(first).toMatchObject({ replies: [words.textOnly], toldTextOnly: true })
		expect(first.session?.step).toBe('menu')
		expect(say(atMenu(), ' ', { toldTextOnly: true })).toMatchObject({ replies: [], toldTextOnly: true })
		// A text keeps the memory; a new session (30 idle minutes) forgets it.
		expect(say(atMenu(), '1', { toldTextOnly: true, sessionCompany: company() }).toldTextOnly).toBe(true)
		const idle = atMenu({ last_activity: new Date(NOW.getTime() - SESSION_IDLE_MS - 1).toISOString() })
		expect(say(idle, '', { toldTextOnly: true }).replies).toEqual([words.textOnly])
	})
})

describe('the reply limit', () => {
	it('within it each reply goes out; over it "aguarde um instante…" is said once, then nothing, until the phone slows down', () => {
		expect(paced('menu', false, false)).toEqual({ text: 'menu', toldToWait: false })
		const over = paced('menu', true, false)
		expect(over).toEqual({ text: words.slowDown, toldToWait: true })
		expect(over.text).toContain('aguarde um instante')
		expect(paced('menu', true, true)).toEqual({ text: null, toldToWait: true })
		expect(paced('menu', false, true)).toEqual({ text: 'menu', toldToWait: false })
	})
})
