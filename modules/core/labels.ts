/**
 * The values of a closed list, read from the record that labels them, so each value is written once:
 * `valuesOf({ a: 'Um', b: 'Dois' })` is `['a', 'b']`, ready for `z.enum`.
 */
export function valuesOf<const L extends Record<string, string>>(labels: L) {
	return Object.keys(labels) as [keyof L & string, ...(keyof L & string)[]]
}
