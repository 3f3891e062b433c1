import type { BackupInfo } from './model'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { onPostgres } from '../../db/dialect'
import { sqlRows } from '../../db/query'
import { type Clock, HOUR } from '../core'
import { AppError, type AppConfig, badRequest, conflict, notFound, uploadsDir } from '../core/server'
import { getSetting } from '../settings'
import { type ArchiveJob, type ArchiveReply, buildArchive, integrityOf } from './archive'
import {
	PG_DUMP_ENTRY,
	POSTGRES_MANIFEST_DATABASE,
	type PgTools,
	dumpDatabase,
	checkDumpReadable,
	findPgTools,
	pgEnvOfDb
} from './postgres-backup'

/*
 * Backups: one .tar.gz per backup under `${dataDir}/backups` (outside any served folder), holding
 *   portal.sqlite  – a consistent copy of the live database made with `VACUUM INTO` in a worker
 *                    (a read transaction on its own connection: the portal keeps serving, and the
 *                    copy holds exactly what was committed when it began; see archive.ts),
 *   uploads/…      – the uploaded files (`${dataDir}/uploads`),
 *   manifest.json  – what it is, when, from which version.
 * The archive is written under a temporary name and renamed when complete, so a half-written file
 * never looks like a backup. `bun run restore <file>` puts one back (see restore.ts).
 * On PostgreSQL the database goes in as portal.pgdump instead, made by pg_dump (see postgres-backup.ts).
 */

export type BackupKind = 'manual' | 'automatico'

/** The only names a backup may have; anything else (../, %2e%2e, slashes, other files) is refused. */
export const BACKUP_NAME = /^backup-(manual|automatico)-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.tar\.gz$/

export const DB_ENTRY = 'portal.sqlite'
export const MANIFEST_ENTRY = 'manifest.json'
export const UPLOADS_ENTRY = 'uploads/'

export const backupDir = (config: Pick<AppConfig, 'dataDir'>) => join(config.dataDir, 'backups')

