import { integer, table, text } from '../../db/columns'

/** The Ed25519 key pair that signs licence tokens; the newest row signs, older ones stay verifiable. */
export const signingKeys = table('signing_keys', {
	id: integer().primaryKey({ autoIncrement: true }),
	public_key: text().notNull(),
	private_key: text().notNull(),
	created_at: text().notNull()
})
