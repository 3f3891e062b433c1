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
		/** File name of the promotional image shown by this representative's clients' systems (a row of uploaded_files). */
		promo: text(),
		data: text().notNull()
	},
	(t) => [index('representatives_gerente_idx').on(t.gerente_id), index('representatives_nome_idx').on(t.nome)]
)

/**
 * Uploaded files (representatives' promotional images), kept in the database so every portal process serves them,
 * whichever one received the upload. `name` is the random file name of the public URL; `data` the bytes in base64.
 */
export const uploadedFiles = table('uploaded_files', {
	name: text().primaryKey(),
	content_type: text().notNull(),
	data: text().notNull(),
	created_at: text().notNull()
})
