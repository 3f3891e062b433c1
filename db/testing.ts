import { createHash } from 'node:crypto'
import postgres from 'postgres'
import { type Db, openDb, openPostgres } from './client'
import { DIALECT } from './dialect'
import { migrateDb, migratePostgres } from './migrate'
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster'

/**
 * A fresh, migrated database for one test, on the dialect this process runs on. SQLite: in memory unless a file is
 * given (worker threads and restarted portals need one). PostgreSQL: a new database on the test server, copied from a
 * migrated template; the same `path` gives the same database, as the same file does on SQLite.
 */
export async function createTestDb(path = ':memory:'): Promise<Db> {
	if (DIALECT === 'sqlite') {
		const db = openDb(path)
		migrateDb(db)
		return db
	}
	return openPostgres(await testDatabaseUrl(path), { max: 4, idleTimeoutSeconds: 2 })
}

/** The URL of the test database `path` stands for (see createTestDb), created from the template when new. */
export async function testDatabaseUrl(path = ':memory:'): Promise<string> {
	const adminUrl = await testPostgresServer()
	const template = await migratedTemplate(adminUrl)
	const name =
		path === ':memory:'
			? `portal_test_${process.pid}_${++created}`
			: `portal_file_${createHash('sha256').update(path).digest('hex').slice(0, 24)}`
	const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
	try {
		const [exists] = await admin`select 1 from pg_database where datname = ${name}`
		if (!exists) await admin.unsafe(`create database "${name}" template "${template}"`)
	} finally {
		await admin.end()
	}
	return withDatabase(adminUrl, name)
}

function withDatabase(url: string, name: string): string {
	const parsed = new URL(url)
	parsed.pathname = `/${name}`
	return parsed.toString()
}

let template: Promise<string> | undefined

/** A database migrated once per test process, that every test database is copied from (much faster than migrating). */
function migratedTemplate(adminUrl: string): Promise<string> {
	template ??= (async () => {
		const name = `portal_template_${process.pid}`
		const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
		await admin.unsafe(`drop database if exists "${name}"`)
		await admin.unsafe(`create database "${name}"`)
		await admin.end()
		// Two connections: migratePostgres holds one for its lock while the migrator uses the other.
		const db = openPostgres(withDatabase(adminUrl, name), { max: 2 })
		await migratePostgres(db)
		await (db.$client as unknown as postgres.Sql).end()
		return name
	})()
	return template
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
	return {
		url: withDatabase(adminUrl, name),
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
