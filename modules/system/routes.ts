import { createHash, timingSafeEqual } from 'node:crypto'
import { GUARD_MESSAGES, serve, serveRoutes, sessionCookieName, validateSession } from '../auth'
import { can } from '../core'
import { type AppContext, AppError, type Gauge, forbidden, unauthorized } from '../core/server'
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
	metricsRoute,
	readyRoute,
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
	readiness,
	removeBackup,
	saveAutoLogout,
	saveSettingsAs,
	settingView
} from './service'

/** Whether the Authorization header carries the metrics token, compared in constant time (as digests of equal length). */
function hasMetricsToken(request: Request, token: string | null): boolean {
	const given = request.headers.get('authorization')?.match(/^Bearer (.+)$/)?.[1]
	if (!token || !given) return false
	const digest = (text: string) => createHash('sha256').update(text).digest()
	return timingSafeEqual(digest(given), digest(token))
}

export interface SystemHooks {
	/** Told the keys saved, after the answer is decided (the composition root wires other modules in). */
	onSettingsSaved?: (keys: string[]) => Promise<unknown>
	/** What /metrics reads from the database at each scrape (the composition root lists them). */
	gauges?: Gauge[]
	/** True once the instance is shutting down: it answers, but is no longer ready for new traffic. */
	draining?: () => boolean
}

export function systemRoutes(ctx: AppContext, hooks: SystemHooks = {}) {
	const cookieName = sessionCookieName(ctx.config)
	return serveRoutes(ctx, 'system.routes', ({ db, clock }) => [
		// Liveness: the process answers and reaches its database.
		serve(healthRoute, 'public', async () => {
			if (!(await databaseAnswers(db))) throw new AppError(503, 'Banco de dados indisponível.', 'DATABASE_UNAVAILABLE')
			return { status: 'ok' as const, time: clock.now().toISOString() }
		}),
		// Readiness: the balancer sends traffic here only while this is 200.
		serve(readyRoute, 'public', async () => {
			const state = await readiness(db, hooks.draining?.() ?? false)
			if (!state.ready) throw new AppError(503, state.reason, 'NOT_READY')
			return { status: 'pronto' as const, migracao: state.level }
		}),
		// A scraper with METRICS_TOKEN, or an administrador's session (checked here: the route is not the guard's).
		serve(metricsRoute, 'public', async ({ request, cookie }) => {
			if (!hasMetricsToken(request, ctx.config.metricsToken)) {
				const token = cookie[cookieName]?.value
				const found = await validateSession(db, clock, typeof token === 'string' ? token : null)
				if (!found) throw unauthorized('Informe o token de métricas (Authorization: Bearer) ou entre como administrador.')
				if (!can(found.user.tipo, 'system.manage')) throw forbidden(GUARD_MESSAGES.forbidden)
			}
			return new Response(await ctx.metrics.render(hooks.gauges), {
				headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' }
			})
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
