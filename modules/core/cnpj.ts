/**
 * CNPJ: 12 base characters (digits, or letters since the alphanumeric CNPJ of July 2026)
 * followed by 2 numeric check digits. Each character weighs its ASCII code minus 48,
 * so digits keep their value and 'A' weighs 17.
 */
const BASE_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
const BASE_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]

/** Uppercase, without punctuation: the form stored and sent to the server. */
export function normalizeCnpj(input: string): string {
	return input.replace(/[^0-9a-zA-Z]/g, '').toUpperCase()
}

function checkDigit(chars: string, weights: number[]): number {
	let sum = 0
	for (let i = 0; i < weights.length; i++) sum += (chars.charCodeAt(i) - 48) * weights[i]
	const rest = sum % 11
	return rest < 2 ? 0 : 11 - rest
}

export function isValidCnpj(input: string): boolean {
	const cnpj = normalizeCnpj(input)
	if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj)) return false
	if (/^(.)\1{13}$/.test(cnpj)) return false
	const first = checkDigit(cnpj, BASE_WEIGHTS_1)
	const second = checkDigit(cnpj, BASE_WEIGHTS_2)
	return cnpj[12] === String(first) && cnpj[13] === String(second)
}

/** 00.000.000/0000-00 for a complete CNPJ; a partial one is masked as far as it goes. */
export function formatCnpj(input: string | null | undefined): string {
	if (!input) return ''
	return maskCnpj(input)
}

/** The mask applied while typing: letters allowed in the 12 base positions, digits only in the last 2. */
export function maskCnpj(input: string): string {
	let chars = ''
	for (const ch of normalizeCnpj(input)) {
		if (chars.length >= 14) break
		if (chars.length >= 12 && !/[0-9]/.test(ch)) continue
		chars += ch
	}
	const parts = [chars.slice(0, 2), chars.slice(2, 5), chars.slice(5, 8), chars.slice(8, 12), chars.slice(12, 14)]
	let out = parts[0]
	if (parts[1]) out += `.${parts[1]}`
	if (parts[2]) out += `.${parts[2]}`
	if (parts[3]) out += `/${parts[3]}`
	if (parts[4]) out += `-${parts[4]}`
	return out
}

/** Builds a valid CNPJ from 12 base characters (used by the demo seed and tests). */
export function completeCnpj(base12: string): string {
	const base = normalizeCnpj(base12)
	if (!/^[0-9A-Z]{12}$/.test(base)) throw new Error('base must have 12 characters')
	const first = checkDigit(base, BASE_WEIGHTS_1)
	const withFirst = base + first
	return withFirst + checkDigit(withFirst, BASE_WEIGHTS_2)
}
