import { openDb } from './client'
import { migrateDb } from './migrate'

/** A fresh, migrated database for one test: in memory unless a file is given (worker threads need one). */
export function createTestDb(path = ':memory:') {
	const db = openDb(path)
	migrateDb(db)
	return db
}
