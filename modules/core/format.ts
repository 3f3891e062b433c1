/**
 * Display formats, shared by the server and the islands. Dates and money follow the portal's settings
 * (app.formato_data, app.moeda, app.fuso_horario): the server writes them into every page it serves and the page
 * calls `setDisplayFormats` once, so every date and amount shown goes through the functions below. Without that
 * call (the server, tests) they are Brazil's: dd/MM/yyyy, R$, America/Sao_Paulo. Business dates (what "today" is
 * for a licence) are always Brazil's: `isoDateInSaoPaulo`.
 */
export const TIME_ZONE = 'America/Sao_Paulo'

export const DATE_FORMATS = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const
export const CURRENCIES = ['BRL', 'USD', 'EUR'] as const
export const TIME_ZONES = ['America/Sao_Paulo', 'America/New_York', 'Europe/London'] as const

export interface DisplayFormats {
	dateFormat: (typeof DATE_FORMATS)[number]
	currency: (typeof CURRENCIES)[number]
	timeZone: (typeof TIME_ZONES)[number]
}

export const DEFAULT_FORMATS: DisplayFormats = { dateFormat: 'DD/MM/YYYY', currency: 'BRL', timeZone: TIME_ZONE }

let formats: DisplayFormats = DEFAULT_FORMATS
const moneyByCurrency = new Map<string, Intl.NumberFormat>()
const dateTimeByZone = new Map<string, Intl.DateTimeFormat>()

/** The formats of this page (unknown values keep the default). */
export function setDisplayFormats(next: Partial<Record<keyof DisplayFormats, unknown>> | null | undefined) {
	const pick = <K extends keyof DisplayFormats>(key: K, allowed: readonly string[]) =>
		(typeof next?.[key] === 'string' && allowed.includes(next[key] as string) ? next[key] : DEFAULT_FORMATS[key]) as DisplayFormats[K]
	formats = {
		dateFormat: pick('dateFormat', DATE_FORMATS),
		currency: pick('currency', CURRENCIES),
		timeZone: pick('timeZone', TIME_ZONES)
	}
}

export function displayFormats(): DisplayFormats {
	return formats
}

/**
 * Numbers, money and date-times are written here without Intl wherever the rules are plain: a page's first Intl
 * formatter loads ICU's data, about 250 ms of a mid-range phone's CPU in one task (issue 15). format.test.ts checks
 * every function below against Intl, value by value; Intl itself is kept for what the plain rules do not cover.
 */

/** The digits of |value| rounded half away from zero to at most `max` decimals, as Intl rounds: on the shortest decimal
 * that reads back as the number (1.005 → 1.01), not on its binary value. Null where JS writes an exponent. */
function roundedDigits(value: number, max: number): { int: string; fraction: string } | null {
	const text = String(Math.abs(value))
	if (!/^\d+(\.\d+)?$/.test(text)) return null
	const [int, fraction = ''] = text.split('.')
	if (fraction.length <= max) return { int, fraction }
	const kept = `${int}${fraction.slice(0, max)}`
	const up = fraction.charCodeAt(max) >= 53 // '5'
	const digits = up ? (BigInt(kept) + 1n).toString().padStart(kept.length, '0') : kept
	const cut = digits.length - max
	return { int: digits.slice(0, cut) || '0', fraction: digits.slice(cut) }
}

/** `value` the pt-BR way ("-1.234,5"), with `min` to `max` decimals; null when it needs Intl. */
function decimal(value: number, min: number, max: number): string | null {
	const digits = Number.isFinite(value) ? roundedDigits(value, max) : null
	if (!digits) return null
	let fraction = digits.fraction.replace(/0+$/, '')
	fraction = fraction.padEnd(min, '0')
	const sign = value < 0 || Object.is(value, -0) ? '-' : ''
	return `${sign}${digits.int.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}${fraction ? `,${fraction}` : ''}`
}

const CURRENCY_SYMBOLS: Record<DisplayFormats['currency'], string> = { BRL: 'R$', USD: 'US$', EUR: '€' }

