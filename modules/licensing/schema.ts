import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** The Ed25519 key pair that signs licence tokens; the newest row signs, older ones stay verifiable. */
export const signingKeys = sqliteTable('signing_keys', {
	id: integer().primaryKey({ autoIncrement: true }),
	public_key: text().notNull(),
	private_key: text().notNull(),
	created_at: text().notNull()
})
