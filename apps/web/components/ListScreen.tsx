import { useStore } from '@nanostores/react'
import { FileDown } from 'lucide-react'
import type { ReadableAtom } from 'nanostores'
import { type ReactNode, Suspense, useEffect, useState } from 'react'
import { type CsvCell, formatCnpj, formatDate, formatNumber, formatReais, toggleSort } from '../../../modules/core'
import { errorText } from '../lib/api'
import { downloadCsv } from '../lib/csv'
import { useDebounced } from '../lib/hooks'
import type { ListSource } from '../lib/list'
import { type ListNoun, listWords } from '../lib/list-words'
import { $wide } from '../stores/viewport'
import { LoadMore } from './LoadMore'
import { Pagination } from './Pagination'
import { type Column, type RowSelection, Rows } from './Rows'
import { DateInput, EmptyState, ErrorPanel, SearchInput, StatGrid } from './ui'

export type { Column } from './Rows'

/**
 * A filter of the toolbar: a select of values, a date (dd/mm/aaaa in, YYYY-MM-DD in the address), or a control of
 * its own (the searchable company picker).
 */
export type ListFilter =
	| { key: string; label: string; options: readonly (readonly [value: string, label: string])[] }
	| { key: string; label: string; date: true }
	| { key: string; label: string; control: (value: string, set: (value: string) => void) => ReactNode }

/**
 * Columns that render the same kind of cell on every list. A column's key is only React's: the sort key (what the
 * API orders by) or the header.
 */

/** The column that names the row: left out of the phone card, whose title already says it. */
export function titleColumn<T>(head: { header: string; sort?: string }, cell: (row: T) => ReactNode): Column<T> {
	return { key: head.sort ?? head.header, header: head.header, sort: head.sort, hideOnCard: true, cell }
}

/** A company's or representative's CNPJ, masked, in monospace. */
export function cnpjColumn<T extends { cnpj: string }>(): Column<T> {
	return { key: 'cnpj', header: 'CNPJ', sort: 'cnpj', cell: (row) => <span className="font-mono text-xs">{formatCnpj(row.cnpj)}</span> }
}

/** A day (YYYY-MM-DD), in the portal's date format ('Não definida' when there is none). */
export function dateColumn<T>(header: string, day: (row: T) => string | null | undefined, sort?: string): Column<T> {
	return { key: sort ?? header, header, sort, cell: (row) => formatDate(day(row)) }
}

/** A count (credits), with figures that line up. */
export function numberColumn<T>(header: string, value: (row: T) => number, sort?: string): Column<T> {
	return { key: sort ?? header, header, sort, className: 'tabular-nums', cell: (row) => formatNumber(value(row)) }
}

/** An amount in reais, with figures that line up ('-' when there is none). */
export function moneyColumn<T>(header: string, reais: (row: T) => number | null): Column<T> {
	return {
		key: header,
		header,
		cell: (row) => {
			const value = reais(row)
			return <span className="tabular-nums">{value === null ? '-' : formatReais(value)}</span>
		}
	}
}

export interface ListScreenProps<T> {
	source: ListSource<T>
	/**
	 * What the rows are. The paging line counts them ('Mostrando 1 a 20 de 42 empresas'), and unless the page words
	 * them otherwise the caption ('Empresas'), the search's label ('Buscar empresas'), the empty state ('Nenhuma
	 * empresa encontrada') and the error ('Erro ao carregar empresas') are said with it.
	 */
	noun: ListNoun
	/** The table's caption and the card list's name. */
	caption?: string
	search?: { placeholder: string; label?: string }
	filters?: ListFilter[]
	columns: Column<T>[]
	rowKey: (row: T) => string | number
	cardTitle: (row: T) => ReactNode
	actions?: (row: T) => ReactNode
	empty?: { title?: string; hint?: string; icon?: ReactNode }
	error?: { title?: string; fallback?: string }
	/**
	 * The CSV export of a small list held whole, made here. A list the server exports (its source has exportHref)
	 * offers the server's export without it.
	 */
	csv?: { filename: string; rows: (rows: T[]) => CsvCell[][] }
	selection?: RowSelection<T>
	/** Shown between the toolbar and the rows (the bulk actions of a selection). */
	between?: ReactNode
	skeletonRows?: number
}

