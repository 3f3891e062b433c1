/** Money crosses the API as a decimal number of reais and is stored as integer centavos. */
export function toCentavos(reais: number): number {
	return Math.round(reais * 100)
}

export function toReais(centavos: number): number {
	return centavos / 100
}

/** Reais as a money input shows them: 149.9 → "149,90" (decimal comma, two decimals, no thousands separator). */
export function moneyText(reais: number | string | null | undefined): string {
	const value = typeof reais === 'string' ? Number(reais) : reais
	if (value === null || value === undefined || !Number.isFinite(value)) return ''
	return value.toFixed(2).replace('.', ',')
}

/**
 * What a person typed in a money input, as reais: "149,90", "1.234,5", "149.9" and "R$ 10" all read; empty → null;
 * anything else → NaN (the form's schema words the problem).
 */
export function parseMoneyText(text: string): number | null {
	const clean = text.replace(/R\$|\s/g, '')
	if (clean === '') return null
	// With a comma, dots are thousands separators; without one, a single dot is the decimal point.
	const normalised = clean.includes(',') ? clean.replace(/\./g, '').replace(',', '.') : clean
	return /^-?\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : Number.NaN
}
