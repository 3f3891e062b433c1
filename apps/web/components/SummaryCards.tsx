import { useStore } from '@nanostores/react'
import type { ReadableAtom } from 'nanostores'
import type { ReactNode } from 'react'
import { StatGrid } from './ui'

/**
 * The cards above a list, drawn from the list's own answer (its totals, or its rows) once it has come; until then
 * the grid keeps their place with skeletons. Only the cards subscribe to the answer, so the list does not redraw
 * with them.
 */
export function SummaryCards<D, S>({
	source,
	read,
	count,
	className,
	children
}: {
	source: { $data: ReadableAtom<{ data?: D }> }
	/** The part of the answer the cards show (nothing yet: skeletons). */
	read: (data: D) => S | undefined
	count: number
	className?: string
	children: (summary: S) => ReactNode
}) {
	const { data } = useStore(source.$data)
	const summary = data === undefined ? undefined : read(data)
	return (
		<StatGrid count={count} className={className}>
			{summary !== undefined && children(summary)}
		</StatGrid>
	)
}
