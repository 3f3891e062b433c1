import { serve, serveRoutes } from '../auth'
import { type AppContext, AppError } from '../core/server'
import { getAutoLogoutConfig, listSettings } from '../settings'
import { backupStats, listBackups } from './backup'
import { systemInfo } from './info'
import {
	autoLogoutConfigRoute,
	backupStatsRoute,
	clearCacheRoute,
	createBackupRoute,
	deleteBackupRoute,
	downloadBackupRoute,
	healthRoute,
	listBackupsRoute,
	listSettingsRoute,
	saveAutoLogoutRoute,
	saveSettingRoute,
	saveSettingsRoute,
	systemInfoRoute
} from './model'
import {
	backupFile,
	clearCache,
	createManualBackup,
	databaseAnswers,
	removeBackup,
	saveAutoLogout,
	saveSettingsAs,
	settingView
} from './service'

/** `onSettingsSaved`: told the keys saved, after the answer is decided (the composition root wires other modules in). */
export function systemRoutes(ctx: AppContext, hooks: { onSettingsSaved?: (keys: string[]) => Promise<unknown> } = {}) {
	return serveRoutes(ctx, 'system.routes', ({ db, clock }) => [
		serve(healthRoute, 'public', async () => {
			if (!(await databaseAnswers(db))) throw new AppError(503, 'Banco de dados indisponível.', 'DATABASE_UNAVAILABLE')
			return { status: 'ok' as const, time: clock.now().toISOString() }
		}),
		serve(listSettingsRoute, 'session', ({ user }) => listSettings(db, user.tipo)),
		serve(saveSettingsRoute, 'settings.manage', async ({ body, user }) => {
			const saved = await saveSettingsAs(db, clock, ctx.secrets, user, body.configuracoes)
			// Not awaited: a slow gateway must not hold the save (its outcome shows on the bot monitor).
			void hooks.onSettingsSaved?.(saved)
			return { message: 'Configurações salvas.', saved, configuracoes: await listSettings(db, user.tipo) }
		}),
		serve(saveSettingRoute, 'settings.manage', async ({ body, user }) => {
			void hooks.onSettingsSaved?.(await saveSettingsAs(db, clock, ctx.secrets, user, [body]))
			return { message: 'Configuração salva.', configuracao: await settingView(db, user.tipo, body.chave) }
		}),
		serve(autoLogoutConfigRoute, 'public', () => getAutoLogoutConfig(db)),
		serve(saveAutoLogoutRoute, 'settings.manage', async ({ body, user }) => ({
			message: 'Configurações atualizadas.',
			...(await saveAutoLogout(db, clock, ctx.secrets, user, body))
		})),
		// Sistema tab: information for administradores and gerentes; backups and cache for administradores.
		serve(systemInfoRoute, 'system.info', () => systemInfo(db)),
		serve(backupStatsRoute, 'system.manage', () => backupStats(ctx)),
		serve(listBackupsRoute, 'system.manage', () => ({ backups: listBackups(ctx.config) })),
		serve(createBackupRoute, 'system.manage', async ({ user }) => {
			const backup = await createManualBackup(ctx, user)
			return { message: 'Backup criado.', filename: backup.filename, backup }
		}),
		serve(deleteBackupRoute, 'system.manage', ({ params, user }) => removeBackup(ctx, user, params.filename)),
		serve(
			downloadBackupRoute,
			'system.manage',
			async ({ params, user }) =>
				new Response(await backupFile(ctx, user, params.filename), {
					headers: {
						'content-type': 'application/gzip',
						'content-disposition': `attachment; filename="${params.filename}"`,
						'cache-control': 'no-store',
						'x-content-type-options': 'nosniff'
					}
				})
		),
		serve(clearCacheRoute, 'system.manage', async ({ user }) => {
			const removedSessions = await clearCache(db, clock, user)
			return {
				message: `Cache limpo: ${removedSessions} ${removedSessions === 1 ? 'sessão expirada removida' : 'sessões expiradas removidas'} e estatísticas do banco otimizadas.`,
				removedSessions
			}
		})
	])
}
