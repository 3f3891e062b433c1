import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { codeMigrationLevel, initialTables } from '../../db/migrate'
import { databaseOwnerOnly, ownerOnly, uploadsDir } from '../core/server'
import postgres from 'postgres'
import { DB_ENTRY, MANIFEST_ENTRY, UPLOADS_ENTRY, backupDir, integrityCheck } from './backup'
import {
	PG_DUMP_ENTRY,
	POSTGRES_MANIFEST_DATABASE,
	dumpDatabase,
	dumpProblem,
	findPgTools,
	pgEnvOfUrl,
	restoreDump
} from './postgres-backup'

/*
 * Restore (run by `bun run restore <file>` with the server stopped):
 * 1. refuses while the portal runs on this data folder (its pid file has a fresh heartbeat and, on this
 *    host, names a live process);
 * 2. decompresses the archive with a cap on its uncompressed size (1 GiB by default: a decompression bomb
 *    stops there) and refuses entries other than portal.sqlite, manifest.json and uploads/… (no absolute
 *    paths, no "..");
 * 3. checks it is a backup of this portal: its manifest says so, and the database, extracted into a staging
 *    folder inside the data folder, passes PRAGMA integrity_check, has the portal's tables, a migration
 *    level not newer than this code's, and at least one active administrador — nothing is replaced otherwise
 *    (an empty database would have had the next start create a new default administrator);
 * 4. checkpoints the current database and keeps it as portal.sqlite.replaced-<timestamp> (and the
 *    current uploads as uploads.replaced-<timestamp>), then moves the restored ones into place;
 * 5. leaves every file it wrote or moved readable by its owner only (0600, folders 0700).
 * On PostgreSQL (`databaseUrl`, the portal's DATABASE_URL) the archive holds portal.pgdump instead: the same checks
 * read the dump (postgres-backup.ts), the restore is also refused while any other session is connected to the
 * database (a portal process on another machine), the current database is kept as a dump,
 * DATA_DIR/portal.pgdump.replaced-<timestamp>, and pg_restore puts the backup back in one transaction.
 * A backup of one database kind is refused on the other.
 */

/** The largest uncompressed archive restored unless the caller allows more (RESTORE_MAX_MB for the command). */
export const DEFAULT_MAX_RESTORE_BYTES = 1024 * 1024 * 1024

export const PID_FILE = 'portal.pid'
/** The server rewrites its pid file this often; a file older than HEARTBEAT_STALE_MS means no server. */
export const HEARTBEAT_MS = 30_000
export const HEARTBEAT_STALE_MS = 90_000

interface PidFile {
	pid: number
	host: string
	/** Last heartbeat, ms since epoch. */
	beat: number
}

/**
 * Called by the server at start: writes `{pid, host, beat}` to DATA_DIR/portal.pid and refreshes the beat
 * every 30 s, so a restore can tell a running portal (even in another container sharing the volume)
 * from a file left behind by one that was killed. Removed when the process exits (main.ts turns SIGINT and SIGTERM
 * into an exit).
 */
export function writePidFile(dataDir: string) {
	const path = join(dataDir, PID_FILE)
	const write = () => writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), beat: Date.now() } satisfies PidFile))
	write()
	const timer = setInterval(write, HEARTBEAT_MS)
	timer.unref?.()
	const remove = () => {
		clearInterval(timer)
		try {
			const current = JSON.parse(readFileSync(path, 'utf8')) as PidFile
			if (current.pid === process.pid && current.host === hostname()) unlinkSync(path)
		} catch {}
	}
	process.on('exit', remove)
}

/** The portal running on this data folder (its heartbeat is fresh and, on this host, its process lives), or null. */
export function runningServer(dataDir: string, now = Date.now()): { pid: number; host: string } | null {
	const path = join(dataDir, PID_FILE)
	if (!existsSync(path)) return null
	let info: PidFile
	try {
		info = JSON.parse(readFileSync(path, 'utf8')) as PidFile
	} catch {
		return null
	}
	if (!Number.isInteger(info.pid) || typeof info.beat !== 'number' || now - info.beat > HEARTBEAT_STALE_MS) return null
	if (info.host === hostname()) {
		if (info.pid === process.pid) return null
		try {
			process.kill(info.pid, 0)
		} catch {
			return null
		}
	}
	return { pid: info.pid, host: info.host }
}

