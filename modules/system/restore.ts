import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { uploadsDir } from '../core/server'
import { DB_ENTRY, MANIFEST_ENTRY, UPLOADS_ENTRY, backupDir, integrityCheck } from './backup'

/*
 * Restore (run by `bun run restore <file>` with the server stopped):
 * 1. refuses while the portal runs on this data folder (its pid file has a fresh heartbeat and, on this
 *    host, names a live process);
 * 2. reads the archive and refuses entries other than portal.sqlite, manifest.json and uploads/…
 *    (no absolute paths, no "..");
 * 3. extracts into a staging folder inside the data folder and runs PRAGMA integrity_check on the
 *    extracted database — nothing is replaced unless it says "ok";
 * 4. checkpoints the current database and keeps it as portal.sqlite.replaced-<timestamp> (and the
 *    current uploads as uploads.replaced-<timestamp>), then moves the restored ones into place.
 */

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

export async function restoreBackup(options: { archive: string; dataDir: string; now?: Date }): Promise<RestoreResult> {
	const { dataDir } = options
	const server = runningServer(dataDir)
	if (server) {
		throw new RestoreError(
			`O portal está em execução neste DATA_DIR (PID ${server.pid} em ${server.host}). Pare o servidor antes de restaurar.`
		)
	}

	let files: Map<string, File>
	try {
		files = await new Bun.Archive(await Bun.file(options.archive).bytes()).files()
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

	mkdirSync(dataDir, { recursive: true })
	const staging = mkdtempSync(join(dataDir, '.restore-'))
	try {
		const stagedDb = join(staging, DB_ENTRY)
		await Bun.write(stagedDb, await dbFile.bytes())
		let integrity: string
		try {
			integrity = integrityCheck(stagedDb)
		} catch (error) {
			throw new RestoreError(`O banco do backup não abre: ${(error as Error).message}`)
		}
		if (integrity !== 'ok') throw new RestoreError(`O banco do backup falhou na verificação de integridade: ${integrity}`)
		const stagedUploads = join(staging, 'uploads')
		mkdirSync(stagedUploads, { recursive: true })
		for (const [rel, file] of uploads) {
			const target = join(stagedUploads, rel)
			mkdirSync(dirname(target), { recursive: true })
			await Bun.write(target, await file.bytes())
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
		}
		renameSync(stagedDb, live)

		const liveUploads = uploadsDir({ dataDir })
		let replacedUploads: string | null = null
		if (existsSync(liveUploads)) {
			replacedUploads = `${liveUploads}.replaced-${stamp}`
			renameSync(liveUploads, replacedUploads)
		}
		renameSync(stagedUploads, liveUploads)
		return { restoredDb: live, replacedDb, replacedUploads, restoredUploads: uploads.length, manifest }
	} finally {
		rmSync(staging, { recursive: true, force: true })
	}
}
