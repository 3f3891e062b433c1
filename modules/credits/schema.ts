import { sql } from 'drizzle-orm'
import { check, index, integer, table, text, uniqueIndex } from '../../db/columns'
import { companies } from '../companies/schema'
import { representatives } from '../resellers/schema'
import { belongsTo, oneOf } from '../core/schema'

/**
 * The credit ledger. Two kinds of rows, told apart by `origem`:
 * - a batch of the representative's pool (origem admin|compra, fk_empresa null): `valor` is what is LEFT
 *   of it and `valor_original` what was added; it is available while ativo = 1 and data_uso is null
 *   (data_uso is set when a transfer has consumed it to 0);
 * - a transfer to a company (origem transferencia): `valor` credits given to fk_empresa for `sistema`.
 * So available = Σ valor of active unused pool batches, used = Σ valor of transfers,
 * added = Σ valor_original of pool batches = available + used (+ inactive). credit_consumptions says
 * which batches each transfer consumed, oldest first, so a batch can never be spent twice.
 */
export const credits = table(
	'credits',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		valor: integer().notNull(),
		/** Pool batches: the quantity added (null in rows written before it existed: read as valor). */
		valor_original: integer(),
		representante_id: text()
			.notNull()
			.references(() => representatives.cnpj),
		fk_empresa: integer().references(() => companies.codigo, { onDelete: 'set null' }),
		empresa_razao: text(),
		sistema: text(),
		ativo: integer().notNull().default(1),
		data_compra: text().notNull(),
		data_uso: text(),
		valor_unitario_centavos: integer().notNull().default(0),
		origem: oneOf(['admin', 'compra', 'transferencia'], 'admin'),
		/** Who wrote the row (user id), for the audit trail. */
		criado_por: integer()
	},
	(t) => [
		// The database itself refuses a negative batch or a transfer of nothing.
		check('credits_valor_check', sql`valor >= 0 and (origem <> 'transferencia' or valor > 0)`),
		// The available pool of a representative, oldest first, with the value: one index-only range scan.
		index('credits_pool_available_idx')
			.on(t.representante_id, t.data_compra, t.id, t.valor)
			.where(sql`origem <> 'transferencia' and ativo = 1 and data_uso is null`),
		index('credits_transfers_idx').on(t.representante_id, t.valor).where(sql`origem = 'transferencia'`),
		index('credits_pool_inactive_idx').on(t.representante_id, t.valor).where(sql`origem <> 'transferencia' and ativo = 0`),
		index('credits_rep_kind_idx').on(t.representante_id, t.origem, t.id),
		index('credits_empresa_idx').on(t.fk_empresa),
		index('credits_data_compra_idx').on(t.data_compra),
		index('credits_data_uso_idx').on(t.data_uso)
	]
)

/** Which pool batch each transfer consumed, and how much of it, at which unit value. */
export const creditConsumptions = table(
	'credit_consumptions',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		transfer_id: belongsTo(() => credits.id),
		batch_id: belongsTo(() => credits.id),
		quantidade: integer().notNull(),
		valor_unitario_centavos: integer().notNull()
	},
	(t) => [
		check('credit_consumptions_quantidade_check', sql`quantidade > 0`),
		index('credit_consumptions_transfer_idx').on(t.transfer_id),
		index('credit_consumptions_batch_idx').on(t.batch_id)
	]
)

/**
 * Each representative's totals, kept by the same transactions that write the ledger (and rebuilt from it
 * at start-up), so the administrator's summary and the dashboard read 10,000 rows instead of summing a
 * million. The ledger stays the truth: transfers check the balance from the batches themselves.
 */
export const creditBalances = table(
	'credit_balances',
	{
		representante_id: text()
			.primaryKey()
			.references(() => representatives.cnpj),
		disponivel: integer().notNull().default(0),
		utilizado: integer().notNull().default(0),
		inativo: integer().notNull().default(0)
	},
	(t) => [
		check('credit_balances_check', sql`disponivel >= 0 and utilizado >= 0 and inativo >= 0`),
		index('credit_balances_disponivel_idx').on(t.disponivel)
	]
)

/**
 * A representative's purchase of credits from the vendor, paid by PIX through the vendor's Asaas account
 * (spec 3 §2 'Autocompra de Créditos'). `status`:
 * - criando: the row exists so the charge can carry it as externalReference; the charge is being created;
 * - pendente: the charge is open; the checker asks Asaas at next_check_at (10 s, then doubling up to 5 min);
 * - paga: paid and credited (batch_id is its pool batch, written once);
 * - expirada: not paid by expires_at (a payment that still arrives is credited);
 * - cancelada: the charge was removed at Asaas, or refunded before it was credited;
 * - estornada: refunded or charged back after crediting (its unused credits were deactivated);
 * - divergente: paid with an amount other than the total (nothing credited; the administrador is warned).
 */
export const creditPurchases = table(
	'credit_purchases',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		representante_id: text()
			.notNull()
			.references(() => representatives.cnpj, { onUpdate: 'cascade' }),
		/** The user who bought (shown as the actor of the crediting). */
		usuario_id: integer(),
		quantidade: integer().notNull(),
		/** app.valor_credito_individual at the moment of purchase. */
		valor_unitario_centavos: integer().notNull(),
		valor_total_centavos: integer().notNull(),
		metodo_pagamento: oneOf(['PIX'], 'PIX'),
		status: oneOf(['criando', 'pendente', 'paga', 'expirada', 'cancelada', 'estornada', 'divergente'], 'criando'),
		/** The Asaas payment id (pay_…) on the vendor's account. */
		charge_id: text(),
		/** Which Asaas account (its walletId) the charge was made on; null when Asaas would not say. */
		asaas_conta: text(),
		vencimento: text().notNull(),
		pix_copia_e_cola: text(),
		/** Base64 PNG as Asaas drew it (the browser draws its own from the copy-and-paste code). */
		pix_qr_code: text(),
		created_at: text().notNull(),
		expires_at: text().notNull(),
		next_check_at: text(),
		checks: integer().notNull().default(0),
		paid_at: text(),
		valor_pago_centavos: integer(),
		batch_id: integer().references(() => credits.id),
		updated_at: text().notNull()
	},
	(t) => [
		check('credit_purchases_quantidade_check', sql`quantidade between 1 and 1000`),
		uniqueIndex('credit_purchases_charge_idx').on(t.charge_id),
		uniqueIndex('credit_purchases_batch_idx').on(t.batch_id),
		index('credit_purchases_due_idx').on(t.status, t.next_check_at),
		index('credit_purchases_rep_idx').on(t.representante_id, t.id)
	]
)
