/**
 * The values of a closed list, read from the record that labels them, so each value is written once:
 * `valuesOf({ a: 'Um', b: 'Dois' })` is `['a', 'b']`, ready for `z.enum`.
 */
export function valuesOf<const L extends Record<string, string>>(labels: L) {
	return Object.keys(labels) as [keyof L & string, ...(keyof L & string)[]]
}

/**
 * A carnê's name wherever a person reads it (its card, the payment history, the activity log, the PDF's file and tab,
 * the WhatsApp message): the portal's number, not Asaas' plan id (issue 34, point 8). In core because the activity log,
 * which billing writes to, names carnês too.
 */
export function carneName(id: number): string {
	return `Carnê nº ${id}`
}
