import { or, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { DbOrTx } from '../../db/client'
import { DIALECT } from '../../db/dialect'
import { sqlRows } from '../../db/query'
import type { SortOrder } from './list'

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

/**
 * `column` as a value no index is chosen for: SQLite's unary plus, for a filter that would otherwise make SQLite
 * walk the wrong index. PostgreSQL's planner weighs its indexes by statistics and needs no such hint.
 */
export function unindexed(column: SQLWrapper): SQL {
	return DIALECT === 'postgres' ? sql`${column}` : sql`+${column}`
}

/**
 * A list's sort key: `column` in `order`, empty values (NULL) first ascending and last descending. That is SQLite's
 * own order, which PostgreSQL reverses; said out loud, both databases page a list alike.
 */
export function sortedBy(column: SQLWrapper, order: SortOrder): SQL {
	return order === 'desc' ? sql`${column} desc nulls last` : sql`${column} asc nulls first`
}

/** An FTS5 query for any of `terms`, each as a literal phrase. */
export const ftsPhrases = (terms: string[]) => terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' OR ')

/**
 * A folded search column on PostgreSQL: `column` holds portal_fold of the text of `parts` (named as the columns of the
 * table's SQLite FTS5 table), joined by FOLD_SEPARATOR, kept by the database (a stored generated column) with its own
 * pg_trgm index. A search then reads the folded text instead of folding every row it touches again.
 */
export interface FoldedColumn {
	column: SQLWrapper
	parts: string[]
}

/** What joins a folded column's parts: a control character, which no stored text holds and searchField drops. */
const FOLD_SEPARATOR = '\x1f'

/**
 * The LIKE pattern of `term` within the `within` parts (consecutive ones) of a folded column: a term has no separator,
 * so it lies between the separator before the first part and the one after the last.
 */
function foldedPattern(term: string, folded: FoldedColumn, within: string[]): string {
	const first = folded.parts.indexOf(within[0])
	if (first < 0 || within.some((part, i) => folded.parts[first + i] !== part))
		throw new Error(`trigramMatch: ${within.join(', ')} are not consecutive parts of ${folded.parts.join(', ')}`)
	const after = folded.parts.length - first - within.length
	return `${`%${FOLD_SEPARATOR}`.repeat(first)}${likePattern(term)}${`${FOLD_SEPARATOR}%`.repeat(after)}`
}

/**
 * Rows with a column that contains one of `terms` (3+ characters each), accents and case aside, through a trigram
 * index: on SQLite the FTS5 table `fts.table` (trigram, remove_diacritics) whose rowid is `fts.rowid`, limited to
 * `fts.columns` when given; on PostgreSQL the pg_trgm index of the table's folded column (`columns` is then a
 * FoldedColumn, and `fts.columns` the parts searched), or else the pg_trgm indexes over portal_fold of each of
 * `columns` (db/migrations-pg, 0001: each column there is indexed as written here, coalesce included).
 */
export function trigramMatch(
	terms: string[],
	columns: SQL[] | FoldedColumn,
	fts: { table: string; rowid: SQLWrapper; columns?: string[] }
): SQL {
	if (DIALECT === 'postgres') {
		if (!Array.isArray(columns)) {
			const within = fts.columns ?? columns.parts
			return or(...terms.map((term) => sql`${columns.column} like portal_fold(${foldedPattern(term, columns, within)}) escape '\\'`))!
		}
		return or(
			...terms.flatMap((term) => columns.map((column) => sql`portal_fold(${column}) like portal_fold(${likePattern(term)}) escape '\\'`))
		)!
	}
	const phrases = ftsPhrases(terms)
	const match = fts.columns ? `{${fts.columns.join(' ')}} : (${phrases})` : phrases
	return sql`${fts.rowid} in (select rowid from ${sql.raw(fts.table)} where ${sql.raw(fts.table)} match ${match})`
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

/**
 * PostgreSQL: the keys of one page of the rows of `key`'s table that match a search (`where`), and how many match,
 * from one pass over the matches: they are found through the search's index, then counted and sorted on `sort`'s
 * column and the key, both in `sort.order` (sortedBy). A search's matches may lie anywhere in the list's order (a
 * name search's all together), which the planner cannot know: left to itself it walks the order's index and reads
 * every row before them, and counting them is a second pass.
 */
export async function searchedPage(
	db: DbOrTx,
	key: AnySQLiteColumn<{ data: number; notNull: true }>,
	sort: { column: SQLWrapper; order: SortOrder },
	where: SQL | undefined,
	limit: number,
	offset: number
): Promise<{ total: number; ids: number[] }> {
	const [page] = await sqlRows<{ total: number; ids: number[] }>(
		db,
		sql`with matches as materialized (select ${key} as key, ${sort.column} as sort_key from ${key.table} where ${where})
			select (select count(*) from matches) as total,
				array(select key from matches order by ${sortedBy(sql`sort_key`, sort.order)}, ${sortedBy(sql`key`, sort.order)}
					limit ${limit} offset ${offset}) as ids`
	)
	return page
}
