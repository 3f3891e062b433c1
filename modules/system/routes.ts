import { Elysia } from 'elysia'
import { sql } from 'drizzle-orm'
import { logActivity } from '../activity'
import { authGuard } from '../auth'
import type { AppContext } from '../core'
import { AutoLogoutConfig, getAutoLogoutConfig, listSettings, saveSettings } from '../settings'

export function systemRoutes(ctx: AppContext) {
	return new Elysia({ name: 'system.routes', prefix: '/api' })
		.use(authGuard(ctx))
		.get(
			'/health',
			({ status }) => {
				try {
					ctx.db.get(sql`select 1`)
					return { status: 'ok', time: ctx.clock.now().toISOString() }
				} catch {
					return status(503, { status: 'error', message: 'Banco de dados indisponível.' })
				}
			},
			{ publicRoute: true }
		)
		.get('/configuracoes', ({ user }) => listSettings(ctx.db, user.tipo), { roles: 'any' })
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
}
