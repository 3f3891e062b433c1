import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'

/**
 * Opens the SQLite database with the pragmas every connection needs:
 * WAL so readers never wait for the writer, FULL sync so an acknowledged credit or
 * payment survives a power loss, foreign keys on, a busy timeout instead of SQLITE_BUSY,
 * and memory-mapped reads.
 */
export function openDb(path: string) {
	const client = new Database(path, { create: true, strict: true })
	if (path !== ':memory:') client.exec('PRAGMA journal_mode = WAL')
	client.exec('PRAGMA synchronous = FULL')
	client.exec('PRAGMA foreign_keys = ON')
	client.exec('PRAGMA busy_timeout = 5000')
	// Reads come from memory-mapped pages and a 32 MiB cache instead of a system call per page.
	client.exec('PRAGMA mmap_size = 268435456')
	client.exec('PRAGMA cache_size = -32768')
	client.exec('PRAGMA temp_store = MEMORY')
	return drizzle({ client, schema, casing: 'snake_case' })
}

export type Db = ReturnType<typeof openDb>
/** What a service receives: the database, or the transaction it must join. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx
