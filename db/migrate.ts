import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgresDb } from 'drizzle-orm/postgres-js/migrator'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Sql } from 'postgres'
import { sql } from 'drizzle-orm'
import { type Db, openDb, openPostgres } from './client'
import { DATABASE_URL, onPostgres } from './dialect'
import { sqlRows } from './query'

export const MIGRATIONS_FOLDER = join(import.meta.dir, 'migrations')
/** PostgreSQL's migrations, generated from the same schema (db/columns.ts, db/drizzle.pg.config.ts). */
export const POSTGRES_MIGRATIONS_FOLDER = join(import.meta.dir, 'migrations-pg')

/**
 * Brings a SQLite database up to this code's schema. Drizzle's migrator reads what was applied before it takes the
 * write lock, so a second process starting at the same moment may try the same migration and fail; its attempt rolls
 * back whole, and it stands when the database is now at this code's level (the other process migrated it).
 */
export function migrateDb(db: Db) {
	try {
		migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })
	} catch (error) {
		if (appliedLevel(db) !== codeMigrationLevel()) throw error
	}
}

function appliedLevel(db: Db): number | null {
	try {
		const row = db.$client.query('select max(created_at) as level from __drizzle_migrations').get() as { level: number | null }
		return row.level === null ? null : Number(row.level)
	} catch {
		return null
	}
}

/**
 * The portal's database, brought up to this code's schema: PostgreSQL at DATABASE_URL when it is set (a pool of
 * `poolSize` connections), else SQLite's portal.sqlite in the data folder (db/dialect.ts).
 */
export async function openPortalDatabase(dataDir: string, options: { poolSize?: number } = {}): Promise<Db> {
	if (DATABASE_URL) {
		const db = openPostgres(DATABASE_URL, { max: options.poolSize })
		await migratePostgres(db)
		return db
	}
	const db = openDb(join(dataDir, 'portal.sqlite'))
	migrateDb(db)
	return db
}

/** A number of this portal's own for its migration lock (pg_advisory_lock): processes starting together take turns. */
const MIGRATION_LOCK = 7_421_001

/** Brings a PostgreSQL database up to this code's schema, once, however many processes start together. */
/** Needs two connections of `db`'s pool: one holds the lock while the migrator works on another. */
export async function migratePostgres(db: Db) {
	const client = (db as unknown as { $client: Sql }).$client
	const lock = await client.reserve()
	try {
		await lock`select pg_advisory_lock(${MIGRATION_LOCK})`
		await migratePostgresDb(db as unknown as PostgresJsDatabase, { migrationsFolder: POSTGRES_MIGRATIONS_FOLDER })
	} finally {
		await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {})
		lock.release()
	}
}

/** drizzle-kit's journal: one entry per migration, in order; `when` is what the migrator records as created_at. */
interface Journal {
	entries: { idx: number; when: number; tag: string }[]
}

function journal(): Journal {
	return JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as Journal
}

/**
 * The migration level this code knows: the `created_at` the migrator writes into __drizzle_migrations for the newest
 * migration. A database whose newest applied migration is later was written by a newer version of the portal.
 */
export function codeMigrationLevel(): number {
	return Math.max(...journal().entries.map((e) => e.when))
}

/**
 * Where `db` stands against this code's migrations: the level it has applied (null when none) and the level this
 * code expects, from the journal of its database kind. Equal means the instance may serve (the readiness probe).
 */
export async function migrationLevels(db: Db): Promise<{ applied: number | null; expected: number }> {
	const postgres = onPostgres(db)
	const folder = postgres ? POSTGRES_MIGRATIONS_FOLDER : MIGRATIONS_FOLDER
	const entries = (JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as Journal).entries
	const [row] = await sqlRows<{ level: number | null }>(
		db,
		postgres
			? sql`select max(created_at) as level from drizzle.__drizzle_migrations`
			: sql`select max(created_at) as level from __drizzle_migrations`
	)
	return {
		applied: row?.level === null || row?.level === undefined ? null : Number(row.level),
		expected: Math.max(...entries.map((e) => e.when))
	}
}

/** The tables of the first migration: every database of this portal, at any level, has them. */
export function initialTables(): string[] {
	const first = journal().entries.find((e) => e.idx === 0)!
	const sql = readFileSync(join(MIGRATIONS_FOLDER, `${first.tag}.sql`), 'utf8')
	return [...sql.matchAll(/CREATE TABLE `([^`]+)`/g)].map((m) => m[1])
}