export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`
	const units = ['KB', 'MB', 'GB', 'TB']
	let value = bytes / 1024
	let unit = 0
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024
		unit++
	}
	return `${value.toLocaleString('pt-BR', { maximumFractionDigits: value < 10 ? 2 : 1 })} ${units[unit]}`
}

function nameFor(kind: BackupKind, at: Date): string {
	return `backup-${kind}-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`
}

function parseName(filename: string): { kind: BackupKind; created: string } | null {
	const m = BACKUP_NAME.exec(filename)
	if (!m) return null
	return { kind: m[1] as BackupKind, created: `${m[2]}-${m[3]}-${m[4]}T${m[5]}:${m[6]}:${m[7]}.${m[8]}Z` }
}

/** The path of a backup file, only when the name is a backup name and the path stays in the folder. */
export function backupPath(config: Pick<AppConfig, 'dataDir'>, filename: string): string {
	const dir = resolve(backupDir(config))
	const full = resolve(dir, filename)
	if (!parseName(filename) || dirname(full) !== dir || !full.startsWith(dir + sep)) {
		throw badRequest('Nome de arquivo de backup inválido.')
	}
	return full
}

function ensureDir(path: string, mode = 0o700) {
	if (!existsSync(path)) mkdirSync(path, { recursive: true, mode })
}

function filesUnder(dir: string): string[] {
	if (!existsSync(dir)) return []
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = join(dir, entry.name)
		if (entry.isDirectory()) return filesUnder(full)
		return entry.isFile() ? [full] : []
	})
}

/** `PRAGMA integrity_check` on a database file: 'ok' or the first problems found. */
export const integrityCheck = integrityOf

/**
 * Builds the archive. For a database on disk this runs in a worker on its own read-only connection, so
 * the portal keeps serving meanwhile (VACUUM INTO is a read transaction: writers are not blocked); an
 * in-memory database (tests) is copied on its own connection first. Returns the copy's integrity_check.
 */
async function runArchiveJob(db: Db, job: Omit<ArchiveJob, 'source'>): Promise<string> {
	const source = db.$client.filename
	let reply: ArchiveReply
	if (!source || source === ':memory:') {
		db.$client.prepare('VACUUM INTO ?').run(job.copy)
		reply = await buildArchive({ ...job, source: null })
	} else {
		const worker = new Worker(new URL('./backup-worker.ts', import.meta.url).href)
		try {
			reply = await new Promise<ArchiveReply>((resolve, reject) => {
				worker.onmessage = (event: MessageEvent<ArchiveReply>) => resolve(event.data)
				worker.onerror = (event) => reject(new Error(event.message))
				worker.postMessage({ ...job, source } satisfies ArchiveJob)
			})
		} finally {
			worker.terminate()
		}
	}
	if (!reply.ok) throw new Error(`Falha ao gerar o backup: ${reply.message}`)
	return reply.integrity
}

/** The tools a PostgreSQL database's backups need, checked against its server's version. */
async function postgresToolsOf(db: Db): Promise<PgTools> {
	const [row] = await sqlRows<{ v: string }>(db, sql`select current_setting('server_version_num') as v`)
	return findPgTools(Number(row.v))
}

/** Whether backups can be made here, and why not (on PostgreSQL, pg_dump/pg_restore missing or too old). */
export async function backupAvailability(db: Db): Promise<{ disponivel: boolean; motivo: string | null }> {
	if (!onPostgres(db)) return { disponivel: true, motivo: null }
	const tools = await postgresToolsOf(db)
	return tools.disponivel ? { disponivel: true, motivo: null } : { disponivel: false, motivo: tools.motivo }
}

/** pg_dump of the database into `work`, checked to be readable by pg_restore, then archived with the uploads and the manifest. */
async function writePostgresArchive(
	db: Db,
	work: string,
	archive: string,
	uploads: Record<string, string>,
	manifest: Record<string, unknown>
) {
	const tools = await postgresToolsOf(db)
	if (!tools.disponivel) throw new AppError(503, tools.motivo, 'BACKUP_UNAVAILABLE')
	const dump = join(work, PG_DUMP_ENTRY)
	await dumpDatabase(tools, pgEnvOfDb(db), dump)
	await checkDumpReadable(tools, dump)
	const entries: Record<string, Uint8Array | string> = { [PG_DUMP_ENTRY]: await Bun.file(dump).bytes() }
	for (const [name, path] of Object.entries(uploads)) entries[name] = await Bun.file(path).bytes()
	entries[MANIFEST_ENTRY] = JSON.stringify(manifest, null, 2)
	await Bun.Archive.write(archive, entries, { compress: 'gzip' })
}

/** One backup at a time per data folder. */
const running = new Map<string, Promise<unknown>>()

export async function createBackup(
	ctx: { db: Db; clock: Clock; config: Pick<AppConfig, 'dataDir'> },
	kind: BackupKind,
	version = 'unknown'
): Promise<BackupInfo> {
	const key = resolve(ctx.config.dataDir)
	const previous = running.get(key) ?? Promise.resolve()
	const work = previous.catch(() => {}).then(() => writeBackup(ctx, kind, version))
	running.set(key, work)
	try {
		return await work
	} finally {
		if (running.get(key) === work) running.delete(key)
	}
}

async function writeBackup(
	ctx: { db: Db; clock: Clock; config: Pick<AppConfig, 'dataDir'> },
	kind: BackupKind,
	version: string
): Promise<BackupInfo> {
	const dir = backupDir(ctx.config)
	ensureDir(dir)
	ensureDir(uploadsDir(ctx.config), 0o755)
	const at = ctx.clock.now()
	const filename = nameFor(kind, at)
	const target = join(dir, filename)
	if (existsSync(target)) throw conflict('Já existe um backup com este horário. Tente novamente em instantes.')

	const work = mkdtempSync(join(dir, '.tmp-'))
	try {
		const uploads = uploadsDir(ctx.config)
		const uploadFiles = filesUnder(uploads)
		const partial = join(work, `${filename}.partial`)
		const uploadEntries = Object.fromEntries(
			uploadFiles.map((file) => [UPLOADS_ENTRY + relative(uploads, file).split(sep).join('/'), file])
		)
		const manifest = { app: 'k-licencas', version, kind, created: at.toISOString(), uploads: uploadFiles.length }
		if (onPostgres(ctx.db)) {
			await writePostgresArchive(ctx.db, work, partial, uploadEntries, { ...manifest, database: POSTGRES_MANIFEST_DATABASE })
		} else {
			const integrity = await runArchiveJob(ctx.db, {
				copy: join(work, DB_ENTRY),
				archive: partial,
				uploads: uploadEntries,
				manifest: { ...manifest, database: DB_ENTRY }
			})
			if (integrity !== 'ok') throw new Error(`Cópia do banco falhou na verificação de integridade: ${integrity}`)
		}
		chmodSync(partial, 0o600)
		renameSync(partial, target)
	} finally {
		rmSync(work, { recursive: true, force: true })
	}
	if (kind === 'automatico') pruneAutomaticBackups(ctx.config, Number(await getSetting(ctx.db, 'app.backups_manter')))
	return backupInfoOf(ctx.config, filename)!
}

function backupInfoOf(config: Pick<AppConfig, 'dataDir'>, filename: string): BackupInfo | null {
	const parsed = parseName(filename)
	if (!parsed) return null
	const size = statSync(join(backupDir(config), filename)).size
	return {
		filename,
		size,
		sizeFormatted: formatBytes(size),
		created: parsed.created,
		type: parsed.kind === 'automatico' ? 'automático' : 'manual'
	}
}

/** Every backup, newest first. */
export function listBackups(config: Pick<AppConfig, 'dataDir'>): BackupInfo[] {
	const dir = backupDir(config)
	if (!existsSync(dir)) return []
	return readdirSync(dir)
		.flatMap((name) => {
			try {
				const info = backupInfoOf(config, name)
				return info ? [info] : []
			} catch {
				return []
			}
		})
		.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0))
}

export async function backupStats(ctx: { db: Db; config: Pick<AppConfig, 'dataDir'> }) {
	const all = listBackups(ctx.config)
	const totalSize = all.reduce((sum, b) => sum + b.size, 0)
	return {
		totalBackups: all.length,
		totalSize,
		totalSizeFormatted: formatBytes(totalSize),
		lastBackup: all[0]?.created ?? null,
		...(await backupAvailability(ctx.db))
	}
}

export function deleteBackup(config: Pick<AppConfig, 'dataDir'>, filename: string) {
	const path = backupPath(config, filename)
	if (!existsSync(path)) throw notFound('Backup não encontrado.')
	unlinkSync(path)
}

/** Keeps the newest `keep` automatic backups; manual ones are never removed automatically. */
export function pruneAutomaticBackups(config: Pick<AppConfig, 'dataDir'>, keep: number): string[] {
	const automatic = listBackups(config).filter((b) => b.type === 'automático')
	const removed = automatic.slice(Math.max(1, keep)).map((b) => b.filename)
	for (const name of removed) unlinkSync(join(backupDir(config), name))
	return removed
}

/**
 * The cron's check: when automatic backups are on and the newest automatic one is at least
 * `app.intervalo_backup` hours old (or there is none), take one. Returns it, or null.
 */
export async function runAutomaticBackup(
	ctx: { db: Db; clock: Clock; config: Pick<AppConfig, 'dataDir'> },
	version?: string
): Promise<BackupInfo | null> {
	if ((await getSetting(ctx.db, 'app.backup_automatico')) !== 'true') return null
	const intervalMs = Number(await getSetting(ctx.db, 'app.intervalo_backup')) * HOUR
	const last = listBackups(ctx.config).find((b) => b.type === 'automático')
	// A minute of slack so a cron tick that lands a little early still counts.
	if (last && ctx.clock.now().getTime() - Date.parse(last.created) < intervalMs - 60_000) return null
	return createBackup(ctx, 'automatico', version)
}
