/**
 * The bot's conversation (3-billing-messaging §4) as one pure function: `decide(session, message, facts)` answers the
 * new session, the replies and the effects. welcome → awaiting_cnpj → menu → consulting / generating_boleto, per
 * phone, back to the start after 30 minutes of silence, quiet while a person has the conversation.
 *
 * Facts are read before deciding, all at once, rather than asked for step by step: what a message may need from the
 * database is small and known from the session and the text alone (the session's company, the company of a CNPJ in
 * the text, that company's open parcels, the CNPJs the phone typed this hour, two settings), so service.ts reads it
 * in a few indexed queries and the decision stays a plain function, tested without a database.
 * Effects are data. service.ts writes the bot's own (a CNPJ typed, a phone blocked, an attendant asked for) with the
 * session, in one transaction, after the replies went out. Two belong to other modules and are done before the
 * replies: PARAR/VOLTAR (messaging's opt-out) and option 6 (companies gives the trust release or refuses it, and
 * `trustReleaseReply` words what it said).
 * Nothing here reaches the database (the architecture test checks it).
 */
import type { OpenParcel } from '../billing'
import { type LicenceFacts, SYSTEM_CATALOGUE, licenceState } from '../companies/model'
import { classifyPixKey, daysBetween, formatDateTime, isValidCnpj, isoDateInSaoPaulo, maskCnpj, normalizeCnpj } from '../core'
import { words } from './messages'
import { type BotStep, pixMessage } from './model'
import type { botSessions } from './schema'

export type Session = typeof botSessions.$inferSelect

export const SESSION_IDLE_MS = 30 * 60_000
export const PAUSE_MS = 12 * 3_600_000
const HOUR = 3_600_000
/** More than this many different CNPJs from one phone in an hour stop the bot answering it for an hour. */
export const MAX_CNPJS_PER_HOUR = 5
const TRUST_COOLDOWN_MS = 30 * 24 * HOUR

/** Who writes: the phone's key (ninth-digit-insensitive) and the phone as 55 + DDD + number. */
export interface Phone {
	key: string
	phone: string
}

/** A client's message; the text is empty for a sticker, an audio, a location, a contact. */
export interface Message extends Phone {
	text: string
}

/** A company as the conversation needs it, with whether the phone writing is the one registered for it now. */
export interface CompanyFacts extends LicenceFacts {
	codigo: number
	cnpj: string
	razao: string
	cnpj_representante: string | null
	liberacao_confianca_data: string | null
	phoneRegistered: boolean
}

/** What a decision needs that lives in the database (or in service.ts's memory), read before deciding. */
export interface Facts {
	now: Date
	enabled: boolean
	/** The company the session identified, read again now (its registered phone may have changed since). */
	sessionCompany: CompanyFacts | null
	/** The company of the CNPJ in the text (`cnpjIn`); null when the text has none or no company has it. */
	namedCompany: CompanyFacts | null
	/** The different valid CNPJs this phone typed in the last hour, before this message. */
	cnpjsThisHour: string[]
	/** The session company's open parcels, soonest due first. */
	parcels: OpenParcel[]
	/** The settings app.fornecedor_nome and bot_chave_pix. */
	vendorName: string
	pixKey: string
	/** The phone was told "só entendo texto" earlier in this session. */
	toldTextOnly: boolean
}

export type Effect =
	/** A valid CNPJ typed by the phone: more than MAX_CNPJS_PER_HOUR different ones in an hour block it. */
	| { kind: 'cnpj-typed'; phoneKey: string; cnpj: string; at: string }
	/** The warning in the activity log that the phone is ignored for an hour. */
	| { kind: 'phone-blocked'; phone: string; cnpjs: number }
	/** Option 5: the administradores and the company's representative are told (top bar and activity log). */
	| { kind: 'attendant-requested'; phone: string; company: Pick<CompanyFacts, 'razao' | 'cnpj_representante'> | null }
	/** PARAR (out) and VOLTAR: the automatic notices to this phone, messaging's opt-out. */
	| { kind: 'opt-out'; phone: string; out: boolean }
	/** Option 6: companies' trust release; what it says is the reply (`trustReleaseReply`). */
	| { kind: 'trust-release'; empresaCodigo: number }

export interface Decision {
	/** The session to save; null leaves it as it is (the bot off, a blocked phone). */
	session: Session | null
	replies: string[]
	effects: Effect[]
	/** Whether the phone has been told "só entendo texto" in its current session, now. */
	toldTextOnly: boolean
}

/**
 * What a client's message leads to, from the phone's session (none on its first message): the bot off or the phone
 * blocked changes nothing; a paused conversation only notes that the client is waiting; after 30 idle minutes the
 * conversation starts again; then the step the session is at reads the text.
 */