/** `amount` in `currency` the pt-BR way ("-R$ 1.234,56"), `space` between the symbol and the digits. */
function money(amount: number, currency: DisplayFormats['currency'], space: string): string {
	const text = decimal(Math.abs(amount), 2, 2)
	const sign = amount < 0 || Object.is(amount, -0) ? '-' : ''
	if (text !== null) return `${sign}${CURRENCY_SYMBOLS[currency]}${space}${text}`
	let format = moneyByCurrency.get(currency)
	if (!format) {
		format = new Intl.NumberFormat('pt-BR', { style: 'currency', currency })
		moneyByCurrency.set(currency, format)
	}
	return format.format(amount).replace('\u00a0', space)
}

/** Centavos → "R$ 1.234,56" (or the configured currency's symbol: the amount is not converted). */
export function formatMoney(centavos: number): string {
	return money(centavos / 100, formats.currency, '\u00a0')
}

/** Reais (the API's decimal money) → "R$ 1.234,56". */
export function formatReais(reais: number): string {
	return money(reais, formats.currency, '\u00a0')
}

/**
 * Centavos → "R$ 1.234,56", always Brazil's way with a plain space, whatever the display settings: the money of every
 * text that leaves the screen it was made for (activity log, top-bar notifications, WhatsApp messages, error messages,
 * exports). The screens' own figures use `formatMoney`, which follows app.moeda.
 */
export function formatBrl(centavos: number): string {
	// + 0 turns −0 into 0: a message says "R$ 0,00", never "-R$ 0,00".
	return money(centavos / 100 + 0, 'BRL', ' ')
}

/** Made on first use: an Intl formatter costs its module's evaluation, on every page's first load (issue 15). */
function lazily<T>(make: () => T): () => T {
	let made: T | undefined
	return () => (made ??= make())
}

const number = lazily(() => new Intl.NumberFormat('pt-BR'))

/** 1234.5 → "1.234,5" (up to 3 decimals). */
export function formatNumber(value: number): string {
	return decimal(value, 0, 3) ?? number().format(value)
}

/** 12.25 → "12,3%". */
export function formatPercent(value: number): string {
	return `${decimal(value, 1, 1) ?? value.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`
}

/** Day, month and year in the configured order (or the one given). */
function ordered(day: string, month: string, year: string, order = formats.dateFormat): string {
	switch (order) {
		case 'MM/DD/YYYY':
			return `${month}/${day}/${year}`
		case 'YYYY-MM-DD':
			return `${year}-${month}-${day}`
		default:
			return `${day}/${month}/${year}`
	}
}

const ISO_DATE_START = /^(\d{4})-(\d{2})-(\d{2})/

/** "YYYY-MM-DD" (a time after it is ignored) → "dd/MM/yyyy" (or the configured order); empty → "Não definida". */
export function formatDate(isoDate: string | null | undefined): string {
	const m = isoDate ? ISO_DATE_START.exec(isoDate) : null
	return m ? ordered(m[3], m[2], m[1]) : 'Não definida'
}

/**
 * "YYYY-MM-DD" (a time after it is ignored) → "dd/MM/yyyy", always Brazil's order whatever the display settings, and
 * empty when there is no date: the date of every text that leaves the screen, as `formatBrl` is its money (activity
 * log, WhatsApp messages, error messages, exports: spreadsheets in Brazil read it as a date). The screens' own dates
 * use `formatDate`, which follows app.formato_data.
 */
export function formatBrDate(isoDate: string | null | undefined): string {
	const m = isoDate ? ISO_DATE_START.exec(isoDate) : null
	return m ? ordered(m[3], m[2], m[1], 'DD/MM/YYYY') : ''
}

/** The n-th Sunday (-1: the last) of a month (0-based) of a year, at an hour of UTC. */
function sunday(year: number, month: number, n: number, hourUtc: number): number {
	if (n < 0) {
		const last = new Date(Date.UTC(year, month + 1, 0))
		return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), hourUtc)
	}
	const first = new Date(Date.UTC(year, month, 1)).getUTCDay()
	return Date.UTC(year, month, 1 + ((7 - first) % 7) + (n - 1) * 7, hourUtc)
}

/**
 * A zone's offset from UTC in minutes at an instant, by the rules in force since Brazil ended daylight saving (2019),
 * the US's of 2007 and the EU's of 1996; null before them, and Intl answers. Should a law change them, format.test.ts,
 * which compares these with Intl's time-zone data year by year, fails.
 */