function safeUploadPath(entry: string): string | null {
	if (!entry.startsWith(UPLOADS_ENTRY)) return null
	const rest = entry.slice(UPLOADS_ENTRY.length)
	const parts = rest.split('/')
	if (!rest || entry.includes('\\') || entry.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..')) return null
	return rest
}

export class RestoreError extends Error {}

export interface RestoreResult {
	restoredDb: string
	replacedDb: string | null
	replacedUploads: string | null
	restoredUploads: number
	manifest: Record<string, unknown> | null
}

/** Resolves "backup-….tar.gz" against the backups folder when it is not a path to an existing file. */
export function resolveArchive(dataDir: string, file: string): string {
	if (existsSync(file)) return file
	const inBackups = join(backupDir({ dataDir }), file)
	if (existsSync(inBackups)) return inBackups
	throw new RestoreError(`Arquivo não encontrado: ${file}`)
}

/** The tar inside a .tar.gz, decompressed only up to `maxBytes`. */
function gunzipCapped(compressed: Uint8Array, maxBytes: number): Uint8Array {
	if (compressed[0] !== 0x1f || compressed[1] !== 0x8b) throw new RestoreError('O arquivo não é um backup .tar.gz.')
	try {
		return gunzipSync(compressed, { maxOutputLength: maxBytes })
	} catch (error) {
		if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
			throw new RestoreError(
				`O backup descompactado passa de ${Math.round(maxBytes / 1024 / 1024)} MB: recusado (aumente RESTORE_MAX_MB se ele for legítimo).`
			)
		}
		throw new RestoreError(`Arquivo de backup ilegível (${(error as Error).message}).`)
	}
}

/**
 * The manifest the portal writes into every backup (backup.ts): what tells this portal's backups from any archive,
 * and a SQLite backup from a PostgreSQL one; each is restored only onto its own kind of database.
 */
function checkManifest(manifest: unknown, onPostgres: boolean) {
	const m = manifest as { app?: unknown; database?: unknown } | null
	if (m?.app !== 'k-licencas' || (m?.database !== DB_ENTRY && m?.database !== POSTGRES_MANIFEST_DATABASE)) {
		throw new RestoreError(`O arquivo não é um backup do K-Licenças: ${MANIFEST_ENTRY} ausente ou de outro sistema.`)
	}
	if (onPostgres && m.database === DB_ENTRY) {
		throw new RestoreError(
			'Este backup é de um portal em SQLite e este portal usa PostgreSQL (DATABASE_URL): restaure-o em um portal sem DATABASE_URL.'
		)
	}
	if (!onPostgres && m.database === POSTGRES_MANIFEST_DATABASE) {
		throw new RestoreError(
			'Este backup é de um portal em PostgreSQL e este portal usa SQLite: defina DATABASE_URL com o banco PostgreSQL para restaurá-lo.'
		)
	}
}

