import { index, integer, primaryKey, table, text, uniqueIndex } from '../../db/columns'
import { users } from '../auth/schema'
import { representatives } from '../resellers/schema'
import { belongsTo, oneOf } from '../core/schema'

/** Top-bar notifications addressed to one user. */
export const notifications = table(
	'notifications',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		user_id: belongsTo(() => users.id),
		title: text().notNull(),
		message: text().notNull(),
		type: oneOf(['success', 'warning', 'info'], 'info'),
		read: integer({ mode: 'boolean' }).notNull().default(false),
		/** A page of the portal that acts on it (e.g. /autocompra-creditos), shown as a link under the message. */
		link: text(),
		created_at: text().notNull()
	},
	(t) => [index('notifications_user_idx').on(t.user_id, t.read)]
)

/** What a notice holds, general or individual; `data` is the notice's date (YYYY-MM-DD). */
function noticeColumns() {
	return {
		titulo: text().notNull(),
		texto: text().notNull(),
		urgente: integer().notNull().default(0),
		ativo: integer().notNull().default(1),
		data: text().notNull(),
		created_at: text().notNull(),
		updated_at: text().notNull()
	}
}

/** Avisos gerais: shown to every signed-in user while ativo (2-administration §3.5). */
export const generalNotices = table(
	'avisos_gerais',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		...noticeColumns()
	},
	(t) => [index('avisos_gerais_ativo_idx').on(t.ativo)]
)

/** Avisos individuais: addressed to one representative (by CNPJ). */
export const individualNotices = table(
	'avisos_individuais',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		representante_id: text()
			.notNull()
			.references(() => representatives.cnpj, { onDelete: 'cascade', onUpdate: 'cascade' }),
		...noticeColumns()
	},
	(t) => [index('avisos_individuais_rep_idx').on(t.representante_id, t.ativo)]
)

/** Which notices each user has marked as read in the top-bar notifications. */
export const noticeReads = table(
	'avisos_lidos',
	{
		user_id: belongsTo(() => users.id),
		tipo: text({ enum: ['geral', 'individual'] }).notNull(),
		aviso_id: integer().notNull(),
		read_at: text().notNull()
	},
	(t) => [primaryKey({ columns: [t.user_id, t.tipo, t.aviso_id] })]
)

/** One automatic WhatsApp notification type (3-billing-messaging §3 'Notification setting'). */
export const notificationSettings = table('notification_settings', {
	id: integer().primaryKey({ autoIncrement: true }),
	tipo: text({ enum: ['whatsapp_expiracao', 'whatsapp_expirada', 'whatsapp_boas_vindas'] })
		.notNull()
		.unique(),
	ativo: integer({ mode: 'boolean' }).notNull(),
	dias_antecedencia: integer().notNull(),
	template_mensagem: text().notNull(),
	/** HH:MM:SS, Brazil time. */
	horario_envio: text().notNull(),
	enviar_fins_semana: integer({ mode: 'boolean' }).notNull(),
	/** When the type was last turned on. */
	ativado_em: text(),
	/** The last company registered before the type was turned on: a welcome goes only to those after it. */
	boas_vindas_apos_codigo: integer(),
	/** The Brazil date of the type's last daily run, so it chooses its recipients once a day. */
	ultima_execucao: text(),
	created_at: text().notNull(),
	updated_at: text().notNull()
})

/**
 * The send log: one row per (type, company, licence date) — the unique key that keeps a second run, a restart or
 * a manual run from sending the same notice twice. A welcome has an empty licence date.
 */
export const notificationSends = table(
	'notification_sends',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		tipo: text().notNull(),
		empresa_codigo: integer().notNull(),
		data_licenca: text().notNull(),
		telefone: text(),
		texto: text(),
		/** pendente → enviando → enviada | falhou | incerta (the gateway may have sent it: not repeated) ; ignorada (no valid phone, opted out) */
		status: text({ enum: ['pendente', 'enviando', 'enviada', 'falhou', 'incerta', 'ignorada'] }).notNull(),
		tentativas: integer().notNull().default(0),
		proxima_tentativa: text().notNull(),
		message_id: text(),
		erro: text(),
		criado_em: text().notNull(),
		enviado_em: text()
	},
	(t) => [
		uniqueIndex('notification_sends_key_idx').on(t.tipo, t.empresa_codigo, t.data_licenca),
		index('notification_sends_due_idx').on(t.status, t.proxima_tentativa),
		index('notification_sends_created_idx').on(t.criado_em)
	]
)

/** Phones that answered PARAR to the bot: no automatic notification goes to them (VOLTAR removes the row). */
export const whatsappOptOuts = table('whatsapp_opt_outs', {
	/** The phone's ninth-digit-insensitive key (evolution phoneKey). */
	phone_key: text().primaryKey(),
	criado_em: text().notNull()
})

/**
 * The ids Evolution returned for every send of the portal (bot replies, notifications, carnê and parcel sends, test
 * sends): their echo (a messages.upsert with fromMe) is ours; a fromMe message with another id was typed by a person.
 * Swept after two days. (The table kept the name it had when only the bot recorded its replies.)
 */
export const ownSends = table('bot_own_messages', { id: text().primaryKey(), at: text().notNull() }, (t) => [
	index('bot_own_messages_at_idx').on(t.at)
])