function Skeleton({ rows }: { rows: number }) {
	return (
		<div className="space-y-2" role="status" aria-busy="true" aria-label="Carregando">
			{Array.from({ length: rows }, (_, i) => (
				<div key={i} className="skeleton h-14 w-full" />
			))}
		</div>
	)
}

/** The list's search field, debounced into the address (also a custom list's toolbar, as on Carnês). */
export function SearchBox<T>({ source, placeholder, label }: { source: ListSource<T>; placeholder: string; label: string }) {
	const [text, setText] = useState(() => source.$params.get().search)
	const debounced = useDebounced(text)
	useEffect(() => {
		if (debounced.trim() !== source.$params.get().search.trim()) source.update({ search: debounced })
	}, [debounced])
	return <SearchInput value={text} onChange={setText} placeholder={placeholder} label={label} />
}

export function FilterControl<T>({ source, filter, value }: { source: ListSource<T>; filter: ListFilter; value: string }) {
	const set = (v: string) => source.update({ filters: { [filter.key]: v } })
	if ('control' in filter) return filter.control(value, set)
	if ('date' in filter) {
		return (
			<label className="flex items-center gap-2 text-sm">
				<span className="shrink-0 text-base-content/70">{filter.label}</span>
				<DateInput className="w-40" value={value} onChange={(v) => (v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v) ? set(v) : undefined)} />
			</label>
		)
	}
	return (
		<label className="flex items-center gap-2 text-sm">
			<span className="shrink-0 text-base-content/70">{filter.label}</span>
			<select className="select select-sm w-full sm:w-auto" aria-label={filter.label} value={value} onChange={(e) => set(e.target.value)}>
				{filter.options.map(([v, text]) => (
					<option key={v} value={v}>
						{text}
					</option>
				))}
			</select>
		</label>
	)
}

/** On phones there are no column headers: the order is chosen from a menu. */
function SortMenu<T>({ source, columns }: { source: ListSource<T>; columns: Column<T>[] }) {
	const params = useStore(source.$params)
	const sortable = columns.filter((c) => c.sort)
	if (sortable.length === 0) return null
	return (
		<label className="flex items-center gap-2 text-sm">
			<span className="shrink-0 text-base-content/70">Ordenar por</span>
			<select
				className="select select-sm w-full"
				aria-label="Ordenar por"
				value={`${params.sort}:${params.order}`}
				onChange={(e) => {
					const [sort, order] = e.target.value.split(':')
					source.update({ sort, order: order as 'asc' | 'desc' })
				}}
			>
				{sortable.flatMap((c) => [
					<option key={`${c.sort}:asc`} value={`${c.sort}:asc`}>
						{c.header} (crescente)
					</option>,
					<option key={`${c.sort}:desc`} value={`${c.sort}:desc`}>
						{c.header} (decrescente)
					</option>
				])}
			</select>
		</label>
	)
}

function ExportLink<T>({ source, csv }: { source: ListSource<T>; csv: ListScreenProps<T>['csv'] }) {
	useStore(source.$params)
	const className = 'btn btn-sm btn-ghost'
	const content = (
		<>
			<FileDown className="size-4" aria-hidden="true" /> Exportar CSV
		</>
	)
	if (source.exportHref) {
		return (
			<a className={className} href={source.exportHref()} download>
				{content}
			</a>
		)
	}
	if (!csv || !source.viewRows) return null
	return (
		<button type="button" className={className} onClick={() => downloadCsv(csv.filename, csv.rows(source.viewRows!()))}>
			{content}
		</button>
	)
}

/**
 * The one list screen of the portal (issue 14): search, filters, order, page and page size kept in the address;
 * loading, empty and error states; CSV export of the current view; a table on wide screens and cards on phones
 * (only the one the viewport calls for); optional row selection for bulk actions.
 */
