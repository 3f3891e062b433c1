import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
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
	const { db, clock } = ctx
	return (
		new Elysia({ name: 'system.routes' })
			.use(authGuard(ctx))
			.route(
				healthRoute.method,
				healthRoute.path,
				() => {
					if (!databaseAnswers(db)) throw new AppError(503, 'Banco de dados indisponível.', 'DATABASE_UNAVAILABLE')
					return { status: 'ok' as const, time: clock.now().toISOString() }
				},
				{ ...routeHooks(healthRoute), publicRoute: true }
			)
			.route(listSettingsRoute.method, listSettingsRoute.path, ({ user }) => listSettings(db, user.tipo), {
				...routeHooks(listSettingsRoute),
				can: 'session'
			})
			.route(
				saveSettingsRoute.method,
				saveSettingsRoute.path,
				({ body, user }) => {
					const saved = saveSettingsAs(db, clock, ctx.secrets, user, body.configuracoes)
					// Not awaited: a slow gateway must not hold the save (its outcome shows on the bot monitor).
					void hooks.onSettingsSaved?.(saved)
					return { message: 'Configurações salvas.', saved, configuracoes: listSettings(db, user.tipo) }
				},
				{ ...routeHooks(saveSettingsRoute), can: 'settings.manage' }
			)
			.route(
				saveSettingRoute.method,
				saveSettingRoute.path,
				({ body, user }) => {
					void hooks.onSettingsSaved?.(saveSettingsAs(db, clock, ctx.secrets, user, [body]))
					return { message: 'Configuração salva.', configuracao: settingView(db, user.tipo, body.chave) }
				},
				{ ...routeHooks(saveSettingRoute), can: 'settings.manage' }
			)
			.route(autoLogoutConfigRoute.method, autoLogoutConfigRoute.path, () => getAutoLogoutConfig(db), {
				...routeHooks(autoLogoutConfigRoute),
				publicRoute: true
			})
			.route(
				saveAutoLogoutRoute.method,
				saveAutoLogoutRoute.path,
				({ body, user }) => ({ message: 'Configurações atualizadas.', ...saveAutoLogout(db, clock, ctx.secrets, user, body) }),
				{ ...routeHooks(saveAutoLogoutRoute), can: 'settings.manage' }
			)
			// Sistema tab: information for administradores and gerentes; backups and cache for administradores.
			.route(systemInfoRoute.method, systemInfoRoute.path, () => systemInfo(db), { ...routeHooks(systemInfoRoute), can: 'system.info' })
			.route(backupStatsRoute.method, backupStatsRoute.path, () => backupStats(ctx.config), {
				...routeHooks(backupStatsRoute),
				can: 'system.manage'
			})
			.route(listBackupsRoute.method, listBackupsRoute.path, () => ({ backups: listBackups(ctx.config) }), {
				...routeHooks(listBackupsRoute),
				can: 'system.manage'
			})
			.route(
				createBackupRoute.method,
				createBackupRoute.path,
				async ({ user }) => {
					const backup = await createManualBackup(ctx, user)
					return { message: 'Backup criado.', filename: backup.filename, backup }
				},
				{ ...routeHooks(createBackupRoute), can: 'system.manage' }
			)
			.route(
				deleteBackupRoute.method,
				deleteBackupRoute.path,
				({ params, user }) => {
					removeBackup(ctx, user, params.filename)
					return { message: 'Backup deletado.' }
				},
				{ ...routeHooks(deleteBackupRoute), can: 'system.manage' }
			)
			.route(
				downloadBackupRoute.method,
				downloadBackupRoute.path,
				async ({ params, user }) =>
					new Response(await backupFile(ctx, user, params.filename), {
						headers: {
							'content-type': 'application/gzip',
							'content-disposition': `attachment; filename="${params.filename}"`,
							'cache-control': 'no-store',
							'x-content-type-options': 'nosniff'
						}
					}),
				{ ...routeHooks(downloadBackupRoute), can: 'system.manage' }
			)
			.route(
				clearCacheRoute.method,
				clearCacheRoute.path,
				({ user }) => {
					const removedSessions = clearCache(db, clock, user)
					return {
						message: `Cache limpo: ${removedSessions} ${removedSessions === 1 ? 'sessão expirada removida' : 'sessões expiradas removidas'} e estatísticas do banco otimizadas.`,
						removedSessions
					}
				},
				{ ...routeHooks(clearCacheRoute), can: 'system.manage' }
			)
	)
}
