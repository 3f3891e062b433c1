/** pt-BR display formats, shared by the server and the islands. Dates shown in America/Sao_Paulo. */
export const TIME_ZONE = 'America/Sao_Paulo'

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })

/** Centavos → "R$ 1.234,56". */
export function formatMoney(centavos: number): string {
	return money.format(centavos / 100)
}

/** Reais (the API's decimal money) → "R$ 1.234,56". */
export function formatReais(reais: number): string {
	return money.format(reais)
}

const number = new Intl.NumberFormat('pt-BR')

/** 1234.5 → "1.234,5". */
export function formatNumber(value: number): string {
	return number.format(value)
}

/** "YYYY-MM-DD" → "dd/MM/yyyy"; empty → "Não definida". */
export function formatDate(isoDate: string | null | undefined): string {
	if (!isoDate) return 'Não definida'
	const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate)
	if (!m) return 'Não definida'
	return `${m[3]}/${m[2]}/${m[1]}`
}

const dateTime = new Intl.DateTimeFormat('pt-BR', {
	timeZone: TIME_ZONE,
	day: '2-digit',
	month: '2-digit',
	year: 'numeric',
	hour: '2-digit',
	minute: '2-digit'
})

/** ISO instant → "dd/MM/yyyy HH:mm" in Brazil time. */
export function formatDateTime(instant: string | Date | null | undefined): string {
	if (!instant) return ''
	return dateTime.format(new Date(instant)).replace(',', '')
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

/** ISO instant → its calendar date in Brazil time as "dd/MM/yyyy" (e.g. when an account was created). */
export function formatDateOf(instant: string | Date): string {
	return formatDate(isoDateInSaoPaulo(new Date(instant)))
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
