/** Money crosses the API as a decimal number of reais and is stored as integer centavos. */
export function toCentavos(reais: number): number {
	return Math.round(reais * 100)
}

export function toReais(centavos: number): number {
	return centavos / 100
}
