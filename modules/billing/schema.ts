import { oneOf } from '../core/schema'
import { index, integer, primaryKey, table, text, uniqueIndex } from '../../db/columns'
import { companies } from '../companies/schema'
import { representatives } from '../resellers/schema'

/**
 * A representative's own Asaas account, through which their clients are billed. The key and the webhook token
 * are sealed at rest (core/secrets.ts). Whether the integration is on is the representative's ativar_api_asaas.
 * The vendor's account (the one credit purchases are charged through) is kept in the settings app.asaas_*.
 */
export const asaasAccounts = table('asaas_accounts', {
	representante_cnpj: text()
		.primaryKey()
		.references(() => representatives.cnpj, { onUpdate: 'cascade' }),
	ambiente: oneOf(['sandbox', 'production'], 'sandbox'),
	api_key: text(),
	webhook_token: text(),
	updated_at: text().notNull()
})

/**
 * Which Asaas account stands behind each account's key, as last asked (GET /v3/wallets): a key replaced by one of
 * another account (sandbox to production, a new account, a wrong paste) is seen here before any 404 of that account
 * is read as a deletion. `mudou` holds back every 404-driven cancellation until the administrador or the
 * representative puts the old key back or closes the old carnês by hand.
 */
export const asaasIdentities = table('asaas_identities', {
	account: text().primaryKey(),
	/** The walletId the account answered; null when Asaas would not say (the account then goes by its 404s). */
	wallet_id: text(),
	/** ok | mudou (the key now opens another account than its carnês were made on) | desconhecida (404 for everything) */
	status: oneOf(['ok', 'mudou', 'desconhecida'], 'ok'),
	message: text(),
	checked_at: text().notNull()
})

/**
 * The portal's requests to each Asaas account ('fornecedor' or a representative's CNPJ), per hour: Asaas allows
 * 25,000 per account in 12 h, shared with the account's other integrations, so Admin Financeiro shows each account's
 * use. `restante` is the last RateLimit-Remaining Asaas sent in that hour, when it sent one.
 */
export const asaasUsage = table(
	'asaas_usage',
	{
		account: text().notNull(),
		/** The UTC hour, YYYY-MM-DDTHH. */
		hora: text().notNull(),
		requisicoes: integer().notNull().default(0),
		restante: integer()
	},
	(t) => [primaryKey({ columns: [t.account, t.hora] })]
)

/** The portal's webhook on each Asaas account ('fornecedor' or a representative's CNPJ), as last read from Asaas. */
export const asaasWebhooks = table('asaas_webhooks', {
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
export const asaasEvents = table(
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
		status: oneOf(['pendente', 'processado', 'sem_dono', 'falhou'], 'pendente'),
		attempts: integer().notNull().default(0),
		next_attempt_at: text().notNull(),
		/** Who is handling it until when: a second worker does not take an event in hand. */
		claimed_until: text(),
		last_error: text(),
		processed_at: text()
	},
	(t) => [uniqueIndex('asaas_events_event_idx').on(t.event_id), index('asaas_events_due_idx').on(t.status, t.next_attempt_at)]
)

/**
 * A carnê: an instalment plan a representative issues to one of their companies through their own Asaas account.
 * `referencia` is written into every parcel's externalReference before the plan is created, so a create whose
 * answer was lost is found at Asaas instead of made twice. The row is written as `criando` before Asaas is called, so
 * a failure or a crash part-way leaves a trace that finishCarnes() completes (the plan exists) or removes (it does
 * not): one carnê per plan. criando → ativo → cancelado (the cancel action) or quitado (every parcel paid). Money in
 * centavos.
 */
export const carnes = table(
	'carnes',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		referencia: text().notNull(),
		empresa_codigo: integer()
			.notNull()
			.references(() => companies.codigo),
		/** Whose Asaas account the plan lives in (the company's representative when it was issued). */
		representante_cnpj: text()
			.notNull()
			.references(() => representatives.cnpj, { onUpdate: 'cascade' }),
		/** Null while the carnê is `criando` and Asaas has not yet told the plan's id. */
		asaas_installment_id: text(),
		asaas_customer_id: text(),
		/** Which Asaas account (its walletId) the plan was made on; null when Asaas would not say. */
		asaas_conta: text(),
		valor_total_centavos: integer().notNull(),
		valor_parcela_centavos: integer().notNull(),
		numero_parcelas: integer().notNull(),
		data_primeiro_vencimento: text().notNull(),
		tipo_cobranca: text({ enum: ['BOLETO', 'PIX', 'CREDIT_CARD'] }).notNull(),
		descricao: text(),
		status: oneOf(['criando', 'ativo', 'cancelado', 'quitado'], 'ativo'),
		/** Each parcel paid renews the company's licence with `creditos_por_parcela` of the representative's credits. */
		renovar_licenca: integer({ mode: 'boolean' }).notNull().default(false),
		creditos_por_parcela: integer().notNull().default(1),
		criado_por: integer(),
		created_at: text().notNull(),
		updated_at: text().notNull(),
		/** When the reconciliation last read the plan back from Asaas. */
		conferido_em: text(),
		/**
		 * When someone in the portal asked to cancel it: the webhooks of the removals that cancel sets off then leave
		 * the closing (and its log line, with who cancelled) to the cancel itself, for CANCEL_CLAIM_MS.
		 */
		cancelamento_pedido_em: text()
	},
	(t) => [
		uniqueIndex('carnes_referencia_idx').on(t.referencia),
		uniqueIndex('carnes_installment_idx').on(t.asaas_installment_id),
		index('carnes_empresa_idx').on(t.empresa_codigo, t.status),
		index('carnes_rep_idx').on(t.representante_cnpj, t.created_at),
		index('carnes_status_idx').on(t.status, t.created_at)
	]
)