function zoneOffset(zone: DisplayFormats['timeZone'], ms: number): number | null {
	const year = new Date(ms).getUTCFullYear()
	switch (zone) {
		case 'America/Sao_Paulo':
			return ms >= Date.UTC(2019, 1, 17, 2) ? -180 : null
		case 'America/New_York':
			if (year < 2007) return null
			return ms >= sunday(year, 2, 2, 7) && ms < sunday(year, 10, 1, 6) ? -240 : -300
		case 'Europe/London':
			if (year < 1996) return null
			return ms >= sunday(year, 2, -1, 1) && ms < sunday(year, 9, -1, 1) ? 60 : 0
	}
}

/** The zone's wall clock at an instant, in the UTC fields of a Date; null when Intl must answer. */
function wallClock(instant: Date, zone: DisplayFormats['timeZone']): Date | null {
	const ms = instant.getTime()
	const offset = Number.isNaN(ms) ? null : zoneOffset(zone, ms)
	return offset === null ? null : new Date(ms + offset * 60_000)
}

const two = (n: number) => String(n).padStart(2, '0')

function dateTime(): Intl.DateTimeFormat {
	let format = dateTimeByZone.get(formats.timeZone)
	if (!format) {
		format = new Intl.DateTimeFormat('en-GB', {
			timeZone: formats.timeZone,
			day: '2-digit',
			month: '2-digit',
			year: 'numeric',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23'
		})
		dateTimeByZone.set(formats.timeZone, format)
	}
	return format
}

/** ISO instant → "dd/MM/yyyy HH:mm" (date in the configured order) in the configured time zone (Brazil's by default). */
export function formatDateTime(instant: string | Date | null | undefined): string {
	if (!instant) return ''
	const wall = wallClock(new Date(instant), formats.timeZone)
	if (wall) {
		const date = ordered(two(wall.getUTCDate()), two(wall.getUTCMonth() + 1), String(wall.getUTCFullYear()))
		return `${date} ${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}`
	}
	const parts = Object.fromEntries(
		dateTime()
			.formatToParts(new Date(instant))
			.map((p) => [p.type, p.value])
	)
	return `${ordered(parts.day, parts.month, parts.year)} ${parts.hour}:${parts.minute}`
}

const isoDate = lazily(() => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }))
const time24 = lazily(
	() =>
		new Intl.DateTimeFormat('pt-BR', {
			timeZone: TIME_ZONE,
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hour12: false
		})
)

/** The calendar date in Brazil time as "YYYY-MM-DD". */
export function isoDateInSaoPaulo(instant: Date): string {
	const wall = wallClock(instant, TIME_ZONE)
	if (wall) return `${wall.getUTCFullYear()}-${two(wall.getUTCMonth() + 1)}-${two(wall.getUTCDate())}`
	return isoDate().format(instant)
}

/** ISO instant → its calendar date (in the configured time zone) as "dd/MM/yyyy" (e.g. when an account was created). */
export function formatDateOf(instant: string | Date): string {
	return formatDateTime(instant).slice(0, 10)
}

/** The clock time in Brazil as "HH:mm:ss". */
export function timeInSaoPaulo(instant: Date): string {
	const wall = wallClock(instant, TIME_ZONE)
	if (wall) return `${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}`
	return time24().format(instant)
}

/** The day, time and whether it is a weekend in Brazil: what the daily WhatsApp jobs run by. */
export function brazilNow(instant: Date): { today: string; time: string; weekend: boolean } {
	const today = isoDateInSaoPaulo(instant)
	const weekday = new Date(`${today}T12:00:00Z`).getUTCDay()
	return { today, time: timeInSaoPaulo(instant), weekend: weekday === 0 || weekday === 6 }
}

/** 'agora', 'há N min', 'há Nh', 'há N dias' */
export function formatRelative(instant: string | Date, now: Date): string {
	const diff = Math.max(0, now.getTime() - new Date(instant).getTime())
	const min = Math.floor(diff / 60_000)
	if (min < 1) return 'agora'
	if (min < 60) return `há ${min} min`
	const hours = Math.floor(min / 60)
	if (hours < 24) return `há ${hours}h`
	const days = Math.floor(hours / 24)
	return `há ${days} ${days === 1 ? 'dia' : 'dias'}`
}

export function initials(name: string): string {
	const words = name.trim().split(/\s+/).filter(Boolean)
	if (words.length === 0) return '?'
	const first = words[0][0] ?? ''
	const last = words.length > 1 ? (words[words.length - 1][0] ?? '') : ''
	return (first + last).toUpperCase()
}
