import { useEffect, useState } from 'react'
import type { MapStore } from 'nanostores'

/**
 * False during the server render and until the island hydrates. Forms rendered by the server stay
 * read-only until then, so nothing typed before hydration is silently lost.
 */
export function useHydrated(): boolean {
	const [hydrated, setHydrated] = useState(false)
	useEffect(() => setHydrated(true), [])
	return hydrated
}

/** The value, once it has stopped changing for `ms` (search boxes: 300 ms). */
export function useDebounced<T>(value: T, ms = 300): T {
	const [debounced, setDebounced] = useState(value)
	useEffect(() => {
		const id = setTimeout(() => setDebounced(value), ms)
		return () => clearTimeout(id)
	}, [value, ms])
	return debounced
}

/**
 * A search box: the text as typed, its setter, and the debounced text; 300 ms after typing stops,
 * `apply` receives it (e.g. sets the list's search store). `initial` may read the URL: `searchFromUrl`.
 */
export function useSearch(
	apply: (debounced: string) => void,
	initial: string | (() => string) = ''
): [string, (value: string) => void, string] {
	const [text, setText] = useState(initial)
	const debounced = useDebounced(text)
	// Only the debounced text triggers it; `apply` may be a new function on each render.
	useEffect(() => apply(debounced), [debounced])
	return [text, setText, debounced]
}

/** The `?search=` of the page's address (links from other pages open a filtered list). */
export const searchFromUrl = () => new URLSearchParams(location.search).get('search') ?? ''

/** For a list query kept in a map store: the new search, back on page 1 (nothing when unchanged). */
export const searchOnFirstPage =
	<Q extends { search: string; page: number }>(store: MapStore<Q>) =>
	(search: string) => {
		const q = store.get()
		if (search !== q.search) store.set({ ...q, search, page: 1 })
	}

/**
 * The state of a create/edit dialog: `show(null)` opens it empty, `show(row)` to edit `row`; `key` changes on
 * every opening, so `<Dialog key={dialog.key} …/>` starts from a fresh form.
 */
export function useEditDialog<T>() {
	const [state, setState] = useState<{ open: boolean; editing: T | null; key: number }>({ open: false, editing: null, key: 0 })
	return {
		...state,
		show: (editing: T | null) => setState((d) => ({ open: true, editing, key: d.key + 1 })),
		close: () => setState((d) => ({ ...d, open: false }))
	}
}