/**
 * One parcel of a carnê: an Asaas payment, its status as last read back from Asaas (PENDING, OVERDUE, CONFIRMED,
 * RECEIVED, REFUNDED…; REMOVED once deleted there). empresa_codigo and representante_cnpj are the carnê's, kept
 * here so the monitor filters and scopes in one index.
 */
export const carneParcelas = table(
	'carne_parcelas',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		carne_id: integer()
			.notNull()
			.references(() => carnes.id),
		empresa_codigo: integer().notNull(),
		representante_cnpj: text().notNull(),
		asaas_payment_id: text().notNull(),
		numero: integer().notNull(),
		valor_centavos: integer().notNull(),
		vencimento: text().notNull(),
		status: text().notNull(),
		data_pagamento: text(),
		boleto_url: text(),
		invoice_url: text(),
		linha_digitavel: text(),
		pix_copia_cola: text(),
		/** How many times the parcel moved back (a cash receipt undone, a removal restored): its history starts anew. */
		ciclo: integer().notNull().default(0),
		updated_at: text().notNull()
	},
	// The monitor's cards total the filtered view by status: these indexes hold every column they read.
	(t) => [
		uniqueIndex('carne_parcelas_payment_idx').on(t.asaas_payment_id),
		index('carne_parcelas_carne_idx').on(t.carne_id, t.numero),
		index('carne_parcelas_empresa_idx').on(t.empresa_codigo, t.vencimento),
		index('carne_parcelas_status_idx').on(t.status, t.vencimento, t.valor_centavos),
		index('carne_parcelas_rep_idx').on(t.representante_cnpj, t.vencimento, t.status, t.valor_centavos),
		index('carne_parcelas_vencimento_idx').on(t.vencimento)
	]
)

/**
 * The payment history of the carnês: one row per (payment, kind of event, ciclo), so CONFIRMED then RECEIVED of the
 * same payment is one `pagamento`, and a repeated or late webhook adds nothing.
 */
export const historicoPagamentos = table(
	'historico_pagamentos',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		tipo_evento: text({
			enum: ['pagamento', 'cancelamento', 'estorno', 'vencimento', 'pagamento_desfeito', 'restauracao', 'disputa_vencida', 'renovacao']
		}).notNull(),
		parcela_id: integer().references(() => carneParcelas.id),
		carne_id: integer().references(() => carnes.id),
		empresa_codigo: integer().notNull(),
		representante_cnpj: text().notNull(),
		valor_centavos: integer(),
		data_evento: text().notNull(),
		descricao: text(),
		/** The Asaas payment id. */
		boleto_id: text().notNull(),
		/** The webhook event that told it; null when the reconciliation found it. */
		asaas_evento_id: text(),
		/** The parcel's ciclo when it happened: a payment after a cash receipt was undone is a line of its own. */
		ciclo: integer().notNull().default(0)
	},
	(t) => [
		uniqueIndex('historico_pagamentos_once_idx').on(t.boleto_id, t.tipo_evento, t.ciclo),
		index('historico_pagamentos_data_idx').on(t.data_evento),
		index('historico_pagamentos_rep_idx').on(t.representante_cnpj, t.data_evento, t.tipo_evento, t.valor_centavos),
		index('historico_pagamentos_empresa_idx').on(t.empresa_codigo, t.data_evento),
		index('historico_pagamentos_tipo_idx').on(t.tipo_evento, t.data_evento, t.valor_centavos)
	]
)