export function decide(previous: Session | undefined, message: Message, facts: Facts): Decision {
	const nowIso = facts.now.toISOString()
	const untouched: Decision = { session: null, replies: [], effects: [], toldTextOnly: facts.toldTextOnly }
	if (!facts.enabled || (previous?.blocked_until && previous.blocked_until > nowIso)) return untouched
	// A person has the conversation: the bot stays quiet, and the client is waiting from their first message on.
	if (previous && isPaused(previous, nowIso)) {
		return { ...untouched, session: { ...previous, last_activity: nowIso, waiting_since: previous.waiting_since ?? nowIso } }
	}
	const idle = !previous || facts.now.getTime() - Date.parse(previous.last_activity) > SESSION_IDLE_MS
	const session = idle ? freshSession(message, nowIso, previous) : { ...previous, paused_until: null, waiting_since: null }
	const toldTextOnly = !idle && facts.toldTextOnly
	if (message.text.trim() === '') {
		// A sticker, an audio, a location, a contact: no step moves; one polite word per session at most.
		const replies = toldTextOnly ? [] : [words.textOnly]
		return { session: { ...session, last_activity: nowIso }, replies, effects: [], toldTextOnly: true }
	}
	return { ...converse(session, message.text, facts), toldTextOnly }
}

export function freshSession(who: Phone, nowIso: string, previous?: Session): Session {
	return {
		phone_key: who.key,
		phone: who.phone,
		step: 'welcome',
		cnpj: null,
		empresa_codigo: null,
		wrong_cnpjs: 0,
		choices: null,
		paused_until: previous?.paused_until ?? null,
		waiting_since: previous?.waiting_since ?? null,
		blocked_until: previous?.blocked_until ?? null,
		last_activity: nowIso,
		created_at: previous?.created_at ?? nowIso
	}
}

export const isPaused = (s: Pick<Session, 'paused_until'> | undefined, nowIso: string) => !!s?.paused_until && s.paused_until > nowIso

/** A person has the conversation (an attendant wrote, or the client asked for one): the bot is quiet for 12 hours. */
export function pausedSession(s: Session, now: Date): Session {
	return { ...s, paused_until: new Date(now.getTime() + PAUSE_MS).toISOString(), waiting_since: null, last_activity: now.toISOString() }
}

/** An administrador gives the conversation back to the bot. */
export const resumedSession = (s: Session): Session => ({ ...s, paused_until: null, waiting_since: null })

/** Option 6's reply, once the companies module gave the release (until when) or refused it (why). */
export function trustReleaseReply(outcome: { until: string } | { refused: string }): string {
	return 'until' in outcome ? words.trustReleased(formatDateTime(outcome.until)) : words.trustRefused(outcome.refused)
}

/**
 * One reply against the reply limit (service.ts counts the replies per phone and minute): within it the reply goes
 * out; over it the phone is told "aguarde um instante…" once, then nothing until it writes at a person's pace again.
 */
export function paced(reply: string, overLimit: boolean, toldToWait: boolean): { text: string | null; toldToWait: boolean } {
	if (!overLimit) return { text: reply, toldToWait: false }
	return { text: toldToWait ? null : words.slowDown, toldToWait: true }
}

/** The CNPJ in a message: the whole text, or a masked CNPJ inside a sentence. */
export function cnpjIn(text: string): string | null {
	const t = text.trim()
	const whole = normalizeCnpj(t)
	if (whole.length === 14) return whole
	const m = /[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}\/?[0-9A-Za-z]{4}-?\d{2}/.exec(t)
	// A sentence without a digit ("Segue o comprovante") is no attempt at a CNPJ.
	return m ? normalizeCnpj(m[0]) : whole.length >= 11 && /\d/.test(t) ? whole : null
}

/** Option 6: the licence has expired and no trust release was given in the last 30 days. */
function trustOffered(c: CompanyFacts, now: Date): boolean {
	if (licenceState(c, isoDateInSaoPaulo(now), now.getTime()).state !== 'expirada') return false
	const last = c.liberacao_confianca_data ? Date.parse(c.liberacao_confianca_data) : Number.NaN
	return !(now.getTime() - last < TRUST_COOLDOWN_MS)
}

