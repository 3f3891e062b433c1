import { table, text } from '../../db/columns'

/** Key/value settings of the portal (configuracoes); rows exist only for keys that were saved. */
export const settings = table('configuracoes', {
	chave: text().primaryKey(),
	valor: text().notNull(),
	descricao: text(),
	categoria: text(),
	tipo: text(),
	updated_at: text().notNull()
})
