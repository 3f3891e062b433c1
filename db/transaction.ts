import { AsyncLocalStorage } from 'node:async_hooks'
import type { Database } from 'bun:sqlite'
import { is, sql } from 'drizzle-orm'
import { PgDeleteBase, PgInsertBase, type PgDatabase, PgTransaction, PgUpdateBase } from 'drizzle-orm/pg-core'
import { SQLiteDeleteBase, SQLiteInsertBase, SQLiteUpdateBase } from 'drizzle-orm/sqlite-core'
import type { DbOrTx, Tx } from './client'
import { failureCode } from './errors'
import { onPostgres } from './dialect'

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
export async function writeTransaction<T>(db: DbOrTx, work: (tx: Tx) => Promise<T> | T, options: { hotRow?: string } = {}): Promise<T> {
	if (onPostgres(db))
		return options.hotRow ? inProcessTurn(db, options.hotRow, () => postgresTransaction(db, work)) : postgresTransaction(db, work)
	return sqliteTransaction(db, work)
}

/**
 * `hotRow`: a name for the rows this transaction writes that many requests write at once (a representative's credit
 * batches under a burst of transfers). On PostgreSQL, the outermost transactions of one process that name the same
 * rows then take turns, instead of aborting one another as serialization failures and retrying; across processes,
 * the database's isolation still decides (and the retries). On SQLite every write already takes its turn.
 */
const hotRows = new WeakMap<object, Map<string, Promise<unknown>>>()
function inProcessTurn<T>(db: DbOrTx, key: string, work: () => Promise<T>): Promise<T> {
	if (is(db, PgTransaction)) return work()
	const turns = hotRows.get(db) ?? new Map<string, Promise<unknown>>()
	hotRows.set(db, turns)
	const mine = (turns.get(key) ?? Promise.resolve()).then(work, work)
	const settled = mine.then(
		() => undefined,
		() => undefined
	)
	turns.set(key, settled)
	void settled.then(() => {
		if (turns.get(key) === settled) turns.delete(key)
	})
	return mine
}

/** A condition every write transaction started inside `withTransactionCheck` proves first, in the transaction itself. */
type TransactionCheck = (tx: Tx) => Promise<void>
const checks = new AsyncLocalStorage<TransactionCheck>()

/**
 * Runs `work` so that each write transaction it starts (itself, or any code it calls) runs `check` first, inside that
 * transaction: when `check` throws, the transaction writes nothing. A leased job uses it to prove, in the same
 * transaction as its writes, that it still holds its lease (modules/jobs: the fencing token). A transaction that
 * joins another (a savepoint) was checked with it.
 */
export function withTransactionCheck<T>(check: TransactionCheck, work: () => T): T {
	return checks.run(check, work)
}

/** Runs `work` outside any check: writes that belong to no job (a batch other flows also wait on). */
export function withoutTransactionCheck<T>(work: () => T): T {
	return checks.exit(work)
}

/** A write made outside a write transaction by code running under a check: nothing could prove the check for it. */
export class UncheckedWrite extends Error {
	constructor() {
		super('Escrita fora de uma transação num trabalho com lease: use writeTransaction, que prova o lease antes de escrever.')
		this.name = 'UncheckedWrite'
	}
}

/**
 * Called by every write that is not part of a transaction (Drizzle's insert, update and delete, and the raw writes of
 * db/query.ts): under a check it is refused, so a leased job cannot write past its fencing token by writing outside
 * a transaction. Writes that record what already happened outside (an API call counted against a quota) opt out
 * with `withoutTransactionCheck`.
 */
export function refuseUncheckedWrite(): void {
	if (checks.getStore()) throw new UncheckedWrite()
}

/** `work`, preceded by the check of the code that started it, if any. */
function checked<T>(work: (tx: Tx) => Promise<T> | T): (tx: Tx) => Promise<T> {
	const check = checks.getStore()
	return async (tx) => {
		if (check) await check(tx)
		return work(tx)
	}
}

/**
 * Attempts of a PostgreSQL transaction aborted as a serialization failure: instances writing one hot row (a
 * representative's credit batch under a burst of transfers from three instances, or transfers of different
 * representatives whose rows share the index pages PostgreSQL tracks conflicts by) abort each other in turn, one
 * committing each round, so the attempts are many; the waits between them grow (doubling, with jitter) but stay short
 * (at most 50 ms): a longer one only adds to the answer's time once the others have committed.
 */
const MAX_ATTEMPTS = 100
const RETRY_CODES = new Set(['40001', '40P01'])

/**
 * Said first in every write transaction on PostgreSQL. Under SERIALIZABLE a read by a table scan marks the whole table
 * as read: a write anywhere in it by another transaction is then a conflict, and two such transactions abort one
 * another. The planner scans the small tables that transactions read by key (the representatives' credit balances and
 * batches) whenever it may, so with several instances every credit transfer aborted the others' and ran again (the
 * cluster benchmark: docs/benchmarks.md). Read through their indexes, a transaction marks only the rows it read and the
 * index pages it searched. A statement with no index to use still scans.
 */
const NO_TABLE_SCANS = sql`set local enable_seqscan = off`

