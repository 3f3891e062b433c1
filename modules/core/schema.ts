import { type AnySQLiteColumn, integer, text } from 'drizzle-orm/sqlite-core'

/** The postal address and phone of a company or a representative, every part optional (a fresh set per table). */
export function addressColumns() {
	return { endereco: text(), bairro: text(), cidade: text(), uf: text(), cep: text(), fone: text() }
}

/** A row's required link to the row it belongs to (an integer key): deleting that row deletes this one. */
export function belongsTo(parent: () => AnySQLiteColumn) {
	return integer().notNull().references(parent, { onDelete: 'cascade' })
}
