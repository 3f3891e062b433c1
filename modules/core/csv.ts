/**
 * CSV that opens correctly in a pt-BR spreadsheet (Excel, LibreOffice): UTF-8 with a BOM so accents survive,
 * ';' between fields (',' is the decimal separator there), dates dd/mm/yyyy (format.ts's formatBrDate), decimal comma,
 * CRLF line ends.
 * Shared by the server's streamed exports and the browser's small ones.
 */
export type CsvCell = string | number | null | undefined

export const CSV_BOM = '\uFEFF'

/** A number with a decimal comma and no thousands separator, so spreadsheets read it as a number. */
export function csvNumber(value: number, decimals?: number): string {
	const text = decimals === undefined ? String(value) : value.toFixed(decimals)
	return text.replace('.', ',')
}

/** Money in reais as a spreadsheet number: 149,90. */
export const csvMoney = (reais: number) => csvNumber(reais, 2)

function csvCell(value: CsvCell): string {
	if (value === null || value === undefined) return ''
	const text = typeof value === 'number' ? csvNumber(value) : value
	// Quote when needed; neutralise formulas (=, +, -, @) that a spreadsheet would run.
	const safe = /^[=+\-@\t\r]/.test(text) && typeof value !== 'number' ? `'${text}` : text
	return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** One line of the file, with its CRLF. */
export function csvLine(cells: CsvCell[]): string {
	return `${cells.map(csvCell).join(';')}\r\n`
}

/** A whole file (BOM, lines) for a list small enough to hold in memory. */
export function toCsv(rows: CsvCell[][]): string {
	return CSV_BOM + rows.map(csvLine).join('')
}

/** The name of an export: `empresas-2026-11-20.csv`. */
export function csvFilename(base: string, today: string): string {
	return `${base}-${today}.csv`
}
