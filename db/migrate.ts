import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from './client'

export const MIGRATIONS_FOLDER = join(import.meta.dir, 'migrations')

export function migrateDb(db: Db) {
	migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })
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

/** The tables of the first migration: every database of this portal, at any level, has them. */
export function initialTables(): string[] {
	const first = journal().entries.find((e) => e.idx === 0)!
	const sql = readFileSync(join(MIGRATIONS_FOLDER, `${first.tag}.sql`), 'utf8')
	return [...sql.matchAll(/CREATE TABLE `([^`]+)`/g)].map((m) => m[1])
}
