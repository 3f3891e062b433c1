import { COMPANY_SORTS } from '../modules/companies/reads'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { getTableColumns, is, Table } from 'drizzle-orm'
import postgres from 'postgres'
import { openDb, openPostgres } from './client'
import { migrateDb, migratePostgres } from './migrate'
import * as schema from './schema'
import { createEmptyPostgres } from './testing'

/**
 * Both databases migrated from empty end with the same tables: columns (type, nullability, default, primary key),
 * indexes (uniqueness, columns, partial condition), foreign keys and check constraints. The one schema description
 * (db/columns.ts) generates both migration folders; this test catches a hand edit, a migration generated for one
 * database only, or a type the kit translates wrongly. The full-text search structures differ by design (SQLite's
 * FTS5 trigram tables, PostgreSQL's pg_trgm indexes and the folded column companies.busca, db/migrations-pg 0008) and
 * are compared by what they index instead; so do the companies list's sort indexes (db/migrations-pg, 0004), which
 * PostgreSQL needs besides SQLite's.
 */
interface ColumnShape {
	type: string
	notNull: boolean
	default: string | null
	primaryKey: boolean
}
interface TableShape {
	columns: Record<string, ColumnShape>
	indexes: Record<string, string>
	foreignKeys: string[]
	checks: string[]
}
type Shape = Record<string, TableShape>

