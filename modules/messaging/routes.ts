import { Elysia } from 'elysia'
import type { Tx } from '../../db/client'
import { authGuard } from '../auth'
import { IdParams } from '../core'
import { type AppContext } from '../core/server'
import { GeneralNoticeBody, IndividualNoticeBody, MarkReadBody, NoticeQuery } from './model'
import {
	createGeneralNotice,
	createIndividualNotice,
	deleteGeneralNotice,
	deleteIndividualNotice,
	listGeneralNotices,
	listIndividualNotices,
	noticeRecipients,
	updateGeneralNotice,
	updateIndividualNotice
} from './notices'
import { listNotifications, markNotificationsRead } from './service'

const STAFF = ['administrador', 'gerente', 'representante'] as const

export function messagingRoutes(ctx: AppContext) {
	const tx = <T>(work: (db: Tx) => T): T => ctx.db.transaction(work, { behavior: 'immediate' })
	return new Elysia({ name: 'messaging.routes', prefix: '/api' })
		.use(authGuard(ctx))
		.get('/notifications', ({ user }) => listNotifications(ctx.db, user), { roles: 'any' })
		.post(
			'/notifications/mark-read',
			({ body, user }) => {
				const updated = tx((db) => markNotificationsRead(db, ctx.clock, user, body.notificationIds))
				return { message: 'Notificações marcadas como lidas.', updated }
			},
			{ roles: 'any', body: MarkReadBody }
		)
		// Avisos gerais: everyone reads, administradores write.
		.get('/notices/general', ({ user, query }) => listGeneralNotices(ctx.db, user, query.search), { roles: STAFF, query: NoticeQuery })
		.post('/notices/general', ({ user, body }) => tx((db) => createGeneralNotice(db, ctx.clock, user, body)), {
			roles: ['administrador'],
			body: GeneralNoticeBody
		})
		.put('/notices/general/:id', ({ user, body, params }) => tx((db) => updateGeneralNotice(db, ctx.clock, user, params.id, body)), {
			roles: ['administrador'],
			params: IdParams,
			body: GeneralNoticeBody
		})
		.delete(
			'/notices/general/:id',
			({ user, params }) => {
				tx((db) => deleteGeneralNotice(db, ctx.clock, user, params.id))
				return { message: 'Aviso geral excluído.' }
			},
			{ roles: ['administrador'], params: IdParams }
		)
		// Avisos individuais: scoped by representative (see notices.ts).
		.get('/notices/individual', ({ user, query }) => listIndividualNotices(ctx.db, user, query.search), { roles: STAFF, query: NoticeQuery })
		.get('/notices/recipients', ({ user }) => noticeRecipients(ctx.db, user), { roles: STAFF })
		.post('/notices/individual', ({ user, body }) => tx((db) => createIndividualNotice(db, ctx.clock, user, body)), {
			roles: STAFF,
			body: IndividualNoticeBody
		})
		.put('/notices/individual/:id', ({ user, body, params }) => tx((db) => updateIndividualNotice(db, ctx.clock, user, params.id, body)), {
			roles: STAFF,
			params: IdParams,
			body: IndividualNoticeBody
		})
		.delete(
			'/notices/individual/:id',
			({ user, params }) => {
				tx((db) => deleteIndividualNotice(db, ctx.clock, user, params.id))
				return { message: 'Aviso individual excluído.' }
			},
			{ roles: STAFF, params: IdParams }
		)
}
