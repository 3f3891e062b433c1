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

function money(): Intl.NumberFormat {
	let format = moneyByCurrency.get(formats.currency)
	if (!format) {
		format = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: formats.currency })
		moneyByCurrency.set(formats.currency, format)
	}
	return format
}

/** Centavos → "R$ 1.234,56" (or the configured currency's symbol: the amount is not converted). */
export function formatMoney(centavos: number): string {
	return money().format(centavos / 100)
}

/** Reais (the API's decimal money) → "R$ 1.234,56". */
export function formatReais(reais: number): string {
	return money().format(reais)
}

const number = new Intl.NumberFormat('pt-BR')

/** 1234.5 → "1.234,5". */
export function formatNumber(value: number): string {
	return number.format(value)
}

/** Day, month and year in the configured order. */
function ordered(day: string, month: string, year: string): string {
	switch (formats.dateFormat) {
		case 'MM/DD/YYYY':
			return `${month}/${day}/${year}`
		case 'YYYY-MM-DD':
			return `${year}-${month}-${day}`
		default:
			return `${day}/${month}/${year}`
	}
}

/** "YYYY-MM-DD" → "dd/MM/yyyy" (or the configured order); empty → "Não definida". */
export function formatDate(isoDate: string | null | undefined): string {
	if (!isoDate) return 'Não definida'
	const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate)
	if (!m) return 'Não definida'
	return ordered(m[3], m[2], m[1])
}

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
	const parts = Object.fromEntries(
		dateTime()
			.formatToParts(new Date(instant))
			.map((p) => [p.type, p.value])
	)
	return `${ordered(parts.day, parts.month, parts.year)} ${parts.hour}:${parts.minute}`
}

const isoDate = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE })
const time24 = new Intl.DateTimeFormat('pt-BR', {
	timeZone: TIME_ZONE,
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
	hour12: false
})

/** The calendar date in Brazil time as "YYYY-MM-DD". */
export function isoDateInSaoPaulo(instant: Date): string {
	return isoDate.format(instant)
}

/** ISO instant → its calendar date (in the configured time zone) as "dd/MM/yyyy" (e.g. when an account was created). */
export function formatDateOf(instant: string | Date): string {
	return formatDateTime(instant).slice(0, 10)
}

/** The clock time in Brazil as "HH:mm:ss". */
export function timeInSaoPaulo(instant: Date): string {
	return time24.format(instant)
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
