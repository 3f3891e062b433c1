import { count, eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { asaasEvents } from '../../modules/billing'
import { botInbox } from '../../modules/bot'
import type { Gauge } from '../../modules/core/server'
import { notificationSends } from '../../modules/messaging'
import { databaseAnswers } from '../../modules/system'

/** NaN (Prometheus's "no value") when the database does not answer: the scrape still shows the rest. */
async function orNaN(read: () => Promise<number>): Promise<number> {
	try {
		return await read()
	} catch {
		return Number.NaN
	}
}

/** What GET /metrics reads from the database at each scrape: the same on every instance, since they share it. */
export function portalGauges(db: Db): Gauge[] {
	return [
		{
			name: 'portal_database_up',
			help: 'Se esta instância alcança o banco de dados (1) ou não (0).',
			read: async () => ((await databaseAnswers(db)) ? 1 : 0)
		},
		{
			name: 'portal_webhook_inbox_depth',
			help: 'Eventos de webhook recebidos e ainda não tratados (de todas as instâncias).',
			labels: { inbox: 'asaas' },
			read: () =>
				orNaN(async () => (await db.select({ n: count() }).from(asaasEvents).where(eq(asaasEvents.status, 'pendente')))[0]?.n ?? 0)
		},
		{
			name: 'portal_webhook_inbox_depth',
			help: 'Eventos de webhook recebidos e ainda não tratados (de todas as instâncias).',
			labels: { inbox: 'whatsapp' },
			read: () => orNaN(async () => (await db.select({ n: count() }).from(botInbox))[0]?.n ?? 0)
		},
		{
			name: 'portal_notification_queue_depth',
			help: 'Mensagens automáticas de WhatsApp à espera de envio (de todas as instâncias).',
			read: () =>
				orNaN(
					async () =>
						(
							await db
								.select({ n: count() })
								.from(notificationSends)
								.where(inArray(notificationSends.status, ['pendente', 'enviando']))
						)[0]?.n ?? 0
				)
		}
	]
}
