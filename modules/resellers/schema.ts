import { index, integer, table, text } from '../../db/columns'
import { addressColumns, yesNoFlag } from '../core/schema'
import { users } from '../auth/schema'

/** A representative (reseller). Its CNPJ is also the CNPJ its user signs in with. */
export const representatives = table(
	'representatives',
	{
		codigo: integer().primaryKey({ autoIncrement: true }),
		nome: text().notNull(),
		cnpj: text().notNull().unique(),
		...addressColumns(),
		whatsapp: text(),
		email: text(),
		gerente_id: integer().references(() => users.id, { onDelete: 'set null' }),
		plink: text(),
		ativar_api_asaas: yesNoFlag(),
		evo_instancia: text(),
		/** File name of the promotional image shown by this representative's clients' systems (under uploads/promo). */
		promo: text(),
		data: text().notNull()
	},
	(t) => [index('representatives_gerente_idx').on(t.gerente_id), index('representatives_nome_idx').on(t.nome)]
)
