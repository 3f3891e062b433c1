import { useEffect, useState } from 'react'

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
 * A form's values, filled once from data that loads: null until the data first arrives, then the user's own. A later
 * reload of the data (after a save, a revalidation) never overwrites what is being typed.
 */
export function useFormFromData<D, F>(data: D | undefined, fill: (data: D) => F): [F | null, (values: F) => void] {
	const [values, setValues] = useState<F | null>(null)
	useEffect(() => {
		if (data !== undefined && values === null) setValues(fill(data))
	}, [data])
	return [values, setValues]
}

/** An action run from a button, and whether it is running (the button's spinner): `[pending, run]`. */
export function usePending<A extends unknown[]>(action: (...args: A) => Promise<unknown>): [boolean, (...args: A) => Promise<void>] {
	const [pending, setPending] = useState(false)
	async function run(...args: A) {
		setPending(true)
		try {
			await action(...args)
		} finally {
			setPending(false)
		}
	}
	return [pending, run]
}
