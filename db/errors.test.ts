import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Db, openDb } from './client'
import { constraintViolation } from './errors'
import { sqlRun } from './query'
import { createTestPostgres } from './testing'

// A broken constraint is named the same on both databases, through Drizzle's wrapping of the driver's error.
const databases: { name: string; db: Db; close(): Promise<void> }[] = []

beforeAll(async () => {
	databases.push({ name: 'SQLite', db: openDb(':memory:'), close: async () => {} }, { name: 'PostgreSQL', ...(await createTestPostgres()) })
	for (const { db } of databases) {
		await sqlRun(db, sql`create table pais (id integer primary key, nome text not null unique)`)
		await sqlRun(db, sql`create table filho (id integer primary key, pai integer not null references pais(id), n integer check (n > 0))`)
		await sqlRun(db, sql`insert into pais (id, nome) values (1, 'a')`)
	}
}, 60_000)
afterAll(async () => {
	for (const { close } of databases) await close()
})

const failure = async (db: Db, query: ReturnType<typeof sql>) =>
	sqlRun(db, query).then(
		() => null,
		(error: unknown) => error
	)

describe.each(['SQLite', 'PostgreSQL'])('constraintViolation on %s', (name) => {
	const db = () => databases.find((d) => d.name === name)!.db
	test('names a unique, a foreign-key, a check and a not-null violation', async () => {
		expect(constraintViolation(await failure(db(), sql`insert into pais (id, nome) values (2, 'a')`))).toBe('unique')
		expect(constraintViolation(await failure(db(), sql`insert into filho (id, pai, n) values (1, 99, 1)`))).toBe('foreign_key')
		expect(constraintViolation(await failure(db(), sql`insert into filho (id, pai, n) values (2, 1, 0)`))).toBe('check')
		expect(constraintViolation(await failure(db(), sql`insert into pais (id, nome) values (3, null)`))).toBe('not_null')
	})
	test('is null for other failures', async () => {
		expect(constraintViolation(await failure(db(), sql`select * from tabela_que_nao_existe`))).toBeNull()
		expect(constraintViolation(new Error('qualquer'))).toBeNull()
	})
})