/**
 * The licence renewal a paid parcel of a carnê with `renovar_licenca` buys: one row per parcel (the unique index),
 * written in the transaction that first records the parcel paid, and applied (the credits spent, the licence extended)
 * by a transaction that moves it to `aplicada` with a conditional UPDATE, so neither a repeated event, the
 * reconciliation, a second portal process nor a crash between the two ever renews twice or loses a renewal.
 * pendente (not yet tried) → aplicada | aguardando (no credits: the representative was told; applied, oldest first,
 * when credits arrive) → aplicada; pendente | aguardando → cancelada (the parcel was refunded or removed first, the
 * option was switched off, or the licence could not be extended: `motivo`); cancelada → pendente (paid again).
 */
export const carneRenovacoes = table(
	'carne_renovacoes',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		parcela_id: integer()
			.notNull()
			.references(() => carneParcelas.id),
		carne_id: integer()
			.notNull()
			.references(() => carnes.id),
		empresa_codigo: integer().notNull(),
		/** Whose pool pays: the carnê's representative. */
		representante_cnpj: text().notNull(),
		creditos: integer().notNull(),
		estado: oneOf(['pendente', 'aguardando', 'aplicada', 'cancelada'], 'pendente'),
		/** When the parcel was first known paid: the order waiting renewals are applied in. */
		criada_em: text().notNull(),
		/** When the representative was told it waits for credits (top bar and activity log), once. */
		avisada_em: text(),
		/** When the WhatsApp message about it was sent (or given up: no gateway, no number), once. */
		whatsapp_em: text(),
		aplicada_em: text(),
		dias: integer(),
		validade_anterior: text(),
		/** The licence date it gave the company. */
		renovou_ate: text(),
		/** The credit transfer (credits.id) that paid it. */
		transferencia_id: integer(),
		motivo: text()
	},
	(t) => [
		uniqueIndex('carne_renovacoes_parcela_idx').on(t.parcela_id),
		index('carne_renovacoes_rep_idx').on(t.representante_cnpj, t.estado, t.id),
		index('carne_renovacoes_estado_idx').on(t.estado, t.whatsapp_em),
		index('carne_renovacoes_carne_idx').on(t.carne_id)
	]
)

// The reminder schedule (régua de cobrança, issue 37): modules/billing/dunning.ts.

/**
 * A representative's reminder schedule for their carnês' parcels. No row = the defaults (dunning-words.ts); the row is
 * written when the representative (or an administrador) saves it, or the first time the schedule runs for them.
 * `passos` is the JSON list of steps [{ dias, template_mensagem, ativo }] (dias negative before the due date).
 */
export const reguasCobranca = table('reguas_cobranca', {
	representante_cnpj: text()
		.primaryKey()
		.references(() => representatives.cnpj, { onUpdate: 'cascade', onDelete: 'cascade' }),
	ativa: integer({ mode: 'boolean' }).notNull(),
	passos: text().notNull(),
	/** HH:MM:SS, Brazil time. */
	horario_envio: text().notNull(),
	enviar_fins_semana: integer({ mode: 'boolean' }).notNull(),
	/** Days overdue after which the company's systems are blocked; null = blocking off. */
	bloquear_apos_dias: integer(),
	/** The Brazil date of the schedule's last daily run, so it chooses its messages and blocks once a day. */
	ultima_execucao: text(),
	updated_at: text().notNull()
})

/**
 * The schedule's messages: one row per (parcel, cycle, kind, step day), the unique key that makes a second run, a
 * second portal process or a retry never send the same message twice. A row is claimed (pendente → enviando) before
 * it is sent; its phone and text are settled from the parcel as it is then.
 */
export const reguaEnvios = table(
	'regua_envios',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		parcela_id: integer()
			.notNull()
			.references(() => carneParcelas.id),
		/** The parcel's ciclo when chosen: a payment undone starts its reminders anew. */
		ciclo: integer().notNull(),
		/** lembrete (a step), aviso_bloqueio (the warning before the block), desbloqueio (the block lifted by a payment) */
		tipo: oneOf(['lembrete', 'aviso_bloqueio', 'desbloqueio'], 'lembrete'),
		/** The step's day (lembrete); 0 for the other kinds. */
		dias: integer().notNull(),
		empresa_codigo: integer().notNull(),
		representante_cnpj: text().notNull(),
		telefone: text(),
		texto: text(),
		/** pendente → enviando → enviada | falhou | incerta (may have gone out: never repeated) ; ignorada (with why) */
		status: oneOf(['pendente', 'enviando', 'enviada', 'falhou', 'incerta', 'ignorada'], 'pendente'),
		tentativas: integer().notNull().default(0),
		proxima_tentativa: text().notNull(),
		message_id: text(),
		erro: text(),
		criado_em: text().notNull(),
		enviado_em: text()
	},
	(t) => [
		uniqueIndex('regua_envios_key_idx').on(t.parcela_id, t.ciclo, t.tipo, t.dias),
		index('regua_envios_due_idx').on(t.status, t.proxima_tentativa)
	]
)
