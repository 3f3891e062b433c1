import { text } from 'drizzle-orm/sqlite-core'

/** The postal address and phone of a company or a representative, every part optional (a fresh set per table). */
export function addressColumns() {
	return { endereco: text(), bairro: text(), cidade: text(), uf: text(), cep: text(), fone: text() }
}
