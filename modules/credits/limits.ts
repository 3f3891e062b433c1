/**
 * Credit self-purchase (spec 3 §5, §9): 1 to this many whole credits at a time. A file without the schema library, so
 * the autocompra page reads the limit without loading zod (issue 15); model.ts re-exports it.
 */
export const MAX_PURCHASE_CREDITS = 1000

export const PURCHASE_QUANTITY_MESSAGE = `Informe uma quantidade de 1 a ${MAX_PURCHASE_CREDITS} créditos.`
export const PURCHASE_WHOLE_MESSAGE = 'A quantidade de créditos deve ser um número inteiro.'

/** What is wrong with a typed quantity (the server's own words), or null: never clamped to the limit. */
export function purchaseQuantityProblem(text: string): string | null {
	const n = Number(text.trim())
	if (text.trim() === '' || !Number.isFinite(n)) return PURCHASE_QUANTITY_MESSAGE
	if (!Number.isInteger(n)) return PURCHASE_WHOLE_MESSAGE
	return n < 1 || n > MAX_PURCHASE_CREDITS ? PURCHASE_QUANTITY_MESSAGE : null
}
