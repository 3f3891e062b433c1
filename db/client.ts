import { Database } from 'bun:sqlite'
import { drizzle as drizzleSqlite } from 'drizzle-orm/bun-sqlite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import * as schema from './schema'

/**
 * Opens the SQLite database with the pragmas every connection needs:
 * WAL so readers never wait for the writer, FULL sync so an acknowledged credit or
 * payment survives a power loss, foreign keys on, a busy timeout instead of SQLITE_BUSY,
 * and memory-mapped reads.
 */
export function openDb(path: string) {
	const client = new Database(path, { create: true, strict: true })
	// First, so that even switching a new file to WAL waits for another process opening it at the same moment.
	client.exec('PRAGMA busy_timeout = 5000')
	if (path !== ':memory:') client.exec('PRAGMA journal_mode = WAL')
	client.exec('PRAGMA synchronous = FULL')
	client.exec('PRAGMA foreign_keys = ON')
	// Reads come from memory-mapped pages and a 32 MiB cache instead of a system call per page.
	client.exec('PRAGMA mmap_size = 268435456')
	client.exec('PRAGMA cache_size = -32768')
	client.exec('PRAGMA temp_store = MEMORY')
	return drizzleSqlite({ client, schema, casing: 'snake_case' })
}

/** PostgreSQL's 64-bit integers and numerics (counts, sums) read as JavaScript numbers, as SQLite's do. */
const asNumber = { serialize: (value: unknown) => String(value), parse: (value: string) => Number(value) }

/**
 * Opens a pool of connections to PostgreSQL. The result is typed as the SQLite database the services are written
 * against: both are Drizzle query builders over tables built for the running dialect (db/columns.ts), and the
 * services use only what both have (awaited queries, no `.all()`/`.get()`/`.run()`; db/query.ts).
 */
export function openPostgres(url: string, options: { max?: number; idleTimeoutSeconds?: number } = {}): Db {
	const client = postgres(url, {
		max: options.max ?? 10,
		idle_timeout: options.idleTimeoutSeconds,
		onnotice: () => {},
		types: {
			int8: { to: 20, from: [20], ...asNumber },
			numeric: { to: 1700, from: [1700], ...asNumber }
		}
	})
	const db = drizzlePostgres({ client, schema, casing: 'snake_case' }) as unknown as Db
	postgresUrls.set(db, url)
	return db
}

const postgresUrls = new WeakMap<Db, string>()

/** The URL a PostgreSQL database was opened with (another thread opens its own connection with it); null for SQLite's. */
export function postgresUrlOf(db: Db): string | null {
	return postgresUrls.get(db) ?? null
}

export type Db = ReturnType<typeof openDb>
/** What a service receives: the database, or the transaction it must join. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx
