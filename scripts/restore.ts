/**
 * Puts a backup back: `bun run restore <file>` (a path, or a file name in DATA_DIR/backups).
 * Stop the portal first (every process of it, on PostgreSQL). The current database is kept as
 * portal.sqlite.replaced-<timestamp> (SQLite) or as a dump, DATA_DIR/portal.pgdump.replaced-<timestamp> (PostgreSQL).
 * Uses DATA_DIR and DATABASE_URL like the server (default ./data, SQLite). RESTORE_MAX_MB caps the uncompressed
 * archive (default 1024).
 */
import { resolve } from 'node:path'
import { DATABASE_URL } from '../db/dialect'
import { DEFAULT_MAX_RESTORE_BYTES, RestoreError, resolveArchive, restoreBackup } from '../modules/system'

// What this command writes is for the portal's user only, as the server's own files are.
process.umask(0o077)
const file = process.argv[2]
const maxMb = Number(process.env.RESTORE_MAX_MB)
const maxBytes = Number.isFinite(maxMb) && maxMb > 0 ? maxMb * 1024 * 1024 : DEFAULT_MAX_RESTORE_BYTES
const dataDir = resolve(process.env.DATA_DIR ?? './data')
if (!file || file === '--help' || file === '-h') {
	console.log('Uso: bun run restore <arquivo-de-backup.tar.gz>   (DATA_DIR define a pasta de dados; pare o servidor antes)')
	process.exit(file ? 0 : 2)
}

try {
	const archive = resolveArchive(dataDir, file)
	const result = await restoreBackup({ archive, dataDir, databaseUrl: DATABASE_URL, maxBytes })
	console.log(`Backup restaurado: ${archive}`)
	const checks = DATABASE_URL ? 'pg_restore' : 'PRAGMA integrity_check = ok'
	console.log(`  banco restaurado: ${result.restoredDb} (${checks}, tabelas e migrações do portal, administrador ativo)`)
	if (result.replacedDb) console.log(`  banco anterior guardado em: ${result.replacedDb}`)
	if (result.replacedUploads) console.log(`  arquivos enviados anteriores guardados em: ${result.replacedUploads}`)
	console.log(`  arquivos enviados restaurados: ${result.restoredUploads}`)
	if (result.manifest) console.log(`  backup de ${String(result.manifest.created)} (versão ${String(result.manifest.version)})`)
} catch (error) {
	console.error(error instanceof RestoreError ? `Restauração recusada: ${error.message}` : error)
	process.exit(1)
}
