import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { openDb } from './client'
import { MIGRATIONS_FOLDER, POSTGRES_MIGRATIONS_FOLDER } from './migrate'
import { createEmptyPostgres } from './testing'

// Several portal processes starting at the same moment on one empty database: each migration runs once.
const dir = mkdtempSync(join(tmpdir(), 'portal-migrate-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const migrations = (folder: string) =>
	(JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length

/** Starts `count` processes that each migrate the database, together, and waits for all of them. */
async function migrateTogether(count: number, env: Record<string, string>, code: string) {
	const processes = Array.from({ length: count }, () =>
		Bun.spawn([process.execPath, '-e', code], { cwd: import.meta.dir, env: { ...process.env, ...env }, stderr: 'pipe' })
	)
	return Promise.all(processes.map(async (p) => ({ code: await p.exited, stderr: await new Response(p.stderr).text() })))
}

test('SQLite: processes migrating one file together all start, and each migration is applied once', async () => {
	const file = join(dir, 'portal.sqlite')
	const results = await migrateTogether(
		4,
		{ DATABASE_URL: '' },
		`import { openDb } from './client'; import { migrateDb } from './migrate'; migrateDb(openDb(${JSON.stringify(file)}))`
	)
	expect(results).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stderr: '' })))
	const applied = openDb(file).$client.query('select count(*) as n from __drizzle_migrations').get() as { n: number }
	expect(applied.n).toBe(migrations(MIGRATIONS_FOLDER))
}, 60_000)

test('PostgreSQL: processes migrating one database together all start, and each migration is applied once', async () => {
	const database = await createEmptyPostgres()
	try {
		const results = await migrateTogether(
			4,
			{ DATABASE_URL: database.url },
			`import { openPostgres } from './client'; import { migratePostgres } from './migrate'
			const db = openPostgres(process.env.DATABASE_URL); await migratePostgres(db); await db.$client.end()`
		)
		expect(results).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stderr: '' })))
		const client = postgres(database.url, { max: 1 })
		const [{ n }] = await client<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`
		await client.end()
		expect(n).toBe(migrations(POSTGRES_MIGRATIONS_FOLDER))
	} finally {
		await database.drop()
	}
}, 60_000)
