import type { Database } from 'bun:sqlite'
import { is } from 'drizzle-orm'
import { type PgDatabase, PgTransaction } from 'drizzle-orm/pg-core'
import type { DbOrTx, Tx } from './client'
import { failureCode } from './errors'
import { onPostgres } from './query'

/**
 * The one write transaction of the portal, atomic on both databases even when its body awaits:
 * everything `work` writes through `tx` is committed together when it returns, and nothing is when it throws.
 * Called with a transaction, it joins it under a savepoint (a failing inner part rolls back only itself, if caught).
 *
 * SQLite: one connection per process, so transactions take turns (a queue per connection) and each starts with
 * BEGIN IMMEDIATE, taking the write lock at once. Drizzle's own bun:sqlite transaction commits at the callback's
 * first `await` (its driver is synchronous), which is why this helper exists.
 * PostgreSQL: SERIALIZABLE, so every read-check-write the services do behaves as it does on SQLite, where write
 * transactions run one at a time; a transaction PostgreSQL aborts as a serialization failure or a deadlock is run
 * again from the start. Hence the rule for `work`: database work only, no call to Asaas, Evolution or any other
 * outside service (it may run twice, and on SQLite it holds the write lock).
 */
export async function writeTransaction<T>(db: DbOrTx, work: (tx: Tx) => Promise<T> | T): Promise<T> {
	if (onPostgres(db)) return postgresTransaction(db, work)
	return sqliteTransaction(db, work)
}

const MAX_ATTEMPTS = 8
const RETRY_CODES = new Set(['40001', '40P01'])

async function postgresTransaction<T>(db: DbOrTx, work: (tx: Tx) => Promise<T> | T): Promise<T> {
	const pgDb = db as unknown as PgDatabase<never>
	const run = work as unknown as (tx: unknown) => Promise<T>
	if (is(pgDb, PgTransaction)) return pgDb.transaction(run)
	for (let attempt = 1; ; attempt++) {
		try {
			return await pgDb.transaction(run, { isolationLevel: 'serializable' })
		} catch (error) {
			const code = failureCode(error)
			if (attempt >= MAX_ATTEMPTS || !code || !RETRY_CODES.has(code)) throw error
			// Back off a little, with jitter, so two retried transactions do not collide again at once.
			await Bun.sleep(Math.random() * 5 * attempt)
		}
	}
}

/** The open transaction a SQLite `tx` stands for: its savepoint depth. */
const OPEN = Symbol('open SQLite write transaction')
type SqliteTx = Tx & { [OPEN]?: { depth: number } }
const turns = new WeakMap<Database, Promise<unknown>>()

async function sqliteTransaction<T>(db: DbOrTx, work: (tx: Tx) => Promise<T> | T): Promise<T> {
	const client = (db as unknown as { $client: Database }).$client
	const open = (db as SqliteTx)[OPEN]
	if (open) {
		const savepoint = `sp${++open.depth}`
		client.exec(`SAVEPOINT ${savepoint}`)
		try {
			const result = await work(db as Tx)
			client.exec(`RELEASE ${savepoint}`)
			return result
		} catch (error) {
			client.exec(`ROLLBACK TO ${savepoint}`)
			client.exec(`RELEASE ${savepoint}`)
			throw error
		} finally {
			open.depth--
		}
	}
	const previous = turns.get(client) ?? Promise.resolve()
	const mine = previous.then(async () => {
		client.exec('BEGIN IMMEDIATE')
		const tx = Object.create(db, { [OPEN]: { value: { depth: 0 } } }) as Tx
		try {
			const result = await work(tx)
			client.exec('COMMIT')
			return result
		} catch (error) {
			if (client.inTransaction) client.exec('ROLLBACK')
			throw error
		}
	})
	// The next transaction waits for this one to end, however it ends.
	turns.set(
		client,
		mine.catch(() => {})
	)
	return mine
}
