import type { ReactNode } from 'react'
import { formatCnpj, formatDate, formatNumber, formatReais } from '../../../modules/core'
import type { Column } from './Rows'

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
