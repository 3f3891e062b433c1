import { CSV_BOM, type CsvCell, csvLine } from './csv'

/** Rows of an export are read this many at a time, so a list of 100,000 never sits in memory at once. */
export const CSV_CHUNK = 1000

/**
 * A CSV download streamed as it is read: the header first, then `rows(offset, limit)` chunk after chunk (each a
 * short query, so other requests run between them) until a chunk comes back short.
 */
function csvResponse(
	filename: string,
	header: CsvCell[],
	rows: (offset: number, limit: number) => Promise<CsvCell[][]>,
	chunk = CSV_CHUNK
): Response {
	const encoder = new TextEncoder()
	let offset = -1
	const stream = new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (offset < 0) {
				offset = 0
				controller.enqueue(encoder.encode(CSV_BOM + csvLine(header)))
				return
			}
			const page = await rows(offset, chunk)
			offset += page.length
			if (page.length > 0) controller.enqueue(encoder.encode(page.map(csvLine).join('')))
			if (page.length < chunk) controller.close()
		}
	})
	return new Response(stream, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${filename}"`,
			'cache-control': 'no-store',
			'x-content-type-options': 'nosniff'
		}
	})
}

/** One column of an export: its header and how a row fills it, side by side so the two cannot drift apart. */
export type CsvColumn<R> = readonly [header: string, cell: (row: R) => CsvCell]

/**
 * A streamed export described by its columns: the header line is their headers, each row read becomes their cells.
 * `rows` reads a chunk (`(offset, limit)`), or is a list already read whole (small ones: users, representatives).
 */
export function csvColumnsResponse<R>(
	filename: string,
	columns: readonly CsvColumn<R>[],
	rows: R[] | ((offset: number, limit: number) => Promise<R[]>)
): Response {
	const read = Array.isArray(rows) ? async (offset: number, limit: number) => rows.slice(offset, offset + limit) : rows
	return csvResponse(
		filename,
		columns.map(([header]) => header),
		async (offset, limit) => (await read(offset, limit)).map((row) => columns.map(([, cell]) => cell(row)))
	)
}
