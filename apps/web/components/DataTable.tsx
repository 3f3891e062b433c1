import type { ReactNode } from 'react'

export interface Column<T> {
	header: string
	cell: (row: T) => ReactNode
	className?: string
	/** Leave this column out of the phone card (e.g. it is already the card's title). */
	hideOnCard?: boolean
}

interface DataTableProps<T> {
	rows: T[] | undefined
	columns: Column<T>[]
	rowKey: (row: T) => string | number
	loading?: boolean
	skeletonRows?: number
	/** Shown when the list is loaded and empty. */
	empty: ReactNode
	/** Title line of each phone card. */
	cardTitle: (row: T) => ReactNode
	actions?: (row: T) => ReactNode
	caption?: string
}

/** The one list component: a table on large screens, cards on phones, skeleton rows while loading. */
export function DataTable<T>({ rows, columns, rowKey, loading, skeletonRows = 5, empty, cardTitle, actions, caption }: DataTableProps<T>) {
	if (loading && !rows) {
		return (
			<div className="space-y-2" role="status" aria-busy="true" aria-label="Carregando">
				{Array.from({ length: skeletonRows }, (_, i) => (
					<div key={i} className="skeleton h-14 w-full" />
				))}
			</div>
		)
	}
	if (!rows || rows.length === 0) return <>{empty}</>

	return (
		<>
			<div className="hidden overflow-x-auto rounded-box border border-base-300 bg-base-100 lg:block">
				<table className="table table-sm">
					{caption && <caption className="sr-only">{caption}</caption>}
					<thead>
						<tr>
							{columns.map((c) => (
								<th key={c.header} className={c.className}>
									{c.header}
								</th>
							))}
							{actions && <th className="text-right">Ações</th>}
						</tr>
					</thead>
					<tbody>
						{rows.map((row) => (
							<tr key={rowKey(row)} className="hover:bg-base-200/50">
								{columns.map((c) => (
									<td key={c.header} className={c.className}>
										{c.cell(row)}
									</td>
								))}
								{actions && (
									<td className="text-right">
										<div className="flex flex-nowrap justify-end gap-0.5">{actions(row)}</div>
									</td>
								)}
							</tr>
						))}
					</tbody>
				</table>
			</div>
			<ul className="space-y-3 lg:hidden">
				{rows.map((row) => (
					<li key={rowKey(row)} className="rounded-box border border-base-300 bg-base-100 p-4">
						<div className="mb-2 font-semibold">{cardTitle(row)}</div>
						<dl className="grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
							{columns
								.filter((c) => !c.hideOnCard)
								.map((c) => (
									<div key={c.header} className="min-w-0">
										<dt className="text-xs text-base-content/60">{c.header}</dt>
										<dd className="break-words">{c.cell(row)}</dd>
									</div>
								))}
						</dl>
						{actions && <div className="mt-3 flex flex-wrap gap-1 border-t border-base-300 pt-3">{actions(row)}</div>}
					</li>
				))}
			</ul>
		</>
	)
}
