import { serve, serveRoutes } from '../auth'
import type { AppContext } from '../core/server'
import {
	createGeneralNoticeRoute,
	createIndividualNoticeRoute,
	deleteGeneralNoticeRoute,
	createNotificationSettingRoute,
	deleteIndividualNoticeRoute,
	listNotificationSettingsRoute,
	previewNotificationsRoute,
	notificationSamplesRoute,
	runNotificationsRoute,
	todaySendsRoute,
	sendLogRoute,
	updateNotificationSettingRoute,
	gatewayStatusRoute,
	listGeneralNoticesRoute,
	listIndividualNoticesRoute,
	listNotificationsRoute,
	markReadRoute,
	noticeRecipientsRoute,
	rehearsalRoute,
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
import { gatewayStatus, rehearseGateway, sendTestMessage } from './gateway'
import {
	createNotificationSetting,
	listNotificationSettings,
	previewNotifications,
	notificationSamples,
	runNotificationsNow,
	todaySends,
	sendLog,
	updateNotificationSetting
} from './notifications'
import { clickSend } from './send-limits'
import { listNotifications, markNotificationsRead } from './service'

export function messagingRoutes(ctx: AppContext) {
	return serveRoutes(ctx, 'messaging.routes', ({ db, clock }) => [
		serve(listNotificationsRoute, 'session', ({ user }) => listNotifications(db, user)),
		serve(markReadRoute, 'session', async ({ body, user }) => ({
			message: 'Notificações marcadas como lidas.',
			updated: await markNotificationsRead(db, clock, user, body.notificationIds)
		})),
		// Avisos gerais: everyone reads, administradores write.
		serve(listGeneralNoticesRoute, 'notices.general.read', ({ user, query }) => listGeneralNotices(db, user, query.search)),
		serve(createGeneralNoticeRoute, 'notices.general.manage', ({ user, body }) => createGeneralNotice(db, clock, user, body)),
		serve(updateGeneralNoticeRoute, 'notices.general.manage', ({ user, body, params }) =>
			updateGeneralNotice(db, clock, user, params.id, body)
		),
		serve(deleteGeneralNoticeRoute, 'notices.general.manage', ({ user, params }) => deleteGeneralNotice(db, clock, user, params.id)),
		// Avisos individuais: scoped by representative (see notices.ts).
		serve(listIndividualNoticesRoute, 'notices.individual', ({ user, query }) => listIndividualNotices(db, user, query.search)),
		serve(noticeRecipientsRoute, 'notices.individual', ({ user }) => noticeRecipients(db, user)),
		serve(createIndividualNoticeRoute, 'notices.individual', ({ user, body }) => createIndividualNotice(db, clock, user, body)),
		serve(updateIndividualNoticeRoute, 'notices.individual', ({ user, body, params }) =>
			updateIndividualNotice(db, clock, user, params.id, body)
		),
		serve(deleteIndividualNoticeRoute, 'notices.individual', ({ user, params }) => deleteIndividualNotice(db, clock, user, params.id)),
		// The WhatsApp gateway (Notificações › API and Teste).
		serve(gatewayStatusRoute, 'messaging.gateway', () => gatewayStatus(ctx)),
		serve(testSendRoute, 'messaging.gateway', ({ user, body }) =>
			clickSend(ctx, { userId: user.id, representanteCnpj: null }, () => sendTestMessage(ctx, body.phone, body.message))
		),
		serve(rehearsalRoute, 'messaging.gateway', ({ user, body }) =>
			clickSend(ctx, { userId: user.id, representanteCnpj: null }, () => rehearseGateway(ctx, body.phone))
		),
		// Automatic notifications (Notificações › Notificações): the preview and log routes come before /:id.
		serve(listNotificationSettingsRoute, 'messaging.notifications', () => listNotificationSettings(db)),
		serve(previewNotificationsRoute, 'messaging.notifications', () => previewNotifications(ctx)),
		serve(sendLogRoute, 'messaging.notifications', ({ query }) => sendLog(db, query)),
		serve(createNotificationSettingRoute, 'messaging.notifications', ({ user, body }) => createNotificationSetting(ctx, user, body)),
		serve(updateNotificationSettingRoute, 'messaging.notifications', ({ user, params, body }) =>
			updateNotificationSetting(ctx, user, params.id, body)
		),
		serve(notificationSamplesRoute, 'messaging.notifications', ({ params }) => notificationSamples(ctx, params.id)),
		serve(todaySendsRoute, 'messaging.notifications', () => todaySends(ctx)),
		serve(runNotificationsRoute, 'messaging.notifications', () => runNotificationsNow(ctx))
	])
}