async function postgresTransaction<T>(db: DbOrTx, work: (tx: Tx) => Promise<T> | T): Promise<T> {
	const pgDb = db as unknown as PgDatabase<never>
	const run = work as unknown as (tx: unknown) => Promise<T>
	// A savepoint's tx has a session of its own: marked too, so its writes count as part of the transaction.
	if (is(pgDb, PgTransaction)) return pgDb.transaction((tx) => run(markedOpen(tx)))
	const checkedRun = checked(run as (tx: Tx) => Promise<T>)
	const outermost = async (tx: unknown) => {
		await (tx as PgTransaction<never>).execute(NO_TABLE_SCANS)
		return checkedRun(markedOpen(tx) as Tx)
	}
	for (let attempt = 1; ; attempt++) {
		try {
			return await pgDb.transaction(outermost, { isolationLevel: 'serializable' })
		} catch (error) {
			const code = failureCode(error)
			if (attempt >= MAX_ATTEMPTS || !code || !RETRY_CODES.has(code)) throw error
			// Back off, with jitter, so retried transactions do not collide again at once.
			await Bun.sleep(Math.random() * Math.min(50, 2 ** attempt))
		}
	}
}

/** Marks the session of a PostgreSQL transaction `writeTransaction` opened (savepoints share it). */
const PG_OPEN = Symbol('open PostgreSQL write transaction')
type PgSessionMark = { [PG_OPEN]?: boolean }
function markedOpen<T>(tx: T): T {
	;(tx as { session: PgSessionMark }).session[PG_OPEN] = true
	return tx
}

// Drizzle's PostgreSQL insert, update and delete, outside a transaction, are refused under a check.
for (const Builder of [PgInsertBase, PgUpdateBase, PgDeleteBase]) {
	const prototype = Builder.prototype as unknown as { _prepare(...args: unknown[]): unknown }
	const prepare = prototype._prepare
	prototype._prepare = function (this: { session: PgSessionMark }, ...args: unknown[]) {
		if (!this.session[PG_OPEN]) {
			try {
				refuseUncheckedWrite()
			} catch (e) {
				if (!this.session[PG_OPEN]) refuseUncheckedWrite()
				throw e
			}
		}
		return prepare.apply(this, args)
	}
}

/** The open transaction a SQLite `tx` (and its session) stands for: its savepoint depth. */
const OPEN = Symbol('open SQLite write transaction')
interface OpenTransaction {
	depth: number
	/** Set when it commits or rolls back: work it started that outlives it is no longer part of it. */
	ended?: boolean
}
type Marked = { [OPEN]?: OpenTransaction }

/**
 * The writes waiting on each database file (or in-memory database), transactions and single statements alike: one
 * at a time, in the order they came. Per file, not per connection, because two connections of one thread (a portal
 * restarted on the same file in a test) would otherwise wait on each other's lock synchronously, with the event loop
 * stopped, until the busy timeout. A single write outside a transaction waits too: run while another flow's
 * transaction is open on the same connection, it would become part of that transaction (and go if it rolled back).
 */
const turns = new Map<string | Database, Promise<unknown>>()

/**
 * The SQLite transaction the running code is part of (its connection and its open state). Code a transaction's body
 * calls with the database instead of `tx` (a helper given `ctx`) is still inside it: its writes join the transaction
 * instead of waiting for the transaction's own turn, which would never come.
 */
const ambient = new AsyncLocalStorage<{ client: Database; open: OpenTransaction }>()
function joinsAmbient(client: Database): boolean {
	const store = ambient.getStore()
	return store?.client === client && !store.open.ended
}
const turnKey = (client: Database) => (client.filename && client.filename !== ':memory:' ? client.filename : client)

function inTurn<T>(client: Database, work: () => Promise<T>): Promise<T> {
	const key = turnKey(client)
	const mine = (turns.get(key) ?? Promise.resolve()).then(work)
	// The next write waits for this one to end, however it ends; the last one out forgets the file.
	const settled = mine.then(
		() => {},
		() => {}
	)
	turns.set(key, settled)
	void settled.then(() => {
		if (turns.get(key) === settled) turns.delete(key)
	})
	return mine
}

// Drizzle's SQLite insert, update and delete run in the file's turn when they are not part of a transaction.
for (const Builder of [SQLiteInsertBase, SQLiteUpdateBase, SQLiteDeleteBase]) {
	const prototype = Builder.prototype as unknown as { execute(...args: unknown[]): Promise<unknown> }
	const execute = prototype.execute
	prototype.execute = function (this: { session: Marked & { client: Database } }, ...args: unknown[]) {
		if (this.session[OPEN] || joinsAmbient(this.session.client)) return execute.apply(this, args)
		refuseUncheckedWrite()
		return inTurn(this.session.client, () => execute.apply(this, args))
	}
}

/** A raw SQLite statement that writes, in the file's turn unless `db` is a transaction (db/query.ts's sqlRun). */
export function sqliteWrite<T>(db: DbOrTx, write: () => T): Promise<T> {
	const session = (db as unknown as { session: Marked & { client: Database } }).session
	if (session[OPEN] || joinsAmbient(session.client)) return Promise.resolve().then(write)
	refuseUncheckedWrite()
	return inTurn(session.client, async () => write())
}

async function sqliteTransaction<T>(db: DbOrTx, work: (tx: Tx) => Promise<T> | T): Promise<T> {
	const session = (db as unknown as { session: Marked & { client: Database } }).session
	const client = session.client
	const open = session[OPEN] ?? (joinsAmbient(client) ? ambient.getStore()?.open : undefined)
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
	const outermost = checked(work)
	return inTurn(client, async () => {
		client.exec('BEGIN IMMEDIATE')
		// The transaction is the database with a session of its own, marked open: what is built from `tx` joins it.
		const state: OpenTransaction = { depth: 0 }
		const txSession = Object.create(session, { [OPEN]: { value: state } })
		const tx = Object.create(db, { session: { value: txSession } }) as Tx
		try {
			const result = await ambient.run({ client, open: state }, () => outermost(tx))
			state.ended = true
			client.exec('COMMIT')
			return result
		} catch (error) {
			state.ended = true
			if (client.inTransaction) client.exec('ROLLBACK')
			throw error
		}
	})
}
