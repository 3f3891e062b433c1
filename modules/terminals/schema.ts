import { index, integer, table, text, uniqueIndex } from '../../db/columns'
import { companies } from '../companies/schema'
import { belongsTo } from '../core/schema'

/** A machine running one of the systems at a company: registered by its first licence check, or by hand. */
export const terminals = table(
	'terminals',
	{
		codigo: integer().primaryKey({ autoIncrement: true }),
		fk_empresa: belongsTo(() => companies.codigo),
		nome_computador: text(),
		mac: text().notNull(),
		data: text().notNull()
	},
	(t) => [
		uniqueIndex('terminals_company_mac_idx').on(t.fk_empresa, t.mac),
		index('terminals_data_idx').on(t.data),
		// The list's sort columns besides the company and the date.
		index('terminals_nome_idx').on(t.nome_computador),
		index('terminals_mac_idx').on(t.mac)
	]
)
