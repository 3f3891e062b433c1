import postgres from 'postgres'
import { openDb, openPostgres } from './client'
import { migrateDb, migratePostgres } from './migrate'
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster'

/** A fresh, migrated database for one test: in memory unless a file is given (worker threads need one). */
export function createTestDb(path = ':memory:') {
	const db = openDb(path)
	migrateDb(db)
	return db
}

let server: Promise<string> | undefined
let cluster: PostgresCluster | undefined

/**
 * The PostgreSQL server the tests create their databases on: TEST_POSTGRES_URL (the test command starts one cluster
 * for the whole run and sets it) or, when a test file runs alone, a throw-away cluster of this process's own.
 */
export function testPostgresServer(): Promise<string> {
	server ??= (async () => {
		const given = process.env.TEST_POSTGRES_URL?.trim()
		if (given) return given
		cluster = await startPostgresCluster()
		process.once('exit', () => cluster?.stopSync())
		return cluster.url
	})()
	return server
}

let created = 0

/** An empty database (no tables) on the test server, and how to open and drop it. */
export async function createEmptyPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
	const adminUrl = await testPostgresServer()
	const name = `portal_test_${process.pid}_${++created}_${Date.now().toString(36)}`
	const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
	await admin.unsafe(`create database "${name}"`)
	await admin.end()
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return {
		url: url.toString(),
		async drop() {
			const again = postgres(adminUrl, { max: 1, onnotice: () => {} })
			await again.unsafe(`drop database if exists "${name}" with (force)`)
			await again.end()
		}
	}
}

/** A fresh, migrated PostgreSQL database for one test, and how to close and drop it. */
export async function createTestPostgres() {
	const empty = await createEmptyPostgres()
	const db = openPostgres(empty.url, { max: 4 })
	await migratePostgres(db)
	return {
		db,
		url: empty.url,
		async close() {
			await (db.$client as unknown as postgres.Sql).end()
			await empty.drop()
		}
	}
}
