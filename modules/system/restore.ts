import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DB_ENTRY, MANIFEST_ENTRY, UPLOADS_ENTRY, backupDir, integrityCheck, uploadsDir } from './backup'

/*
 * Restore (run by `bun run restore <file>` with the server stopped):
 * 1. refuses while the portal runs on this data folder (its pid file names a live process);
 * 2. reads the archive and refuses entries other than portal.sqlite, manifest.json and uploads/…
 *    (no absolute paths, no "..");
 * 3. extracts into a staging folder inside the data folder and runs PRAGMA integrity_check on the
 *    extracted database — nothing is replaced unless it says "ok";
 * 4. checkpoints the current database and keeps it as portal.sqlite.replaced-<timestamp> (and the
 *    current uploads as uploads.replaced-<timestamp>), then moves the restored ones into place.
 */

export const PID_FILE = 'portal.pid'

/** Called by the server at start: records its pid so a restore can refuse to run under it. */
export function writePidFile(dataDir: string) {
	const path = join(dataDir, PID_FILE)
	writeFileSync(path, String(process.pid))
	const remove = () => {
		try {
			if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path)
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

/** The pid of a portal process running on this data folder, or null. */
export function runningServerPid(dataDir: string): number | null {
	const path = join(dataDir, PID_FILE)
	if (!existsSync(path)) return null
	const pid = Number(readFileSync(path, 'utf8').trim())
	if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null
	try {
		process.kill(pid, 0)
		return pid
	} catch {
		return null
	}
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
	const pid = runningServerPid(dataDir)
	if (pid) throw new RestoreError(`O portal está em execução neste DATA_DIR (PID ${pid}). Pare o servidor antes de restaurar.`)

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
