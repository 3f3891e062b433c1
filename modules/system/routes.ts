import { Elysia } from 'elysia'
import { sql } from 'drizzle-orm'
import { logActivity } from '../activity'
import { authGuard, deleteExpiredSessions } from '../auth'
import { type AppContext, notFound } from '../core/server'
import { AutoLogoutConfig, BulkSettingsBody, SettingEntry, getAutoLogoutConfig, listSettings, saveSettings } from '../settings'
import { z } from '../core'
import { backupPath, backupStats, createBackup, deleteBackup, listBackups } from './backup'
import { systemInfo, VERSION } from './info'

const FilenameParams = z.object({ filename: z.string().max(200) })

export function systemRoutes(ctx: AppContext) {
	return new Elysia({ name: 'system.routes', prefix: '/api' })
		.use(authGuard(ctx))
		.get(
			'/health',
			({ status }) => {
				try {
					ctx.db.all(sql`select 1`)
					return { status: 'ok', time: ctx.clock.now().toISOString() }
				} catch {
					return status(503, { status: 'error', message: 'Banco de dados indisponível.' })
				}
			},
			{ publicRoute: true }
		)
		.get('/configuracoes', ({ user }) => listSettings(ctx.db, user.tipo), { roles: 'any' })
		.post(
			'/configuracoes/bulk',
			({ body, user }) => {
				const saved = ctx.db.transaction(
					(tx) => {
						const keys = saveSettings(tx, ctx.clock, body.configuracoes)
						logActivity(tx, ctx.clock, {
							type: 'info',
							icon: 'AlertTriangle',
							title: 'Configurações do sistema atualizadas',
							subtitle: `${keys.length} ${keys.length === 1 ? 'configuração' : 'configurações'}`,
							actor: user,
							entity: 'configuracao',
							entityId: 'bulk'
						})
						return keys
					},
					{ behavior: 'immediate' }
				)
				return { message: 'Configurações salvas.', saved, configuracoes: listSettings(ctx.db, user.tipo) }
			},
			{ roles: ['administrador'], body: BulkSettingsBody }
		)
		.post(
			'/configuracoes',
			({ body, user }) => {
				ctx.db.transaction(
					(tx) => {
						saveSettings(tx, ctx.clock, [body])
						logActivity(tx, ctx.clock, {
							type: 'info',
							icon: 'AlertTriangle',
							title: 'Configuração atualizada',
							subtitle: body.chave,
							actor: user,
							entity: 'configuracao',
							entityId: body.chave
						})
					},
					{ behavior: 'immediate' }
				)
				const entry = listSettings(ctx.db, user.tipo).find((s) => s.chave === body.chave)
				return { message: 'Configuração salva.', configuracao: entry }
			},
			{ roles: ['administrador'], body: SettingEntry }
		)
		.get('/public/auto-logout-config', () => getAutoLogoutConfig(ctx.db), { publicRoute: true })
		.post(
			'/configuracoes/auto-logout',
			({ body, user }) => {
				ctx.db.transaction(
					(tx) => {
						saveSettings(tx, ctx.clock, [
							{ chave: 'seguranca.auto_logout_ativo', valor: String(body.enabled) },
							{ chave: 'seguranca.auto_logout_minutos', valor: String(body.timeoutMinutes) }
						])
						logActivity(tx, ctx.clock, {
							type: 'info',
							icon: 'AlertTriangle',
							title: 'Logout automático atualizado',
							subtitle: body.enabled ? `${body.timeoutMinutes} minutos de inatividade` : 'Desativado',
							actor: user,
							entity: 'configuracao',
							entityId: 'seguranca.auto_logout'
						})
					},
					{ behavior: 'immediate' }
				)
				return { message: 'Configurações atualizadas.', ...getAutoLogoutConfig(ctx.db) }
			},
			{ roles: ['administrador'], body: AutoLogoutConfig }
		)
		// Sistema tab: information for administradores and gerentes; backups and cache for administradores.
		.get('/system/info', () => systemInfo(ctx.db), { roles: ['administrador', 'gerente'] })
		.get('/system/backup/stats', () => backupStats(ctx.config), { roles: ['administrador'] })
		.get('/system/backup/list', () => ({ backups: listBackups(ctx.config) }), { roles: ['administrador'] })
		.post(
			'/system/backup/manual',
			async ({ user }) => {
				const backup = await createBackup(ctx, 'manual', VERSION)
				logActivity(ctx.db, ctx.clock, { type: 'success', icon: 'AlertTriangle', title: 'Backup criado', subtitle: backup.filename, actor: user, entity: 'backup', entityId: backup.filename })
				ctx.log('backup.created', { filename: backup.filename, kind: 'manual', size: backup.size })
				return { message: 'Backup criado.', filename: backup.filename, backup }
			},
			{ roles: ['administrador'] }
		)
		.delete(
			'/system/backup/:filename',
			({ params, user }) => {
				deleteBackup(ctx.config, params.filename)
				logActivity(ctx.db, ctx.clock, { type: 'warning', icon: 'AlertTriangle', title: 'Backup deletado', subtitle: params.filename, actor: user, entity: 'backup', entityId: params.filename })
				return { message: 'Backup deletado.' }
			},
			{ roles: ['administrador'], params: FilenameParams }
		)
		.get(
			'/system/backup/download/:filename',
			async ({ params, user }) => {
				const path = backupPath(ctx.config, params.filename)
				const file = Bun.file(path)
				if (!(await file.exists())) throw notFound('Backup não encontrado.')
				ctx.log('backup.downloaded', { filename: params.filename, userId: user.id })
				return new Response(file, {
					headers: {
						'content-type': 'application/gzip',
						'content-disposition': `attachment; filename="${params.filename}"`,
						'cache-control': 'no-store',
						'x-content-type-options': 'nosniff'
					}
				})
			},
			{ roles: ['administrador'], params: FilenameParams }
		)
		.post(
			'/system/clear-cache',
			({ user }) => {
				// The portal keeps no data cache: this drops expired sessions and refreshes the query planner's statistics.
				const removedSessions = ctx.db.transaction(
					(tx) => {
						const removed = deleteExpiredSessions(tx, ctx.clock)
						logActivity(tx, ctx.clock, {
							type: 'info',
							icon: 'AlertTriangle',
							title: 'Cache limpo',
							subtitle: `${removed} ${removed === 1 ? 'sessão expirada removida' : 'sessões expiradas removidas'}`,
							actor: user,
							entity: 'sistema',
							entityId: 'cache'
						})
						return removed
					},
					{ behavior: 'immediate' }
				)
				ctx.db.$client.exec('PRAGMA optimize')
				return {
					message: `Cache limpo: ${removedSessions} ${removedSessions === 1 ? 'sessão expirada removida' : 'sessões expiradas removidas'} e estatísticas do banco otimizadas.`,
					removedSessions
				}
			},
			{ roles: ['administrador'] }
		)
}
