import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { companies } from '../licensing/schema'
import { representatives } from '../resellers/schema'

/**
 * A batch of licence credits (valor = number of credits) owned by a representative.
 * Without fk_empresa it is the representative's pool (available while ativo and not used);
 * with fk_empresa it records a transfer to that company.
 */
export const credits = sqliteTable(
	'credits',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		valor: integer().notNull(),
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
		origem: text({ enum: ['admin', 'compra', 'transferencia'] }).notNull().default('admin')
	},
	(t) => [
		index('credits_rep_pool_idx').on(t.representante_id, t.fk_empresa, t.ativo, t.data_uso),
		index('credits_empresa_idx').on(t.fk_empresa)
	]
)