/** The staged database is this portal's, at a level this code can run, and someone can sign in to it. */
function checkPortalDatabase(path: string) {
	const db = new Database(path, { readonly: true })
	try {
		const tables = new Set((db.query("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name))
		const missing = [...initialTables(), '__drizzle_migrations'].filter((t) => !tables.has(t))
		if (missing.length > 0) throw new RestoreError(`O banco do backup não é do portal: faltam as tabelas ${missing.join(', ')}.`)
		const level = (db.query('select max(created_at) as level from __drizzle_migrations').get() as { level: number | null }).level
		if (level === null) throw new RestoreError('O banco do backup não registra nenhuma migração do portal.')
		if (Number(level) > codeMigrationLevel()) {
			throw new RestoreError(
				'O backup é de uma versão mais nova do portal (migrações que este código não conhece). Atualize o portal antes de restaurá-lo.'
			)
		}
		const admins = db.query("select count(*) as n from users where tipo = 'administrador' and ativo = 1").get() as { n: number }
		if (admins.n === 0) {
			throw new RestoreError('O backup não tem nenhum administrador ativo: restaurá-lo deixaria o portal sem quem o administre.')
		}
	} finally {
		db.close()
	}
}

export async function restoreBackup(options: {
	archive: string
	dataDir: string
	/** The portal's DATABASE_URL when it runs on PostgreSQL; without it, the SQLite database in dataDir. */
	databaseUrl?: string
	now?: Date
	maxBytes?: number
}): Promise<RestoreResult> {
	const { dataDir } = options
	const server = runningServer(dataDir)
	if (server) {
		throw new RestoreError(
			`O portal está em execução neste DATA_DIR (PID ${server.pid} em ${server.host}). Pare o servidor antes de restaurar.`
		)
	}

	const tar = gunzipCapped(await Bun.file(options.archive).bytes(), options.maxBytes ?? DEFAULT_MAX_RESTORE_BYTES)
	let files: Map<string, File>
	try {
		files = await new Bun.Archive(tar).files()
	} catch (error) {
		throw new RestoreError(`Arquivo de backup ilegível (${(error as Error).message}).`)
	}
	const uploads: [string, File][] = []
	for (const [entry, file] of files) {
		if (entry === DB_ENTRY || entry === PG_DUMP_ENTRY || entry === MANIFEST_ENTRY) continue
		const rel = safeUploadPath(entry)
		if (!rel) throw new RestoreError(`Entrada não permitida no backup: ${JSON.stringify(entry)}`)
		uploads.push([rel, file])
	}
	let manifest: Record<string, unknown> | null = null
	try {
		manifest = files.has(MANIFEST_ENTRY) ? JSON.parse(await files.get(MANIFEST_ENTRY)!.text()) : null
	} catch {
		manifest = null
	}
	checkManifest(manifest, !!options.databaseUrl)
	const dbEntry = options.databaseUrl ? PG_DUMP_ENTRY : DB_ENTRY
	const dbFile = files.get(dbEntry)
	if (!dbFile) throw new RestoreError(`O backup não contém ${dbEntry}.`)

	mkdirSync(dataDir, { recursive: true, mode: 0o700 })
	const staging = mkdtempSync(join(dataDir, '.restore-'))
	try {
		const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')
		const stagedUploads = await stageUploads(staging, uploads)
		const restored = options.databaseUrl
			? await restorePostgres(options.databaseUrl, staging, dbFile, dataDir, stamp)
			: await restoreSqlite(staging, dbFile, dataDir, stamp)
		const replacedUploads = replaceUploads(stagedUploads, dataDir, stamp)
		return { ...restored, replacedUploads, restoredUploads: uploads.length, manifest }
	} finally {
		rmSync(staging, { recursive: true, force: true })
	}
}

/** Checks the staged SQLite database and moves it into place, keeping the current one beside it. */
async function restoreSqlite(staging: string, dbFile: File, dataDir: string, stamp: string) {
	const stagedDb = join(staging, DB_ENTRY)
	writeFileSync(stagedDb, await dbFile.bytes(), { mode: 0o600 })
	let integrity: string
	try {
		integrity = integrityCheck(stagedDb)
	} catch (error) {
		throw new RestoreError(`O banco do backup não abre: ${(error as Error).message}`)
	}
	if (integrity !== 'ok') throw new RestoreError(`O banco do backup falhou na verificação de integridade: ${integrity}`)
	checkPortalDatabase(stagedDb)

	const live = join(dataDir, DB_ENTRY)
	let replacedDb: string | null = null
	if (existsSync(live)) {
		// Fold the WAL into the file first, so the kept copy is complete on its own.
		const current = new Database(live)
		try {
			current.exec('PRAGMA wal_checkpoint(TRUNCATE)')
		} finally {
			current.close()
		}
		replacedDb = `${live}.replaced-${stamp}`
		renameSync(live, replacedDb)
		for (const suffix of ['-wal', '-shm']) {
			if (existsSync(live + suffix)) renameSync(live + suffix, replacedDb + suffix)
		}
		databaseOwnerOnly(replacedDb)
	}
	renameSync(stagedDb, live)
	databaseOwnerOnly(live)
	return { restoredDb: live, replacedDb }
}

/**
 * Checks the staged dump, refuses while anything else is connected to the database, keeps the current database as a
 * dump in dataDir, then restores the backup's in one transaction (a failure leaves the database as it was).
 */
async function restorePostgres(databaseUrl: string, staging: string, dbFile: File, dataDir: string, stamp: string) {
	const env = pgEnvOfUrl(databaseUrl)
	const client = postgres(databaseUrl, { max: 1, onnotice: () => {} })
	let serverVersion: number
	let others: number
	try {
		const [row] = await client<{ version: string; others: number }[]>`
			select current_setting('server_version_num') as version,
				(select count(*)::int from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()) as others`
		serverVersion = Number(row.version)
		others = row.others
	} catch (error) {
		throw new RestoreError(`Não foi possível conectar ao banco PostgreSQL de DATABASE_URL: ${(error as Error).message}`)
	} finally {
		await client.end()
	}
	const tools = await findPgTools(serverVersion)
	if (!tools.disponivel) throw new RestoreError(tools.motivo)
	const stagedDump = join(staging, PG_DUMP_ENTRY)
	writeFileSync(stagedDump, await dbFile.bytes(), { mode: 0o600 })
	const problem = await dumpProblem(tools, stagedDump, initialTables())
	if (problem) throw new RestoreError(problem)
	if (others > 0) {
		throw new RestoreError(
			`Há ${others} ${others === 1 ? 'outra conexão aberta' : 'outras conexões abertas'} ao banco ${env.PGDATABASE} (o portal está em execução?). Pare todos os processos do portal antes de restaurar.`
		)
	}
	const replacedDb = join(dataDir, `${PG_DUMP_ENTRY}.replaced-${stamp}`)
	try {
		await dumpDatabase(tools, env, replacedDb)
		ownerOnly(replacedDb)
	} catch (error) {
		rmSync(replacedDb, { force: true })
		throw new RestoreError(`Não foi possível guardar uma cópia do banco atual antes de restaurar: ${(error as Error).message}`)
	}
	try {
		await restoreDump(tools, env, stagedDump)
	} catch (error) {
		throw new RestoreError(`pg_restore não conseguiu restaurar o backup; o banco ficou como estava. ${(error as Error).message}`)
	}
	return { restoredDb: `PostgreSQL ${env.PGDATABASE} em ${env.PGHOST}:${env.PGPORT}`, replacedDb }
}

/** Writes the backup's uploaded files into the staging folder (before anything live is replaced). */
async function stageUploads(staging: string, uploads: [string, File][]): Promise<string> {
	const stagedUploads = join(staging, 'uploads')
	mkdirSync(stagedUploads, { recursive: true, mode: 0o700 })
	for (const [rel, file] of uploads) {
		const target = join(stagedUploads, rel)
		mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
		writeFileSync(target, await file.bytes(), { mode: 0o600 })
	}
	return stagedUploads
}

/** Puts the staged uploaded files in DATA_DIR/uploads, keeping the current ones beside it. */
function replaceUploads(stagedUploads: string, dataDir: string, stamp: string): string | null {
	const liveUploads = uploadsDir({ dataDir })
	let replacedUploads: string | null = null
	if (existsSync(liveUploads)) {
		replacedUploads = `${liveUploads}.replaced-${stamp}`
		renameSync(liveUploads, replacedUploads)
		ownerOnly(replacedUploads)
	}
	renameSync(stagedUploads, liveUploads)
	ownerOnly(liveUploads)
	return replacedUploads
}
