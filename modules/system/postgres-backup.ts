import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type postgres from 'postgres'
import type { Db } from '../../db/client'
import { POSTGRES_MIGRATIONS_FOLDER } from '../../db/migrate'

/*
 * Backups of a portal on PostgreSQL: `pg_dump --format=custom` of its database goes into the same .tar.gz as
 * portal.pgdump (manifest `database: 'postgres'`), and `pg_restore --clean --if-exists --no-owner` puts it back
 * after the same checks as on SQLite. The checks read the dump itself (`pg_restore --list`, and the data of two
 * tables printed by pg_restore), so no scratch database is needed. The tools come from Debian's postgresql-client;
 * when they are missing, or older than the server (pg_dump refuses a newer server), the screens and the restore
 * command say so in pt-BR.
 */

export const PG_DUMP_ENTRY = 'portal.pgdump'
/** What a PostgreSQL backup's manifest says in `database` (a SQLite backup says `portal.sqlite`). */
export const POSTGRES_MANIFEST_DATABASE = 'postgres'

/** Where and as whom to connect, as libpq's environment variables (the password never goes on a command line). */
export type PgEnv = Record<string, string>

/** The connection of a DATABASE_URL (postgres://user:password@host:port/database?sslmode=…). */
export function pgEnvOfUrl(url: string): PgEnv {
	const parsed = new URL(url)
	const env: PgEnv = {
		PGHOST: decodeURIComponent(parsed.hostname.replace(/^\[|\]$/g, '')) || 'localhost',
		PGPORT: parsed.port || '5432',
		PGDATABASE: decodeURIComponent(parsed.pathname.slice(1))
	}
	if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username)
	if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password)
	const sslmode = parsed.searchParams.get('sslmode')
	if (sslmode) env.PGSSLMODE = sslmode
	return env
}

/** The connection a portal database object was opened with (db/client.ts openPostgres). */
export function pgEnvOfDb(db: Db): PgEnv {
	const options = (db.$client as unknown as postgres.Sql).options
	const env: PgEnv = {
		PGHOST: String(options.host[0]),
		PGPORT: String(options.port[0]),
		PGDATABASE: String(options.database),
		PGUSER: String(options.user)
	}
	if (typeof options.pass === 'string' && options.pass) env.PGPASSWORD = options.pass
	if (options.ssl === 'require' || options.ssl === true) env.PGSSLMODE = 'require'
	return env
}

export type PgTools = { disponivel: true; pgDump: string; pgRestore: string } | { disponivel: false; motivo: string }

/** The major version a tool prints ("pg_dump (PostgreSQL) 15.18 (Debian …)" → 15), or null. */
async function toolMajor(path: string): Promise<number | null> {
	try {
		const proc = Bun.spawn([path, '--version'], { stdout: 'pipe', stderr: 'ignore' })
		const out = await new Response(proc.stdout).text()
		await proc.exited
		const m = /\(PostgreSQL\)\s+(\d+)/.exec(out)
		return m ? Number(m[1]) : null
	} catch {
		return null
	}
}

/**
 * pg_dump and pg_restore as found on the PATH, when they can handle a server of `serverVersionNum`
 * (`show server_version_num`, e.g. 150018); otherwise why not, in pt-BR.
 */
export async function findPgTools(serverVersionNum: number, path = process.env.PATH ?? ''): Promise<PgTools> {
	const serverMajor = Math.floor(serverVersionNum / 10000)
	const install = `instale o pacote postgresql-client-${serverMajor} (Debian/Ubuntu) no servidor do portal`
	const pgDump = Bun.which('pg_dump', { PATH: path })
	const pgRestore = Bun.which('pg_restore', { PATH: path })
	if (!pgDump || !pgRestore) {
		const missing = [!pgDump && 'pg_dump', !pgRestore && 'pg_restore'].filter(Boolean).join(' e ')
		return { disponivel: false, motivo: `Backups em PostgreSQL precisam de ${missing}, que não foram encontrados: ${install}.` }
	}
	for (const [name, tool] of [
		['pg_dump', pgDump],
		['pg_restore', pgRestore]
	] as const) {
		const major = await toolMajor(tool)
		if (major === null) return { disponivel: false, motivo: `Não foi possível ler a versão de ${name} (${tool}): ${install}.` }
		if (major < serverMajor) {
			return {
				disponivel: false,
				motivo: `${name} ${major} é mais antigo que o servidor PostgreSQL ${serverMajor}: ${install}.`
			}
		}
	}
	return { disponivel: true, pgDump, pgRestore }
}

