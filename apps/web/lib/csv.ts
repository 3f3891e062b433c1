/**
 * CSV that opens correctly in a pt-BR spreadsheet (Excel, LibreOffice): UTF-8 with a BOM so accents
 * survive, ';' between fields (',' is the decimal separator there), decimal comma, CRLF line ends.
 */
export type CsvCell = string | number | null | undefined

/** A number with a decimal comma and no thousands separator, so spreadsheets read it as a number. */
export function csvNumber(value: number, decimals?: number): string {
	const text = decimals === undefined ? String(value) : value.toFixed(decimals)
	return text.replace('.', ',')
}

function cell(value: CsvCell): string {
	if (value === null || value === undefined) return ''
	const text = typeof value === 'number' ? csvNumber(value) : value
	// Quote when needed; neutralise formulas (=, +, -, @) that a spreadsheet would run.
	const safe = /^[=+\-@\t\r]/.test(text) && typeof value !== 'number' ? `'${text}` : text
	return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export function toCsv(rows: CsvCell[][]): string {
	return `\uFEFF${rows.map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`
}

/** Offers the text as a file download. */
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
