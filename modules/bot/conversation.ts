/**
 * The conversation of 3-billing-messaging §4: welcome → awaiting_cnpj → menu → consulting / generating_boleto, per
 * phone, back to the start after 30 minutes of silence. `converse` reads the session, decides the replies and saves
 * the session; it sends nothing (service.ts does, unless the phone is paused, blocked or the bot is off).
 */
import { and, eq, gte, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type OpenParcel, openParcelsOfCompany } from '../billing'
import { SYSTEM_CATALOGUE, companies, licenceState, trustReleaseByBot } from '../companies'
import { classifyPixKey, daysBetween, formatDateTime, isValidCnpj, maskCnpj, normalizeCnpj, todayIso } from '../core'
import type { AppContext } from '../core/server'
import { normaliseBrazilianPhone, samePhone } from '../evolution'
import { setOptOut } from '../messaging'
import { getSetting } from '../settings'
import { words } from './messages'
import { type BotStep, pixMessage } from './model'
import { botCnpjAttempts, botSessions } from './schema'

export type Session = typeof botSessions.$inferSelect

export const SESSION_IDLE_MS = 30 * 60_000
export const PAUSE_MS = 12 * 3_600_000
const HOUR = 3_600_000
/** More than this many different CNPJs from one phone in an hour stop the bot answering it for an hour. */
export const MAX_CNPJS_PER_HOUR = 5
const TRUST_COOLDOWN_MS = 30 * 24 * HOUR

export type Outcome = { replies: string[]; pause?: boolean; blocked?: boolean }

export function readSession(db: Db, key: string): Session | undefined {
	return db.select().from(botSessions).where(eq(botSessions.phone_key, key)).get()
}

export function saveSession(db: DbOrTx, s: Session) {
	const { phone_key, ...rest } = s
	db.insert(botSessions).values(s).onConflictDoUpdate({ target: botSessions.phone_key, set: rest }).run()
}

