import { type CsvCell, toCsv } from '../../../modules/core'

export { type CsvCell, csvNumber, toCsv } from '../../../modules/core'

/** Offers the text as a file download (the small lists held in the browser; large ones stream from the server). */
export function downloadCsv(filename: string, rows: CsvCell[][]) {
	const blob = new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' })
	const url = URL.createObjectURL(blob)
	const a = document.createElement('a')
	a.href = url
	a.download = filename
	document.body.appendChild(a)
	a.click()
	a.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1_000)
}
