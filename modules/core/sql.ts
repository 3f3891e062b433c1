import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'

/** Escapes LIKE wildcards so a search for "50%" finds the text "50%". */
function likePattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The one way to search text in SQL: `column` contains `text` literally, case-insensitive for ASCII. */
export function contains(column: SQLWrapper, text: string): SQL {
	return sql`${column} like ${likePattern(text)} escape '\\'`
}

/** One write transaction, started as IMMEDIATE so it takes the write lock at once (DESIGN.md: bun:sqlite pitfalls). */
export function writeTransaction<T>(db: DbOrTx, work: (tx: Tx) => T): T {
	return db.transaction(work, { behavior: 'immediate' })
}
