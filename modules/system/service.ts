import { onPostgres } from '../../db/dialect'
import { migrationLevels } from '../../db/migrate'
import { sqlRows, sqlRun } from '../../db/query'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { logActivity } from '../activity'
import { type SessionUser, deleteExpiredSessions } from '../auth'
import type { Clock, Role } from '../core'
import { type AppContext, type SecretBox, notFound, writeTransaction } from '../core/server'
import { type AutoLogoutConfig, type SettingEntry, getAutoLogoutConfig, listSettings, saveSettings } from '../settings'
import { backupPath, createBackup, deleteBackup, runAutomaticBackup } from './backup'
import { VERSION } from './info'
import type { BackupInfo } from './model'

type Actor = Pick<SessionUser, 'id' | 'nome' | 'cnpj' | 'tipo'>

/** The health check: the database answers a trivial query. */
export async function databaseAnswers(db: Db): Promise<boolean> {
	try {
		await sqlRows(db, sql`select 1`)
		return true
	} catch {
		return false
	}
}

/**
 * Whether this instance may take traffic (GET /api/ready): its database answers at this code's migration level, and
 * it is not shutting down. The reason when not, in words an operator acts on.
 */
export async function readiness(db: Db, draining: boolean): Promise<{ ready: true; level: number } | { ready: false; reason: string }> {
	if (draining) return { ready: false, reason: 'Instância em encerramento: não envie novas requisições.' }
	let levels: Awaited<ReturnType<typeof migrationLevels>>
	try {
		levels = await migrationLevels(db)
	} catch {
		return { ready: false, reason: 'Banco de dados indisponível ou sem as migrações do portal.' }
	}
	if (levels.applied === null || levels.applied < levels.expected) {
		return { ready: false, reason: 'O banco ainda não tem as migrações desta versão do portal (outra instância pode estar migrando).' }
	}
	if (levels.applied > levels.expected) {
		return { ready: false, reason: 'O banco é de uma versão mais nova do portal: atualize esta instância.' }
	}
	return { ready: true, level: levels.expected }
}

/** Saves settings from the Configurações screen in one transaction, with one activity line; answers the keys saved. */
export function saveSettingsAs(db: Db, clock: Clock, secrets: SecretBox, actor: Actor, entries: SettingEntry[]): Promise<string[]> {
	return writeTransaction(db, async (tx) => {
		const keys = await saveSettings(tx, clock, secrets, entries)
		const one = entries.length === 1
		if (one) await logActivity(tx, clock, 'settings.updated', { chave: entries[0].chave }, { actor, entityId: entries[0].chave })
		else await logActivity(tx, clock, 'settings.bulk-updated', { quantidade: keys.length }, { actor, entityId: 'bulk' })
		return keys
	})
}

export async function settingView(db: Db, role: Role, chave: string) {
	return (await listSettings(db, role)).find((s) => s.chave === chave)
}

export async function saveAutoLogout(
	db: Db,
	clock: Clock,
	secrets: SecretBox,
	actor: Actor,
	config: AutoLogoutConfig
): Promise<AutoLogoutConfig> {
	await writeTransaction(db, async (tx) => {
		await saveSettings(tx, clock, secrets, [
			{ chave: 'seguranca.auto_logout_ativo', valor: String(config.enabled) },
			{ chave: 'seguranca.auto_logout_minutos', valor: String(config.timeoutMinutes) }
		])
		await logActivity(
			tx,
			clock,
			'settings.auto-logout-updated',
			{ minutos: config.enabled ? config.timeoutMinutes : null },
			{ actor, entityId: 'seguranca.auto_logout' }
		)
	})
	return getAutoLogoutConfig(db)
}

export async function createManualBackup(ctx: AppContext, actor: Actor): Promise<BackupInfo> {
	const backup = await createBackup(ctx, 'manual', VERSION)
	await logActivity(ctx.db, ctx.clock, 'system.backup-created', { arquivo: backup.filename }, { actor, entityId: backup.filename })
	ctx.log('backup.created', { filename: backup.filename, kind: 'manual', size: backup.size })
	return backup
}

/** Every 10 minutes (systemJobs): an automatic backup when one is due (app.backup_automatico, app.intervalo_backup). */
export async function automaticBackup(ctx: AppContext): Promise<BackupInfo | null> {
	try {
		const backup = await runAutomaticBackup(ctx, VERSION)
		if (!backup) return null
		// In a transaction: the job's lease is proved there (a write outside one would be refused).
		await writeTransaction(ctx.db, (tx) =>
			logActivity(tx, ctx.clock, 'system.backup-automatic', { arquivo: backup.filename }, { entityId: backup.filename })
		)
		ctx.log('backup.created', { filename: backup.filename, kind: 'automatico', size: backup.size })
		return backup
	} catch (error) {
		ctx.log('backup.failed', { message: String((error as Error)?.message ?? error) })
		return null
	}
}

export async function removeBackup(ctx: AppContext, actor: Actor, filename: string) {
	deleteBackup(ctx.config, filename)
	await logActivity(ctx.db, ctx.clock, 'system.backup-deleted', { arquivo: filename }, { actor, entityId: filename })
}

/** A backup file to download, checked to exist; the download is logged. */
export async function backupFile(ctx: AppContext, actor: Actor, filename: string) {
	const file = Bun.file(backupPath(ctx.config, filename))
	if (!(await file.exists())) throw notFound('Backup não encontrado.')
	ctx.log('backup.downloaded', { filename, userId: actor.id })
	return file
}

/** 'Limpar Cache': the portal keeps no data cache, so this drops expired sessions and refreshes the planner's statistics. */
export async function clearCache(db: Db, clock: Clock, actor: Actor): Promise<number> {
	const removed = await writeTransaction(db, async (tx) => {
		const count = await deleteExpiredSessions(tx, clock)
		await logActivity(tx, clock, 'system.cache-cleared', { sessoes: count }, { actor, entityId: 'cache' })
		return count
	})
	await sqlRun(db, onPostgres(db) ? sql`analyze` : sql`pragma optimize`)
	return removed
}
