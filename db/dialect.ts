import { is } from 'drizzle-orm'
import { PgDatabase, PgTransaction } from 'drizzle-orm/pg-core'

/**
 * Which database this process runs on, chosen once at start-up: PostgreSQL when DATABASE_URL is set
 * (postgres:// or postgresql://), otherwise the embedded SQLite file in DATA_DIR. Read before any schema
 * module is evaluated, because the tables are built for this dialect (db/columns.ts).
 */
export type Dialect = 'sqlite' | 'postgres'

function databaseUrl(): string | undefined {
	const url = process.env.DATABASE_URL?.trim()
	if (!url) return undefined
	if (!/^postgres(ql)?:\/\//.test(url)) {
		throw new Error('DATABASE_URL deve começar com postgres:// ou postgresql:// (sem ela, o portal usa o SQLite em DATA_DIR).')
	}
	return url
}

export const DATABASE_URL = databaseUrl()
export const DIALECT: Dialect = DATABASE_URL ? 'postgres' : 'sqlite'

/** Whether a database or transaction object is PostgreSQL's (the other kind is SQLite's). */
export function onPostgres(db: unknown): boolean {
	return is(db, PgDatabase) || is(db, PgTransaction)
}
