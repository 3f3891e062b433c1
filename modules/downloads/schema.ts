import { integer, table, text } from '../../db/columns'

/** Installers and documents of the systems, listed on the Downloads screen. */
export const downloads = table('downloads', {
	id: integer().primaryKey({ autoIncrement: true }),
	titulo: text().notNull(),
	link: text().notNull(),
	ativo: integer().notNull().default(1),
	data: text().notNull()
})
