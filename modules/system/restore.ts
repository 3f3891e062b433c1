import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { codeMigrationLevel, initialTables } from '../../db/migrate'
import { databaseOwnerOnly, ownerOnly, uploadsDir } from '../core/server'
import { DB_ENTRY, MANIFEST_ENTRY, UPLOADS_ENTRY, backupDir, integrityCheck } from './backup'

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
 * from a file left behind by one that was killed. Removed on a normal stop.
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
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			console.error(`Sinal ${signal} recebido: encerrando o portal.`)
			remove()
			process.exit(0)
		})
	}
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

/** The manifest the portal writes into every backup (backup.ts): what tells this portal's backups from any archive. */
function checkManifest(manifest: unknown) {
	const m = manifest as { app?: unknown; database?: unknown } | null
	if (m?.app !== 'k-licencas' || m?.database !== DB_ENTRY) {
		throw new RestoreError(`O arquivo não é um backup do K-Licenças: ${MANIFEST_ENTRY} ausente ou de outro sistema.`)
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

export async function restoreBackup(options: { archive: string; dataDir: string; now?: Date; maxBytes?: number }): Promise<RestoreResult> {
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
		if (entry === DB_ENTRY || entry === MANIFEST_ENTRY) continue
		const rel = safeUploadPath(entry)
		if (!rel) throw new RestoreError(`Entrada não permitida no backup: ${JSON.stringify(entry)}`)
		uploads.push([rel, file])
	}
	const dbFile = files.get(DB_ENTRY)
	if (!dbFile) throw new RestoreError(`O backup não contém ${DB_ENTRY}.`)
	let manifest: Record<string, unknown> | null = null
	try {
		manifest = files.has(MANIFEST_ENTRY) ? JSON.parse(await files.get(MANIFEST_ENTRY)!.text()) : null
	} catch {
		manifest = null
	}
	checkManifest(manifest)

	mkdirSync(dataDir, { recursive: true, mode: 0o700 })
	const staging = mkdtempSync(join(dataDir, '.restore-'))
	try {
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
		const stagedUploads = join(staging, 'uploads')
		mkdirSync(stagedUploads, { recursive: true, mode: 0o700 })
		for (const [rel, file] of uploads) {
			const target = join(stagedUploads, rel)
			mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
			writeFileSync(target, await file.bytes(), { mode: 0o600 })
		}

		const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')
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

		const liveUploads = uploadsDir({ dataDir })
		let replacedUploads: string | null = null
		if (existsSync(liveUploads)) {
			replacedUploads = `${liveUploads}.replaced-${stamp}`
			renameSync(liveUploads, replacedUploads)
			ownerOnly(replacedUploads)
		}
		renameSync(stagedUploads, liveUploads)
		ownerOnly(liveUploads)
		return { restoredDb: live, replacedDb, replacedUploads, restoredUploads: uploads.length, manifest }
	} finally {
		rmSync(staging, { recursive: true, force: true })
	}
}
