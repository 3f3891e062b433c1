import { openDb } from './client'
import { migrateDb } from './migrate'

/** A fresh, migrated in-memory database for one test. */
export function createTestDb() {
	const db = openDb(':memory:')
	migrateDb(db)
	return db
}