export function freshSession(key: string, phone: string, nowIso: string, previous?: Session): Session {
	return {
		phone_key: key,
		phone: normaliseBrazilianPhone(phone) ?? phone.replace(/\D/g, ''),
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

/** A phone registered for the company: its phone, compared with the ninth-digit rule. */
function registeredFor(company: { fone: string | null }, phone: string): boolean {
	const fone = company.fone ? normaliseBrazilianPhone(company.fone) : null
	return !!fone && samePhone(fone, phone)
}

/** The CNPJ in a message: the whole text, or a masked CNPJ inside a sentence. */
function cnpjIn(text: string): string | null {
	const whole = normalizeCnpj(text)
	if (whole.length === 14) return whole
	const m = /[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}\/?[0-9A-Za-z]{4}-?\d{2}/.exec(text)
	// A sentence without a digit ("Segue o comprovante") is no attempt at a CNPJ.
	return m ? normalizeCnpj(m[0]) : whole.length >= 11 && /\d/.test(text) ? whole : null
}

export function converse(ctx: AppContext, session: Session, text: string): { session: Session; outcome: Outcome } {
	const { db, clock } = ctx
	const now = clock.now()
	const s: Session = { ...session, last_activity: now.toISOString() }
	const t = text.trim()
	const done = (replies: string[], extra: Omit<Outcome, 'replies'> = {}) => ({ session: s, outcome: { replies, ...extra } })
	const go = (step: BotStep) => {
		s.step = step
	}

	if (/^parar$/i.test(t)) {
		setOptOut(db, now, s.phone, true)
		return done([words.optedOut])
	}
	if (/^voltar$/i.test(t)) {
		setOptOut(db, now, s.phone, false)
		return done([words.optedIn])
	}

	const company = s.empresa_codigo ? db.select().from(companies).where(eq(companies.codigo, s.empresa_codigo)).get() : undefined
	// The company's phone may have changed since: its data goes only to a phone registered now.
	if ((s.step === 'menu' || s.step === 'consulting' || s.step === 'generating_boleto') && (!company || !registeredFor(company, s.phone))) {
		Object.assign(s, { cnpj: null, empresa_codigo: null, choices: null })
		go('awaiting_cnpj')
		return done([words.notRegistered])
	}

	if (s.step === 'welcome') {
		go('awaiting_cnpj')
		if (!cnpjIn(t)) return done([words.welcome(getSetting(db, 'app.fornecedor_nome'))])
	}

	if (s.step === 'awaiting_cnpj') {
		if (t === '5' || /^atendente$/i.test(t)) return handOff()
		const cnpj = cnpjIn(t)
		if (!cnpj) return done([words.askCnpj])
		if (!isValidCnpj(cnpj)) return wrongCnpj(words.invalidCnpj)
		if (tooManyCnpjs(cnpj)) {
			s.blocked_until = new Date(now.getTime() + HOUR).toISOString()
			logActivity(db, clock, 'whatsapp.bot-phone-blocked', { telefone: s.phone, cnpjs: MAX_CNPJS_PER_HOUR + 1 }, { entityId: s.phone })
			return done([], { blocked: true })
		}
		const found = db.select().from(companies).where(eq(companies.cnpj, cnpj)).get()
		// A client's CNPJ from a phone not registered for it gets the same answer as a CNPJ of no one (issue 33 #8).
		if (!found || !registeredFor(found, s.phone)) return wrongCnpj(words.cnpjNotServed(maskCnpj(cnpj)))
		s.wrong_cnpjs = 0
		Object.assign(s, { cnpj, empresa_codigo: found.codigo })
		go('menu')
		return done([words.menu(found.razao, trustOffered(found))])
	}

	// menu, consulting, generating_boleto: the company is known and this phone is registered for it.
	const c = company!
	if (s.step === 'generating_boleto') {
		const n = /^\d{1,2}$/.test(t) ? Number(t) : Number.NaN
		if (n === 0 || /^menu$/i.test(t)) {
			go('menu')
			s.choices = null
			return done([words.menu(c.razao, trustOffered(c))])
		}
		const ids: (number | string)[] = JSON.parse(s.choices ?? '[]')
		if (!(n >= 1 && n <= ids.length)) return done([words.parcelNotInList])
		const parcel = parcelsOf(c.codigo).find((p) => String(p.id) === String(ids[n - 1]))
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
			const { days, releaseEndsMs } = licenceState(c, todayIso(clock), now.getTime())
			return done([
				words.licence({
					razao: c.razao,
					validade: c.validade_licenca,
					days: c.validade_licenca ? daysBetween(todayIso(clock), c.validade_licenca) : days,
					systems: SYSTEM_CATALOGUE.map((sys) => ({ name: sys.name, blocked: c[sys.flag] === 'S' })),
					releaseUntil: releaseEndsMs ? formatDateTime(new Date(releaseEndsMs)) : null,
					trustOption: trustOffered(c)
				})
			])
		}
		case 2: {
			go('consulting')
			const parcels = parcelsOf(c.codigo)
			if (parcels.length === 0) return done([words.noParcels])
			return done([words.parcels(parcels.map((p, i) => words.parcelLine(i + 1, p)))])
		}
		case 3: {
			const parcels = parcelsOf(c.codigo)
			go('consulting')
			if (parcels.length === 0) return done([words.noParcels])
			go('generating_boleto')
			s.choices = JSON.stringify(parcels.map((p) => p.id))
			return done([words.pickParcel(parcels.map((p, i) => words.parcelLine(i + 1, p)))])
		}
		case 4: {
			go('consulting')
			const key = getSetting(db, 'bot_chave_pix')
			return done([pixMessage(key ? classifyPixKey(key) : null, getSetting(db, 'app.fornecedor_nome'))])
		}
		case 5:
			return handOff()
		case 6:
			if (trustOffered(c)) {
				go('consulting')
				try {
					const { expira } = trustReleaseByBot(db, clock, c.codigo)
					return done([words.trustReleased(formatDateTime(expira))])
				} catch (error) {
					return done([words.trustRefused((error as Error).message)])
				}
			}
	}
	go('menu')
	return done([words.menu(c.razao, trustOffered(c))])

	function handOff() {
		return done([words.handOff], { pause: true })
	}

	function wrongCnpj(reply: string) {
		s.wrong_cnpjs += 1
		return done(s.wrong_cnpjs >= 2 ? [`${reply}\n\n${words.attendantOffer}`] : [reply])
	}

	/** Records a valid CNPJ typed by the phone; true when it is the sixth different one within the hour. */
	function tooManyCnpjs(cnpj: string): boolean {
		const since = new Date(now.getTime() - HOUR).toISOString()
		db.insert(botCnpjAttempts).values({ phone_key: s.phone_key, cnpj, at: now.toISOString() }).run()
		const distinct =
			db
				.select({ n: sql<number>`count(distinct ${botCnpjAttempts.cnpj})` })
				.from(botCnpjAttempts)
				.where(and(eq(botCnpjAttempts.phone_key, s.phone_key), gte(botCnpjAttempts.at, since)))
				.get()?.n ?? 0
		return distinct > MAX_CNPJS_PER_HOUR
	}

	/** Option 6: the licence has expired and no trust release was given in the last 30 days. */
	function trustOffered(co: typeof c): boolean {
		if (licenceState(co, todayIso(clock), now.getTime()).state !== 'expirada') return false
		const last = co.liberacao_confianca_data ? Date.parse(co.liberacao_confianca_data) : Number.NaN
		return !(now.getTime() - last < TRUST_COOLDOWN_MS)
	}

	/** The company's open parcels (the carnês' PENDING and OVERDUE ones), soonest due first. */
	function parcelsOf(codigo: number): OpenParcel[] {
		return openParcelsOfCompany(db, codigo)
	}
}
