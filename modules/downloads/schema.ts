import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Installers and documents of the systems, listed on the Downloads screen. */
export const downloads = sqliteTable('downloads', {
	id: integer().primaryKey({ autoIncrement: true }),
	titulo: text().notNull(),
	link: text().notNull(),
	ativo: integer().notNull().default(1),
	data: text().notNull()
})
