/**
 * PostgreSQL for the benchmarks: a scratch database on the server of DATABASE_URL (never the database itself: a
 * benchmark fills it with made-up companies), and the copy of a seeded SQLite file into it. The benchmarks seed SQLite (fast, and the same data
 * on both databases) and copy the rows over.
 */
import { Database } from 'bun:sqlite'
import postgres from 'postgres'
import { openPostgres } from '../../db/client'
import { migratePostgres } from '../../db/migrate'
import { DATABASE_URL } from '../../db/dialect'

/** A new, migrated database on DATABASE_URL's server for one benchmark run, and how to drop it. */
export async function scratchPostgres(name: string): Promise<{ url: string; drop(): Promise<void> }> {
	const server = DATABASE_URL!
	const database = `${name}_${process.pid}`
	const url = new URL(server)
	url.pathname = `/${database}`
	const admin = postgres(server, { max: 1, onnotice: () => {} })
	await admin.unsafe(`drop database if exists "${database}"`)
	await admin.unsafe(`create database "${database}"`)
	await admin.end()
	const db = openPostgres(url.toString(), { max: 2 })
	await migratePostgres(db)
	await (db.$client as unknown as postgres.Sql).end()
	return {
		url: url.toString(),
		async drop() {
			const again = postgres(server, { max: 1, onnotice: () => {} })
			await again.unsafe(`drop database if exists "${database}" with (force)`)
			await again.end()
		}
	}
}

/**
 * Copies `tables` (parents first) from a SQLite file into a migrated PostgreSQL database, then vacuums and analyzes
 * it, as pgbench does after its load: a database in service has been vacuumed, and without it the figures depend on
 * how far autovacuum got (index-only scans read the table while the visibility map is empty, searches read the GIN
 * indexes' pending lists). Columns PostgreSQL computes itself (companies.busca) are left to it.
 */
export async function copyToPostgres(sqlitePath: string, url: string, tables: string[]) {
	const source = new Database(sqlitePath, { readonly: true, strict: true })
	const target = postgres(url, { max: 1, onnotice: () => {} })
	try {
		for (const table of tables) {
			const columns = await target<{ column_name: string; data_type: string; is_identity: 'YES' | 'NO' }[]>`
				select column_name, data_type, is_identity from information_schema.columns
				where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'`
			const names = columns.map((c) => c.column_name)
			// SQLite keeps booleans as 0/1.
			const booleans = columns.filter((c) => c.data_type === 'boolean').map((c) => c.column_name)
			const select = source.prepare(`select ${names.map((n) => `"${n}"`).join(', ')} from "${table}"`)
			// PostgreSQL takes at most 65,535 parameters in one statement.
			const batchSize = Math.floor(60_000 / names.length)
			let batch: Record<string, postgres.ParameterOrJSON<never>>[] = []
			for (const row of select.iterate() as Iterable<Record<string, postgres.ParameterOrJSON<never>>>) {
				for (const name of booleans) if (row[name] !== null) row[name] = row[name] === 1
				batch.push(row)
				if (batch.length === batchSize) {
					await target`insert into ${target(table)} ${target(batch, names)}`
					batch = []
				}
			}
			if (batch.length > 0) await target`insert into ${target(table)} ${target(batch, names)}`
			for (const { column_name } of columns.filter((c) => c.is_identity === 'YES')) {
				await target.unsafe(
					`select setval(pg_get_serial_sequence('"${table}"', '${column_name}'), coalesce((select max("${column_name}") from "${table}"), 0) + 1, false)`
				)
			}
		}
		await target.unsafe('vacuum analyze')
	} finally {
		source.close()
		await target.end()
	}
}
