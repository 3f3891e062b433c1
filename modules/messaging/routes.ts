import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import {
	createGeneralNoticeRoute,
	createIndividualNoticeRoute,
	deleteGeneralNoticeRoute,
	createNotificationSettingRoute,
	deleteIndividualNoticeRoute,
	listNotificationSettingsRoute,
	previewNotificationsRoute,
	runNotificationsRoute,
	sendLogRoute,
	updateNotificationSettingRoute,
	gatewayStatusRoute,
	listGeneralNoticesRoute,
	listIndividualNoticesRoute,
	listNotificationsRoute,
	markReadRoute,
	noticeRecipientsRoute,
	testSendRoute,
	updateGeneralNoticeRoute,
	updateIndividualNoticeRoute
} from './model'
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
import { gatewayStatus, sendTestMessage } from './gateway'
import {
	createNotificationSetting,
	listNotificationSettings,
	previewNotifications,
	runNotificationsNow,
	sendLog,
	updateNotificationSetting
} from './notifications'
import { listNotifications, markNotificationsRead } from './service'

export function messagingRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	return (
		new Elysia({ name: 'messaging.routes' })
			.use(authGuard(ctx))
			.route(listNotificationsRoute.method, listNotificationsRoute.path, ({ user }) => listNotifications(db, user), {
				...routeHooks(listNotificationsRoute),
				can: 'session'
			})
			.route(
				markReadRoute.method,
				markReadRoute.path,
				({ body, user }) => ({
					message: 'Notificações marcadas como lidas.',
					updated: markNotificationsRead(db, clock, user, body.notificationIds)
				}),
				{ ...routeHooks(markReadRoute), can: 'session' }
			)
			// Avisos gerais: everyone reads, administradores write.
			.route(
				listGeneralNoticesRoute.method,
				listGeneralNoticesRoute.path,
				({ user, query }) => listGeneralNotices(db, user, query.search),
				{
					...routeHooks(listGeneralNoticesRoute),
					can: 'notices.general.read'
				}
			)
			.route(
				createGeneralNoticeRoute.method,
				createGeneralNoticeRoute.path,
				({ user, body }) => createGeneralNotice(db, clock, user, body),
				{
					...routeHooks(createGeneralNoticeRoute),
					can: 'notices.general.manage'
				}
			)
			.route(
				updateGeneralNoticeRoute.method,
				updateGeneralNoticeRoute.path,
				({ user, body, params }) => updateGeneralNotice(db, clock, user, params.id, body),
				{ ...routeHooks(updateGeneralNoticeRoute), can: 'notices.general.manage' }
			)
			.route(
				deleteGeneralNoticeRoute.method,
				deleteGeneralNoticeRoute.path,
				({ user, params }) => {
					deleteGeneralNotice(db, clock, user, params.id)
					return { message: 'Aviso geral excluído.' }
				},
				{ ...routeHooks(deleteGeneralNoticeRoute), can: 'notices.general.manage' }
			)
			// Avisos individuais: scoped by representative (see notices.ts).
			.route(
				listIndividualNoticesRoute.method,
				listIndividualNoticesRoute.path,
				({ user, query }) => listIndividualNotices(db, user, query.search),
				{ ...routeHooks(listIndividualNoticesRoute), can: 'notices.individual' }
			)
			.route(noticeRecipientsRoute.method, noticeRecipientsRoute.path, ({ user }) => noticeRecipients(db, user), {
				...routeHooks(noticeRecipientsRoute),
				can: 'notices.individual'
			})
			.route(
				createIndividualNoticeRoute.method,
				createIndividualNoticeRoute.path,
				({ user, body }) => createIndividualNotice(db, clock, user, body),
				{ ...routeHooks(createIndividualNoticeRoute), can: 'notices.individual' }
			)
			.route(
				updateIndividualNoticeRoute.method,
				updateIndividualNoticeRoute.path,
				({ user, body, params }) => updateIndividualNotice(db, clock, user, params.id, body),
				{ ...routeHooks(updateIndividualNoticeRoute), can: 'notices.individual' }
			)
			.route(
				deleteIndividualNoticeRoute.method,
				deleteIndividualNoticeRoute.path,
				({ user, params }) => {
					deleteIndividualNotice(db, clock, user, params.id)
					return { message: 'Aviso individual excluído.' }
				},
				{ ...routeHooks(deleteIndividualNoticeRoute), can: 'notices.individual' }
			)
			// The WhatsApp gateway (Notificações › API and Teste).
			.route(gatewayStatusRoute.method, gatewayStatusRoute.path, () => gatewayStatus(ctx), {
				...routeHooks(gatewayStatusRoute),
				can: 'messaging.gateway'
			})
			.route(testSendRoute.method, testSendRoute.path, ({ body }) => sendTestMessage(ctx, body.phone, body.message), {
				...routeHooks(testSendRoute),
				can: 'messaging.gateway'
			})
			// Automatic notifications (Notificações › Notificações): the preview and log routes come before /:id.
			.route(listNotificationSettingsRoute.method, listNotificationSettingsRoute.path, () => listNotificationSettings(db), {
				...routeHooks(listNotificationSettingsRoute),
				can: 'messaging.notifications'
			})
			.route(previewNotificationsRoute.method, previewNotificationsRoute.path, () => previewNotifications(ctx), {
				...routeHooks(previewNotificationsRoute),
				can: 'messaging.notifications'
			})
			.route(sendLogRoute.method, sendLogRoute.path, ({ query }) => sendLog(db, query), {
				...routeHooks(sendLogRoute),
				can: 'messaging.notifications'
			})
			.route(
				createNotificationSettingRoute.method,
				createNotificationSettingRoute.path,
				({ user, body, status }) => status(201, createNotificationSetting(ctx, user, body)),
				{ ...routeHooks(createNotificationSettingRoute), can: 'messaging.notifications' }
			)
			.route(
				updateNotificationSettingRoute.method,
				updateNotificationSettingRoute.path,
				({ user, params, body }) => updateNotificationSetting(ctx, user, params.id, body),
				{ ...routeHooks(updateNotificationSettingRoute), can: 'messaging.notifications' }
			)
			.route(runNotificationsRoute.method, runNotificationsRoute.path, () => runNotificationsNow(ctx), {
				...routeHooks(runNotificationsRoute),
				can: 'messaging.notifications'
			})
	)
}
