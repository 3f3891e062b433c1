import type { SQL } from 'drizzle-orm'
import { is } from 'drizzle-orm'
import { type PgDatabase, PgTransaction } from 'drizzle-orm/pg-core'
import type { Db, DbOrTx } from './client'
import { onPostgres } from './dialect'
import { refuseUncheckedWrite, sqliteWrite } from './transaction'

/** The rows of a raw SQL statement, on either database (SQLite's `all`, PostgreSQL's `execute`). */
export async function sqlRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
	if (onPostgres(db)) return [...((await (db as unknown as PgDatabase<never>).execute(query)) as unknown as T[])]
	return (db as Db).all<T>(query)
}

/**
 * The rows a raw SQL statement that writes answers (INSERT/UPDATE … RETURNING), on either database; on SQLite the
 * statement takes the file's write turn, as every write does (db/transaction.ts).
 */
export async function sqlWriteRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
	if (onPostgres(db)) {
		if (!is(db, PgTransaction)) refuseUncheckedWrite()
		return sqlRows<T>(db, query)
	}
	return sqliteWrite(db, () => (db as Db).all<T>(query))
}

/** Runs a raw SQL statement that returns no rows, on either database. */
export async function sqlRun(db: DbOrTx, query: SQL): Promise<void> {
	if (onPostgres(db)) {
		if (!is(db, PgTransaction)) refuseUncheckedWrite()
		await (db as unknown as PgDatabase<never>).execute(query)
	} else await sqliteWrite(db, () => (db as Db).run(query))
}