/** SQL text as both databases may print it, reduced to one spelling: no casts, quotes, parentheses or case. */
function normalize(text: string | null): string | null {
	if (text === null) return null
	return text
		.replace(/::[a-z ]+(\[\])?/gi, '')
		.replace(/[`"()]/g, '')
		.replace(/\s+/g, ' ')
		.trim()
		.toLowerCase()
}

/** The columns the schema declares as yes/no: SQLite keeps them as integers, PostgreSQL as booleans. */
const booleanColumns = new Set(
	Object.values(schema)
		.filter((value) => is(value, Table))
		.flatMap((table) => {
			const name = (table as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')]
			return Object.values(getTableColumns(table as Table))
				.filter((column) => column.dataType === 'boolean')
				.map((column) => `${name}.${column.name}`)
		})
)

const SEARCH_TABLE = /_fts($|_)/
/** PostgreSQL's folded search columns: table → the SQLite FTS5 table whose columns it folds. */
const FOLDED_COLUMNS: Record<string, { column: string; fts: string }> = { companies: { column: 'busca', fts: 'companies_fts' } }

function sqliteShape(): Shape {
	const db = openDb(':memory:')
	migrateDb(db)
	const client = db.$client
	const all = <T>(query: string) => client.query(query).all() as T[]
	const shape: Shape = {}
	const tables = all<{ name: string; sql: string }>(
		"select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> '__drizzle_migrations'"
	).filter((t) => !SEARCH_TABLE.test(t.name))
	for (const { name, sql } of tables) {
		const columns: Record<string, ColumnShape> = {}
		for (const c of all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
			`pragma table_xinfo('${name}')`
		)) {
			const type = booleanColumns.has(`${name}.${c.name}`) ? 'boolean' : c.type.toLowerCase()
			let fallback = normalize(c.dflt_value)
			if (type === 'boolean' && fallback !== null) fallback = fallback === '1' || fallback === 'true' ? 'true' : 'false'
			columns[c.name] = { type, notNull: c.notnull === 1 || c.pk > 0, default: fallback, primaryKey: c.pk > 0 }
		}
		const indexes: Record<string, string> = {}
		for (const index of all<{ name: string; unique: number; origin: string }>(`pragma index_list('${name}')`)) {
			if (index.origin === 'pk') continue
			const cols = all<{ name: string }>(`pragma index_info('${index.name}')`).map((c) => c.name)
			const definition = all<{ sql: string | null }>(`select sql from sqlite_master where name = '${index.name}'`)[0]?.sql
			const where = definition?.match(/\bwhere\b([\s\S]*)$/i)?.[1] ?? null
			indexes[index.name] = `${index.unique ? 'unique ' : ''}(${cols.join(', ')})${where ? ` where ${normalize(where)}` : ''}`
		}
		const foreignKeys = all<{ from: string; table: string; to: string; on_update: string; on_delete: string }>(
			`pragma foreign_key_list('${name}')`
		)
			.map((f) => `${f.from} -> ${f.table}.${f.to} on update ${f.on_update.toLowerCase()} on delete ${f.on_delete.toLowerCase()}`)
			.sort()
		const checks = [...sql.matchAll(/CONSTRAINT "([^"]+)" CHECK/g)].map((m) => m[1]).sort()
		shape[name] = { columns, indexes, foreignKeys, checks }
	}
	return shape
}

async function postgresShape(url: string): Promise<Shape> {
	const db = openPostgres(url, { max: 2 })
	await migratePostgres(db)
	const client = db.$client as unknown as postgres.Sql
	const shape: Shape = {}
	const tables = await client<{ name: string }[]>`
		select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`
	for (const { name } of tables) {
		const primary = new Set(
			(
				await client<{ column: string }[]>`
				select a.attname as column from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
				where i.indrelid = ${name}::regclass and i.indisprimary`
			).map((r) => r.column)
		)
		const columns: Record<string, ColumnShape> = {}
		for (const c of await client<{ column: string; type: string; nullable: string; fallback: string | null }[]>`
			select column_name as column, data_type as type, is_nullable as nullable, column_default as fallback
			from information_schema.columns where table_schema = 'public' and table_name = ${name}`) {
			if (FOLDED_COLUMNS[name]?.column === c.column) continue
			const type = c.type === 'bigint' ? 'integer' : c.type
			columns[c.column] = { type, notNull: c.nullable === 'NO', default: normalize(c.fallback), primaryKey: primary.has(c.column) }
		}
		const indexes: Record<string, string> = {}
		for (const index of await client<{ name: string; unique: boolean; definition: string; where: string | null }[]>`
			select c.relname as name, i.indisunique as unique, pg_get_indexdef(i.indexrelid) as definition,
				pg_get_expr(i.indpred, i.indrelid) as where
			from pg_index i join pg_class c on c.oid = i.indexrelid
			where i.indrelid = ${name}::regclass and not i.indisprimary`) {
			if (index.name.endsWith('_trgm_idx') || index.name.endsWith('_sort_idx')) continue
			const cols = index.definition.match(/USING \w+ \((.*?)\)(?: WHERE|$)/)?.[1] ?? ''
			const list = cols.split(',').map((c) => normalize(c))
			indexes[index.name] = `${index.unique ? 'unique ' : ''}(${list.join(', ')})${index.where ? ` where ${normalize(index.where)}` : ''}`
		}
		const foreignKeys = (
			await client<{ definition: string }[]>`
			select pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = ${name}::regclass and contype = 'f'`
		)
			.map(({ definition }) => {
				const m = definition.match(/FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)/)
				const action = (on: string) =>
					(definition.match(new RegExp(`ON ${on} (CASCADE|SET NULL|SET DEFAULT|RESTRICT|NO ACTION)`))?.[1] ?? 'NO ACTION').toLowerCase()
				return m ? `${m[1]} -> ${m[2]}.${m[3]} on update ${action('UPDATE')} on delete ${action('DELETE')}` : definition
			})
			.sort()
		const checks = (
			await client<{ name: string }[]>`select conname as name from pg_constraint where conrelid = ${name}::regclass and contype = 'c'`
		)
			.map((r) => r.name)
			.sort()
		shape[name] = { columns, indexes, foreignKeys, checks }
	}
	await client.end()
	return shape
}

let database: Awaited<ReturnType<typeof createEmptyPostgres>>
beforeAll(async () => {
	database = await createEmptyPostgres()
}, 60_000)
afterAll(() => database.drop())

test('SQLite and PostgreSQL migrated from empty have the same tables, columns, defaults, indexes and keys', async () => {
	const sqlite = sqliteShape()
	const pg = await postgresShape(database.url)
	expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort())
	for (const name of Object.keys(sqlite)) expect({ table: name, ...pg[name] }).toEqual({ table: name, ...sqlite[name] })
	// The tables really were compared: the portal has dozens, with their indexes and keys.
	expect(Object.keys(sqlite).length).toBeGreaterThan(30)
}, 60_000)

test('PostgreSQL indexes for search what SQLite full-text tables index', async () => {
	const client = postgres(database.url, { max: 1, onnotice: () => {} })
	const trigram = (await client<{ name: string }[]>`select indexname as name from pg_indexes where indexname like '%_trgm_idx'`)
		.map((r) => r.name)
		.sort()
	await client.end()
	expect(trigram).toEqual([
		'companies_busca_trgm_idx',
		'historico_pagamentos_boleto_trgm_idx',
		'historico_pagamentos_descricao_trgm_idx',
		'historico_pagamentos_evento_trgm_idx'
	])
})

test('a folded search column folds every column of its SQLite full-text table and has a trigram index', async () => {
	const sqlite = openDb(':memory:')
	migrateDb(sqlite)
	const client = postgres(database.url, { max: 1, onnotice: () => {} })
	for (const [table, folded] of Object.entries(FOLDED_COLUMNS)) {
		const ftsColumns = (sqlite.$client.query(`pragma table_info('${folded.fts}')`).all() as { name: string }[]).map((c) => c.name)
		expect(ftsColumns.length).toBeGreaterThan(0)
		const [{ expression }] = await client<{ expression: string }[]>`
			select generation_expression as expression from information_schema.columns
			where table_schema = 'public' and table_name = ${table} and column_name = ${folded.column}`
		expect(expression).toStartWith('portal_fold(')
		expect(ftsColumns.filter((column) => !new RegExp(`\\b${column}\\b`).test(expression))).toEqual([])
		const indexName = `${table}_${folded.column}_trgm_idx`
		const [{ definition }] = await client<
			{ definition: string }[]
		>`select indexdef as definition from pg_indexes where indexname = ${indexName}`
		expect(definition).toContain(`USING gin (${folded.column} gin_trgm_ops)`)
	}
	sqlite.$client.close()
	await client.end()
})

test('PostgreSQL has a sort index for each column the companies list sorts by', async () => {
	const client = postgres(database.url, { max: 1, onnotice: () => {} })
	const sorts = await client<{ definition: string }[]>`select indexdef as definition from pg_indexes where indexname like '%_sort_idx'`
	await client.end()
	const columns = sorts.map((r) => r.definition.match(/\(([a-z_]+) NULLS FIRST, codigo NULLS FIRST\)$/)?.[1]).sort()
	expect(columns).toEqual([...COMPANY_SORTS].sort())
})