export function ListScreen<T>(props: ListScreenProps<T>) {
	const { source, noun, search, filters = [], columns, empty, error, csv, between, skeletonRows = 6 } = props
	const words = listWords(props)
	const params = useStore(source.$params)
	const view = useStore(source.$view)
	const wide = useStore($wide)
	const filtered =
		params.search.trim() !== '' || filters.some((f) => (params.filters[f.key] ?? '') !== (source.spec.filters?.[f.key]?.default ?? ''))

	return (
		<div className="space-y-4">
			<div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
				{search && <SearchBox source={source} placeholder={search.placeholder} label={words.searchLabel} />}
				{filters.map((f) => (
					<FilterControl key={f.key} source={source} filter={f} value={params.filters[f.key] ?? ''} />
				))}
				{!wide && <SortMenu source={source} columns={columns} />}
				{(source.exportHref || csv) && (
					<div className="sm:ml-auto">
						<ExportLink source={source} csv={csv} />
					</div>
				)}
			</div>
			{between}
			{view.error ? (
				<ErrorPanel title={words.errorTitle} message={errorText(view.error, error?.fallback)} onRetry={source.retry} />
			) : view.loading || !view.rows ? (
				<Skeleton rows={skeletonRows} />
			) : view.rows.length === 0 ? (
				<EmptyState icon={empty?.icon} title={words.emptyTitle} hint={filtered ? 'Tente outra busca ou limpe os filtros.' : empty?.hint} />
			) : (
				<Rows
					rows={view.rows}
					columns={columns}
					rowKey={props.rowKey}
					caption={words.caption}
					cardTitle={props.cardTitle}
					actions={props.actions}
					busy={view.refreshing}
					selection={props.selection}
					sort={
						columns.some((c) => c.sort)
							? { column: params.sort, order: params.order, onSort: (column) => source.update(toggleSort(params, column)) }
							: undefined
					}
				/>
			)}
			{!view.error && source.more && <LoadMore more={source.more} noun={noun.many} />}
			{!view.error && !source.more && (
				<Pagination
					info={view.page}
					noun={noun.many}
					onPage={(page) => source.update({ page })}
					onPageSize={(limit) => source.update({ limit })}
				/>
			)}
		</div>
	)
}

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
	source: { $data: ReadableAtom<{ data?: D; error?: unknown }> }
	/** The part of the answer the cards show (nothing yet: skeletons; the list failed: a line saying so). */
	read: (data: D) => S | undefined
	count: number
	className?: string
	children: (summary: S) => ReactNode
}) {
	const { data, error } = useStore(source.$data)
	const summary = data === undefined ? undefined : read(data)
	// The list below says what failed and offers to retry; the cards only stop pretending to load.
	if (summary === undefined && error)
		return (
			<p className="rounded-box border border-dashed border-base-300 px-4 py-3 text-sm text-base-content/70" role="status">
				Totais indisponíveis: a lista não pôde ser carregada.
			</p>
		)
	return (
		<StatGrid count={count} className={className}>
			{summary !== undefined && children(summary)}
		</StatGrid>
	)
}

/** Which row a list's create/edit dialog is open for: closed, a new row (row: null), or a row of the list. */
export interface Editor<T> {
	editing: { row: T | null } | null
	create: () => void
	edit: (row: T) => void
	close: () => void
}

export function useEditor<T>(): Editor<T> {
	const [editing, setEditing] = useState<{ row: T | null } | null>(null)
	return { editing, create: () => setEditing({ row: null }), edit: (row) => setEditing({ row }), close: () => setEditing(null) }
}

/** A dialog of the page while it is open, its code loaded (React.lazy) when first opened: nothing shows meanwhile. */
export function LazyDialog({ open, children }: { open: boolean; children: ReactNode }) {
	return open ? <Suspense fallback={null}>{children}</Suspense> : null
}

/** The list's create/edit dialog, for the row it is open for. */
export function EditorDialog<T>({ editor, children }: { editor: Editor<T>; children: (row: T | null, close: () => void) => ReactNode }) {
	return <LazyDialog open={editor.editing !== null}>{editor.editing && children(editor.editing.row, editor.close)}</LazyDialog>
}
