import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { representatives } from '../resellers/schema'

/**
 * A representative's own Asaas account, through which their clients are billed. The key and the webhook token
 * are sealed at rest (core/secrets.ts). Whether the integration is on is the representative's ativar_api_asaas.
 * The vendor's account (the one credit purchases are charged through) is kept in the settings app.asaas_*.
 */
export const asaasAccounts = sqliteTable('asaas_accounts', {
	representante_cnpj: text()
		.primaryKey()
		.references(() => representatives.cnpj, { onUpdate: 'cascade' }),
	ambiente: text({ enum: ['sandbox', 'production'] })
		.notNull()
		.default('sandbox'),
	api_key: text(),
	webhook_token: text(),
	updated_at: text().notNull()
})

/** The portal's webhook on each Asaas account ('fornecedor' or a representative's CNPJ), as last read from Asaas. */
export const asaasWebhooks = sqliteTable('asaas_webhooks', {
	account: text().primaryKey(),
	webhook_id: text(),
	/** ativo | ausente (not registered) | interrompido (queue paused by Asaas) | penalizado (deliveries failing) | erro (could not ask) */
	status: text({ enum: ['ativo', 'ausente', 'interrompido', 'penalizado', 'erro'] }).notNull(),
	penalized: integer().notNull().default(0),
	message: text(),
	checked_at: text().notNull()
})

/**
 * The webhook inbox: every event Asaas delivered, stored once by its id before it is acknowledged, then handed
 * to the module that owns its payment. A failed handling is retried with growing delays, also after a restart.
 */
export const asaasEvents = sqliteTable(
	'asaas_events',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		event_id: text().notNull(),
		account: text().notNull(),
		event: text().notNull(),
		payment_id: text(),
		payload: text().notNull(),
		received_at: text().notNull(),
		/** pendente → processado | sem_dono (no module owns the payment) | falhou (gave up after the last attempt) */
		status: text({ enum: ['pendente', 'processado', 'sem_dono', 'falhou'] })
			.notNull()
			.default('pendente'),
		attempts: integer().notNull().default(0),
		next_attempt_at: text().notNull(),
		/** Who is handling it until when: a second worker does not take an event in hand. */
		claimed_until: text(),
		last_error: text(),
		processed_at: text()
	},
	(t) => [uniqueIndex('asaas_events_event_idx').on(t.event_id), index('asaas_events_due_idx').on(t.status, t.next_attempt_at)]
)
