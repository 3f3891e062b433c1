import { atom, onMount } from 'nanostores'

/** Where the lists switch from cards (phones) to a table: daisyUI's lg. */
export const WIDE_QUERY = '(min-width: 1024px)'

const matches = () => typeof window !== 'undefined' && window.matchMedia(WIDE_QUERY).matches

/**
 * True on a wide screen. The lists render only the layout of the current viewport (a table or cards, never both
 * with one hidden), so a phone's DOM holds one card per row and a desktop's one table row.
 */
export const $wide = atom(matches())

onMount($wide, () => {
	const query = window.matchMedia(WIDE_QUERY)
	const update = () => $wide.set(query.matches)
	update()
	query.addEventListener('change', update)
	return () => query.removeEventListener('change', update)
})
