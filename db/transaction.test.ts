import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Db, type DbOrTx, openDb } from './client'
import { sqlRows, sqlRun } from './query'
import { createTestPostgres } from './testing'
import { writeTransaction } from './transaction'

// The write-transaction helper on both databases, with a scratch table of its own (raw SQL, so one test process
// checks both, whichever dialect its tables were built for).
const databases: { name: string; db: Db; close(): Promise<void> }[] = []

beforeAll(async () => {
	const pg = await createTestPostgres()
	databases.push({ name: 'SQLite', db: openDb(':memory:'), close: async () => {} }, { name: 'PostgreSQL', ...pg })
	for (const { db } of databases) await sqlRun(db, sql`create table ledger (id integer primary key, saldo integer not null)`)
}, 60_000)

afterAll(async () => {
	for (const { close } of databases) await close()
})

const saldo = async (db: DbOrTx, id: number) =>
	(await sqlRows<{ saldo: number }>(db, sql`select saldo from ledger where id = ${id}`))[0]?.saldo ?? null

describe.each(['SQLite', 'PostgreSQL'])('writeTransaction on %s', (name) => {
	const db = () => databases.find((d) => d.name === name)!.db

	test('a failure after an await writes nothing', async () => {
		const attempt = writeTransaction(db(), async (tx) => {
			await sqlRun(tx, sql`insert into ledger (id, saldo) values (1, 100)`)
			await Bun.sleep(5)
			await sqlRun(tx, sql`update ledger set saldo = 50 where id = 1`)
			throw new Error('falha depois de um await')
		})
		await expect(attempt).rejects.toThrow('falha depois de um await')
		expect(await saldo(db(), 1)).toBeNull()
	})

	test('what returns is committed together', async () => {
		await writeTransaction(db(), async (tx) => {
			await sqlRun(tx, sql`insert into ledger (id, saldo) values (2, 100)`)
			await Bun.sleep(1)
			await sqlRun(tx, sql`update ledger set saldo = saldo - 30 where id = 2`)
		})
		expect(await saldo(db(), 2)).toBe(70)
	})

	test('a nested failure caught by its caller rolls back only itself', async () => {
		await writeTransaction(db(), async (tx) => {
			await sqlRun(tx, sql`insert into ledger (id, saldo) values (3, 10)`)
			await writeTransaction(tx, async (inner) => {
				await sqlRun(inner, sql`update ledger set saldo = 999 where id = 3`)
				throw new Error('parte interna')
			}).catch(() => {})
		})
		expect(await saldo(db(), 3)).toBe(10)
	})

	test('concurrent read-check-write transactions neither lose an update nor overspend', async () => {
		await sqlRun(db(), sql`insert into ledger (id, saldo) values (4, 25)`)
		// 40 withdrawals of 1 from a balance of 25, each reading, waiting, then writing: exactly 25 succeed.
		const withdraw = () =>
			writeTransaction(db(), async (tx) => {
				const current = await saldo(tx, 4)
				await Bun.sleep(Math.random() * 3)
				if (current === null || current < 1) return false
				await sqlRun(tx, sql`update ledger set saldo = ${current - 1} where id = 4`)
				return true
			})
		const results = await Promise.all(Array.from({ length: 40 }, withdraw))
		expect(results.filter(Boolean).length).toBe(25)
		expect(await saldo(db(), 4)).toBe(0)
	})
})

describe('SQLite write turns', () => {
	const sqlite = () => databases.find((d) => d.name === 'SQLite')!.db

	test('a write made with the database inside a transaction joins it (and goes with it), instead of waiting for it', async () => {
		const attempt = writeTransaction(sqlite(), async (tx) => {
			await sqlRun(tx, sql`insert into ledger (id, saldo) values (10, 1)`)
			// A helper given the database, not `tx`: it must neither wait for this transaction's turn nor outlive it.
			await sqlRun(sqlite(), sql`insert into ledger (id, saldo) values (11, 1)`)
			await writeTransaction(sqlite(), async (inner) => sqlRun(inner, sql`insert into ledger (id, saldo) values (12, 1)`))
			throw new Error('desfaz tudo')
		})
		await expect(attempt).rejects.toThrow('desfaz tudo')
		expect([await saldo(sqlite(), 10), await saldo(sqlite(), 11), await saldo(sqlite(), 12)]).toEqual<(number | null)[]>([null, null, null])
	})

	test('a write of another flow waits for an open transaction, and is not undone when that transaction fails', async () => {
		let release = () => {}
		const gate = new Promise<void>((resolve) => {
			release = resolve
		})
		const failing = writeTransaction(sqlite(), async (tx) => {
			await sqlRun(tx, sql`insert into ledger (id, saldo) values (20, 1)`)
			await gate
			throw new Error('falhou')
		})
		// Another request's single write, while the transaction above is open and waiting.
		const other = sqlRun(sqlite(), sql`insert into ledger (id, saldo) values (21, 7)`)
		await Bun.sleep(5)
		release()
		await expect(failing).rejects.toThrow('falhou')
		await other
		expect(await saldo(sqlite(), 20)).toBeNull()
		expect(await saldo(sqlite(), 21)).toBe(7)
	})
})

describe('writeTransaction on PostgreSQL', () => {
	test('transactions that read and write different rows of a small table do not abort each other', async () => {
		const db = databases.find((d) => d.name === 'PostgreSQL')!.db
		await sqlRun(db, sql`insert into ledger (id, saldo) values (10, 5), (11, 5)`)
		await sqlRun(db, sql`analyze ledger`)
		// Each reads its own row, waits until the other has read too, then writes its own row: there is no conflict
		// between them, so neither may be aborted as a serialization failure and run again.
		const attempts = new Map<number, number>()
		const bothRead = Promise.withResolvers<void>()
		let reads = 0
		const spend = (id: number) =>
			writeTransaction(db, async (tx) => {
				attempts.set(id, (attempts.get(id) ?? 0) + 1)
				const current = (await saldo(tx, id))!
				if (++reads === 2) bothRead.resolve()
				await Promise.race([bothRead.promise, Bun.sleep(2000)])
				await sqlRun(tx, sql`update ledger set saldo = ${current - 1} where id = ${id}`)
			})
		await Promise.all([spend(10), spend(11)])
		expect(Object.fromEntries(attempts)).toEqual({ 10: 1, 11: 1 })
		expect([await saldo(db, 10), await saldo(db, 11)]).toEqual([4, 4])
	})
})
