import { isIsoDate } from './dates'

/** Input masks applied while typing (pure: used by the islands, tested here). */
const digits = (v: string) => v.replace(/\D/g, '')

export function maskCep(value: string): string {
	const d = digits(value).slice(0, 8)
	return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d
}

/** (00) 0000-0000 or (00) 00000-0000 while typing; a leading 55 is kept out of the mask. */
export function maskPhone(value: string): string {
	let d = digits(value)
	if (d.length > 11 && d.startsWith('55')) d = d.slice(2)
	d = d.slice(0, 11)
	if (d.length <= 2) return d.length ? `(${d}` : ''
	const rest = d.slice(2)
	const split = d.length === 11 ? 5 : 4
	return rest.length > split ? `(${d.slice(0, 2)}) ${rest.slice(0, split)}-${rest.slice(split)}` : `(${d.slice(0, 2)}) ${rest}`
}

/** AA:BB:CC:DD:EE:FF, uppercase, at most 17 characters. */
export function maskMac(value: string): string {
	const hex = value
		.replace(/[^0-9a-fA-F]/g, '')
		.toUpperCase()
		.slice(0, 12)
	return hex.match(/.{1,2}/g)?.join(':') ?? ''
}

export function formatPhone(value: string | null | undefined): string {
	return value ? maskPhone(value) : ''
}

/** dd/mm/aaaa while typing. */
export function maskDate(value: string): string {
	const d = digits(value).slice(0, 8)
	if (d.length <= 2) return d
	if (d.length <= 4) return `${d.slice(0, 2)}/${d.slice(2)}`
	return `${d.slice(0, 2)}/${d.slice(2, 4)}/${d.slice(4)}`
}

/** "dd/mm/aaaa" → "YYYY-MM-DD", or null when it is not a complete, real date. */
export function brDateToIso(text: string): string | null {
	const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text)
	if (!m) return null
	const iso = `${m[3]}-${m[2]}-${m[1]}`
	return isIsoDate(iso) ? iso : null
}
