import { useStore } from '@nanostores/react'
import type { ReadableAtom } from 'nanostores'
import type { ReactNode } from 'react'
import { errorText } from '../lib/api'
import { ErrorPanel } from './ui'

/** A read the screen shows: a route's store (lib/query.ts routeStore). */
export type ReadStore<D> = ReadableAtom<{ data?: D; error?: unknown }> & { revalidate: () => void }

/**
 * What a card shows of a read: its error with a retry, `skeleton` while it loads, what `empty` (if given) draws when
 * the data holds nothing (it answers false otherwise), else what `children` draws of the data.
 */
export function ReadState<D>({
	store,
	errorTitle,
	skeleton,
	empty,
	children
}: {
	store: ReadStore<D>
	errorTitle: string
	skeleton: ReactNode
	empty?: (data: D) => ReactNode | false
	children: (data: D) => ReactNode
}) {
	const { data, error } = useStore(store)
	if (error) return <ErrorPanel title={errorTitle} message={errorText(error)} onRetry={() => store.revalidate()} />
	if (!data) return skeleton
	return empty?.(data) || children(data)
}
