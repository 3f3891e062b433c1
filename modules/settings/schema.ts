import { sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Key/value settings of the portal (configuracoes); rows exist only for keys that were saved. */
export const settings = sqliteTable('configuracoes', {
	chave: text().primaryKey(),
	valor: text().notNull(),
	descricao: text(),
	categoria: text(),
	tipo: text(),
	updated_at: text().notNull()
})