/** Runs a PostgreSQL tool; its error output (which never holds the password) explains a failure. */
export async function runPgTool(args: string[], env: PgEnv): Promise<string> {
	const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
	const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
	if (code !== 0) throw new Error(`${args[0].split('/').pop()} falhou (${code}): ${err.trim().slice(-1000)}`)
	return out
}

/** `pg_dump --format=custom` of the database into `file`. */
export async function dumpDatabase(tools: { pgDump: string }, env: PgEnv, file: string) {
	await runPgTool([tools.pgDump, '--format=custom', '--no-password', '--file', file], env)
}

/** The rows of one table's data in a dump, as pg_restore prints them (COPY text format), by column name. */
async function dumpedRows(pgRestore: string, dump: string, schema: string, table: string): Promise<Record<string, string | null>[]> {
	const text = await runPgTool([pgRestore, '--data-only', `--schema=${schema}`, `--table=${table}`, '--file=-', dump], {})
	const lines = text.split('\n')
	const start = lines.findIndex((line) => line.startsWith('COPY '))
	if (start < 0) return []
	const columns = /\(([^)]*)\)/
		.exec(lines[start])![1]
		.split(',')
		.map((c) => c.trim().replace(/^"|"$/g, ''))
	const rows: Record<string, string | null>[] = []
	for (const line of lines.slice(start + 1)) {
		if (line === '\\.') break
		const values = line.split('\t')
		rows.push(Object.fromEntries(columns.map((c, i) => [c, values[i] === '\\N' ? null : values[i]])))
	}
	return rows
}

/** Fails unless pg_restore reads the whole table of contents of the dump (what a backup checks before it is kept). */
export async function checkDumpReadable(tools: { pgRestore: string }, dump: string) {
	await runPgTool([tools.pgRestore, '--list', dump], {})
}

/** The migration level this code knows on PostgreSQL: the `when` of the newest PostgreSQL migration. */
export function codePostgresMigrationLevel(): number {
	const journal = JSON.parse(readFileSync(join(POSTGRES_MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
		entries: { when: number }[]
	}
	return Math.max(...journal.entries.map((e) => e.when))
}

/**
 * Why a dump is not one this code may restore (not this portal's, newer than the code, no active administrador),
 * or null when it is. `tables` are the portal's tables every version has.
 */
export async function dumpProblem(tools: { pgRestore: string }, dump: string, tables: string[]): Promise<string | null> {
	let list: string
	try {
		list = await runPgTool([tools.pgRestore, '--list', dump], {})
	} catch (error) {
		return `O banco do backup não abre: ${(error as Error).message}`
	}
	const present = new Set([...list.matchAll(/^\d+; \d+ \d+ TABLE (\S+) (\S+) /gm)].map((m) => `${m[1]}.${m[2]}`))
	const missing = [...tables.map((t) => `public.${t}`), 'drizzle.__drizzle_migrations'].filter((t) => !present.has(t))
	if (missing.length > 0) return `O banco do backup não é do portal: faltam as tabelas ${missing.map((t) => t.split('.')[1]).join(', ')}.`
	const levels = (await dumpedRows(tools.pgRestore, dump, 'drizzle', '__drizzle_migrations')).map((r) => Number(r.created_at))
	if (levels.length === 0) return 'O banco do backup não registra nenhuma migração do portal.'
	if (Math.max(...levels) > codePostgresMigrationLevel()) {
		return 'O backup é de uma versão mais nova do portal (migrações que este código não conhece). Atualize o portal antes de restaurá-lo.'
	}
	const admins = (await dumpedRows(tools.pgRestore, dump, 'public', 'users')).filter((u) => u.tipo === 'administrador' && u.ativo === 't')
	if (admins.length === 0) return 'O backup não tem nenhum administrador ativo: restaurá-lo deixaria o portal sem quem o administre.'
	return null
}

/** Puts a dump back into the database: whatever the dump holds is dropped and recreated, all in one transaction. */
export async function restoreDump(tools: { pgRestore: string }, env: PgEnv, dump: string) {
	await runPgTool(
		[tools.pgRestore, '--clean', '--if-exists', '--no-owner', '--single-transaction', '--no-password', `--dbname=${env.PGDATABASE}`, dump],
		env
	)
}
