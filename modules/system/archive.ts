import { Database } from 'bun:sqlite'

/** What goes into one backup archive; shared by the worker and the in-memory (test) path. */
export interface ArchiveJob {
	/** The live database file to copy, or null when `copy` was already written (in-memory databases). */
	source: string | null
	/** Where the VACUUM INTO copy is written. */
	copy: string
	/** The archive to write (a temporary name; the caller renames it when complete). */
	archive: string
	/** Entry name → file path, for the uploaded files. */
	uploads: Record<string, string>
	manifest: Record<string, unknown>
}

export type ArchiveReply = { ok: true; integrity: string } | { ok: false; message: string }

export function integrityOf(path: string): string {
	const check = new Database(path, { readonly: true })
	try {
		const rows = check.query('PRAGMA integrity_check').all() as { integrity_check: string }[]
		return rows.map((r) => r.integrity_check).join('; ')
	} finally {
		check.close()
	}
}

/**
 * Copies the database with VACUUM INTO (one consistent snapshot, on its own read-only connection),
 * checks the copy, and writes the .tar.gz: portal.sqlite, uploads/…, manifest.json. Nothing is archived
 * when the copy fails its integrity check.
 */
export async function buildArchive(job: ArchiveJob): Promise<ArchiveReply> {
	try {
		if (job.source) {
			const live = new Database(job.source, { readonly: true })
			try {
				live.exec('PRAGMA busy_timeout = 5000')
				live.prepare('VACUUM INTO ?').run(job.copy)
			} finally {
				live.close()
			}
		}
		const integrity = integrityOf(job.copy)
		if (integrity !== 'ok') return { ok: true, integrity }
		// Bun.Archive takes contents, not lazy file handles (a BunFile would be archived empty).
		const entries: Record<string, Uint8Array | string> = { 'portal.sqlite': await Bun.file(job.copy).bytes() }
		for (const [name, path] of Object.entries(job.uploads)) entries[name] = await Bun.file(path).bytes()
		entries['manifest.json'] = JSON.stringify(job.manifest, null, 2)
		await Bun.Archive.write(job.archive, entries, { compress: 'gzip' })
		return { ok: true, integrity }
	} catch (error) {
		return { ok: false, message: String((error as Error)?.message ?? error) }
	}
}
