import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { DbOrTx } from '../../db/client'
import { DIALECT } from '../../db/dialect'

/** Escapes LIKE wildcards so a search for "50%" finds the text "50%". */
export function likePattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * The one way to search text in SQL: `column` contains `text` literally, case-insensitive for ASCII letters only, the
 * same answers on both databases: SQLite's LIKE folds ASCII only, and PostgreSQL's ILIKE does the same under the "C"
 * collation (its LIKE would not fold at all).
 */
export function contains(column: SQLWrapper, text: string): SQL {
	if (DIALECT === 'postgres') return sql`(${column} collate "C") ilike ${likePattern(text)} escape '\\'`
	return sql`${column} like ${likePattern(text)} escape '\\'`
}

export { writeTransaction } from '../../db/transaction'

/**
 * The keys of one page of a list: the rows of `key`'s table that match `where`, in `order`, ordered and cut on the
 * key and the sort column alone (in their index). `inOrderOf` then reads only those rows with what they join.
 */
export async function pageIds(
	db: DbOrTx,
	key: AnySQLiteColumn<{ data: number; notNull: true }>,
	where: SQL | undefined,
	order: SQL[],
	limit: number,
	offset: number
): Promise<number[]> {
	return (
		await db
			.select({ key })
			.from(key.table)
			.where(where)
			.orderBy(...order)
			.limit(limit)
			.offset(offset)
	).map((r) => r.key)
}
