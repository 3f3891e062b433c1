import { useStore } from '@nanostores/react'
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import { type ReactNode, startTransition, useEffect, useState } from 'react'
import type { SortOrder } from '../../../modules/core'
import { $wide } from '../stores/viewport'

export interface Column<T> {
	/** Unique within the list. */
	key: string
	header: string
	cell: (row: T) => ReactNode
	/** The API's sort key for this column: its header becomes a button that sorts by it. */
	sort?: string
	className?: string
	/** Left out of the phone card (e.g. it is already the card's title). */
	hideOnCard?: boolean
}

export interface RowSelection<T> {
	isSelected: (row: T) => boolean
	toggle: (row: T) => void
	/** Every row of the page selected (true), some ('some') or none (false). */
	page: boolean | 'some'
	togglePage: () => void
	/** The accessible name of a row's checkbox: 'Selecionar Padaria X'. */
	label: (row: T) => string
}

export interface RowsProps<T> {
	rows: T[]
	columns: Column<T>[]
	rowKey: (row: T) => string | number
	/** The table's caption and the card list's name. */
	caption: string
	/** Title line of each phone card. */
	cardTitle: (row: T) => ReactNode
	actions?: (row: T) => ReactNode
	sort?: { column: string; order: SortOrder; onSort: (column: string) => void }
	selection?: RowSelection<T>
	/** A new view is loading: the rows shown are the previous ones. */
	busy?: boolean
}

function SortIcon({ active, order }: { active: boolean; order: SortOrder }) {
	if (!active) return <ArrowUpDown className="size-3.5 opacity-40" aria-hidden="true" />
	return order === 'asc' ? <ArrowUp className="size-3.5" aria-hidden="true" /> : <ArrowDown className="size-3.5" aria-hidden="true" />
}

/** A row's selection checkbox, named after the row ('Selecionar Padaria X'), in the table and on the card. */
function RowCheckbox<T>({ selection, row, className }: { selection: RowSelection<T>; row: T; className: string }) {
	return (
		<input
			type="checkbox"
			className={className}
			aria-label={selection.label(row)}
			checked={selection.isSelected(row)}
			onChange={() => selection.toggle(row)}
		/>
	)
}

function Table<T>({ rows, columns, rowKey, caption, actions, sort, selection, busy }: RowsProps<T>) {
	return (
		<div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
			<table className={`table table-sm ${busy ? 'opacity-60' : ''}`} aria-busy={busy || undefined}>
				<caption className="sr-only">{caption}</caption>
				<thead>
					<tr>
						{selection && (
							<th className="w-8">
								<input
									type="checkbox"
									className="checkbox checkbox-sm"
									aria-label="Selecionar todas desta página"
									checked={selection.page === true}
									ref={(el) => {
										if (el) el.indeterminate = selection.page === 'some'
									}}
									onChange={selection.togglePage}
								/>
							</th>
						)}
						{columns.map((c) => {
							const active = sort?.column === c.sort
							return (
								<th
									key={c.key}
									className={c.className}
									aria-sort={c.sort && active ? (sort?.order === 'asc' ? 'ascending' : 'descending') : undefined}
								>
									{c.sort && sort ? (
										<button
											type="button"
											className="inline-flex items-center gap-1 whitespace-nowrap hover:text-base-content"
											onClick={() => sort.onSort(c.sort!)}
										>
											{c.header}
											<SortIcon active={active} order={sort.order} />
										</button>
									) : (
										c.header
									)}
								</th>
							)
						})}
						{actions && <th className="text-right">Ações</th>}
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr key={rowKey(row)} className="hover:bg-base-200/50">
							{selection && (
								<td>
									<RowCheckbox selection={selection} row={row} className="checkbox checkbox-sm" />
								</td>
							)}
							{columns.map((c) => (
								<td key={c.key} className={c.className}>
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
	)
}

function Cards<T>({ rows, columns, rowKey, caption, cardTitle, actions, selection, busy }: RowsProps<T>) {
	return (
		<ul className={`space-y-3 ${busy ? 'opacity-60' : ''}`} aria-label={caption} aria-busy={busy || undefined}>
			{rows.map((row) => (
				// Cards below the fold skip style and layout until scrolled near (100 rows on a phone: issue 15).
				<li
					key={rowKey(row)}
					className="rounded-box border border-base-300 bg-base-100 p-4 [contain-intrinsic-size:auto_18rem] [content-visibility:auto]"
				>
					<div className="mb-2 flex items-start gap-3 font-semibold">
						{selection && <RowCheckbox selection={selection} row={row} className="checkbox checkbox-sm mt-0.5" />}
						<div className="min-w-0 grow">{cardTitle(row)}</div>
					</div>
					<dl className="grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
						{columns
							.filter((c) => !c.hideOnCard)
							.map((c) => (
								<div key={c.key} className="min-w-0">
									<dt className="text-xs text-base-content/70">{c.header}</dt>
									<dd className="break-words">{c.cell(row)}</dd>
								</div>
							))}
					</dl>
					{actions && <div className="mt-3 flex flex-wrap gap-1 border-t border-base-300 pt-3">{actions(row)}</div>}
				</li>
			))}
		</ul>
	)
}

/** Rows drawn in one go on a wide screen (a table row is light); the rest follow in batches of this size. */
export const TABLE_BATCH = 20
/**
 * Cards drawn in one go on a phone: a card is about sixty elements and three fill the screen, so the first commit
 * stays short and the rest follow in batches of this size, each its own task (issue 15).
 */
export const CARD_BATCH = 5

/**
 * The rows to draw now: the first `batch` at once, then the next batch after each commit, rendered as a
 * transition (React works on it in short slices). A page of 100 rows on a phone was one long task of seconds at
 * 4x CPU; now no task draws more than a batch (issue 15). The count only grows: a refresh of the list (after an
 * edit, a poll, the next page of an infinite list) keeps every row drawn, so the page neither shrinks under the
 * reader's scroll nor loses the focused row.
 */
export function useRowsInBatches<T>(rows: T[], batch: number): T[] {
	const [count, setCount] = useState(batch)
	useEffect(() => {
		if (count >= rows.length) return
		const timer = setTimeout(() => startTransition(() => setCount(count + batch)), 0)
		return () => clearTimeout(timer)
	}, [rows.length, count, batch])
	return count >= rows.length ? rows : rows.slice(0, count)
}

/**
 * Rows of a list in the one layout the screen calls for: a table on wide screens (sortable headers, optional
 * selection column), cards on phones. Only that layout is rendered.
 */
export function Rows<T>(props: RowsProps<T>) {
	const wide = useStore($wide)
	const rows = useRowsInBatches(props.rows, wide ? TABLE_BATCH : CARD_BATCH)
	return wide ? <Table {...props} rows={rows} /> : <Cards {...props} rows={rows} />
}
