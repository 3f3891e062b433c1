import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { join } from 'node:path'
import type { Db } from './client'

export const MIGRATIONS_FOLDER = join(import.meta.dir, 'migrations')

export function migrateDb(db: Db) {
	migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })
}