/** A text message in a session the bot answers. */
function converse(session: Session, text: string, facts: Facts): Omit<Decision, 'toldTextOnly'> {
	const { now } = facts
	const today = isoDateInSaoPaulo(now)
	const s: Session = { ...session, last_activity: now.toISOString() }
	const t = text.trim()
	const done = (replies: string[], effects: Effect[] = []) => ({ session: s, replies, effects })
	const go = (step: BotStep) => {
		s.step = step
	}

	if (/^parar$/i.test(t)) return done([words.optedOut], [{ kind: 'opt-out', phone: s.phone, out: true }])
	if (/^voltar$/i.test(t)) return done([words.optedIn], [{ kind: 'opt-out', phone: s.phone, out: false }])

	const company = s.empresa_codigo && facts.sessionCompany?.codigo === s.empresa_codigo ? facts.sessionCompany : null
	// The company's phone may have changed since: its data goes only to a phone registered now.
	if ((s.step === 'menu' || s.step === 'consulting' || s.step === 'generating_boleto') && !company?.phoneRegistered) {
		Object.assign(s, { cnpj: null, empresa_codigo: null, choices: null })
		go('awaiting_cnpj')
		return done([words.notRegistered])
	}

	if (s.step === 'welcome') {
		go('awaiting_cnpj')
		if (!cnpjIn(t)) return done([words.welcome(facts.vendorName)])
	}

	if (s.step === 'awaiting_cnpj') {
		if (t === '5' || /^atendente$/i.test(t)) return handOff()
		const cnpj = cnpjIn(t)
		if (!cnpj) return done([words.askCnpj])
		if (!isValidCnpj(cnpj)) return wrongCnpj(words.invalidCnpj)
		const typed: Effect = { kind: 'cnpj-typed', phoneKey: s.phone_key, cnpj, at: now.toISOString() }
		const cnpjs = new Set([...facts.cnpjsThisHour, cnpj]).size
		if (cnpjs > MAX_CNPJS_PER_HOUR) {
			s.blocked_until = new Date(now.getTime() + HOUR).toISOString()
			return done([], [typed, { kind: 'phone-blocked', phone: s.phone, cnpjs }])
		}
		const found = facts.namedCompany?.cnpj === cnpj ? facts.namedCompany : null
		// A client's CNPJ from a phone not registered for it gets the same answer as a CNPJ of no one (issue 33 #8).
		if (!found?.phoneRegistered) return wrongCnpj(words.cnpjNotServed(maskCnpj(cnpj)), [typed])
		s.wrong_cnpjs = 0
		Object.assign(s, { cnpj, empresa_codigo: found.codigo })
		go('menu')
		return done([words.menu(found.razao, trustOffered(found, now))], [typed])
	}

	// menu, consulting, generating_boleto: the company is known and this phone is registered for it.
	const c = company!
	if (s.step === 'generating_boleto') {
		const n = /^\d{1,2}$/.test(t) ? Number(t) : Number.NaN
		if (n === 0 || /^menu$/i.test(t)) {
			go('menu')
			s.choices = null
			return done([words.menu(c.razao, trustOffered(c, now))])
		}
		const ids: (number | string)[] = JSON.parse(s.choices ?? '[]')
		if (!(n >= 1 && n <= ids.length)) return done([words.parcelNotInList])
		const parcel = facts.parcels.find((p) => String(p.id) === String(ids[n - 1]))
		go('consulting')
		s.choices = null
		if (!parcel) return done([words.noParcels])
		return done([
			words.boleto({
				numero: parcel.numero,
				total: parcel.total,
				valorCentavos: parcel.valorCentavos,
				vencimento: parcel.vencimento,
				boletoUrl: parcel.boletoUrl,
				line: parcel.identificationField,
				pix: parcel.pixCopyPaste
			})
		])
	}

	const option = /^\d{1,2}$/.test(t) ? Number(t) : null
	switch (option) {
		case 1: {
			go('consulting')
			const { days, releaseEndsMs } = licenceState(c, today, now.getTime())
			return done([
				words.licence({
					razao: c.razao,
					validade: c.validade_licenca,
					days: c.validade_licenca ? daysBetween(today, c.validade_licenca) : days,
					systems: SYSTEM_CATALOGUE.map((sys) => ({ name: sys.name, blocked: c[sys.flag] === 'S' })),
					releaseUntil: releaseEndsMs ? formatDateTime(new Date(releaseEndsMs)) : null,
					trustOption: trustOffered(c, now)
				})
			])
		}
		case 2: {
			go('consulting')
			if (facts.parcels.length === 0) return done([words.noParcels])
			return done([words.parcels(facts.parcels.map((p, i) => words.parcelLine(i + 1, p)))])
		}
		case 3: {
			go('consulting')
			if (facts.parcels.length === 0) return done([words.noParcels])
			go('generating_boleto')
			s.choices = JSON.stringify(facts.parcels.map((p) => p.id))
			return done([words.pickParcel(facts.parcels.map((p, i) => words.parcelLine(i + 1, p)))])
		}
		case 4: {
			go('consulting')
			return done([pixMessage(facts.pixKey ? classifyPixKey(facts.pixKey) : null, facts.vendorName)])
		}
		case 5:
			return handOff()
		case 6:
			if (trustOffered(c, now)) {
				go('consulting')
				return done([], [{ kind: 'trust-release', empresaCodigo: c.codigo }])
			}
	}
	go('menu')
	return done([words.menu(c.razao, trustOffered(c, now))])

	/** Option 5 (or "atendente"): paused, and the client waits for a person from now. */
	function handOff() {
		const waiting: Session = { ...pausedSession(s, now), waiting_since: now.toISOString() }
		const who = company && { razao: company.razao, cnpj_representante: company.cnpj_representante }
		const alert: Effect = { kind: 'attendant-requested', phone: s.phone, company: who }
		return { session: waiting, replies: [words.handOff], effects: [alert] }
	}

	function wrongCnpj(reply: string, effects: Effect[] = []) {
		s.wrong_cnpjs += 1
		return done(s.wrong_cnpjs >= 2 ? [`${reply}\n\n${words.attendantOffer}`] : [reply], effects)
	}
}
