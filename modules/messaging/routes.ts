import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import type { AppContext } from '../core'
import { MarkReadBody } from './model'
import { listNotifications, markNotificationsRead } from './service'

export function messagingRoutes(ctx: AppContext) {
	return new Elysia({ name: 'messaging.routes', prefix: '/api' })
		.use(authGuard(ctx))
		.get('/notifications', ({ user }) => listNotifications(ctx.db, user.id), { roles: 'any' })
		.post(
			'/notifications/mark-read',
			({ body, user }) => {
				const updated = markNotificationsRead(ctx.db, user.id, body.notificationIds)
				return { message: 'Notificações marcadas como lidas.', updated }
			},
			{ roles: 'any', body: MarkReadBody }
		)
}
