/** Input masks of the forms (no zod: safe to import in islands). */

/** (00) 0000-0000 or (00) 00000-0000 while typing; a leading 55 is kept out of the mask. */
export function maskPhone(input: string): string {
	let d = input.replace(/\D/g, '')
	if (d.length > 11 && d.startsWith('55')) d = d.slice(2)
	d = d.slice(0, 11)
	if (d.length === 0) return ''
	if (d.length <= 2) return `(${d}`
	const rest = d.slice(2)
	const split = d.length === 11 ? 5 : 4
	return rest.length <= split ? `(${d.slice(0, 2)}) ${rest}` : `(${d.slice(0, 2)}) ${rest.slice(0, split)}-${rest.slice(split)}`
}

/** 00000-000 while typing. */
export function maskCep(input: string): string {
	const d = input.replace(/\D/g, '').slice(0, 8)
	return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d
}
