import { type AnyColumn, index, integer, primaryKey, table, text } from '../../db/columns'

/** The postal address and phone of a company or a representative, every part optional (a fresh set per table). */
export function addressColumns() {
	return { endereco: text(), bairro: text(), cidade: text(), uf: text(), cep: text(), fone: text() }
}

/** A row's required link to the row it belongs to (an integer key): deleting that row deletes this one. */
export function belongsTo(parent: () => AnyColumn) {
	return integer().notNull().references(parent, { onDelete: 'cascade' })
}

/** A required text column that holds one of `values`, `initial` until written. */
export function oneOf<U extends string, const T extends Readonly<[U, ...U[]]>>(values: T, initial: T[number]) {
	return text({ enum: values }).notNull().default(initial)
}

/** A yes/no switch as the legacy tables write it: 'S' or 'N', off ('N') until set. */
export const yesNoFlag = () => oneOf(['S', 'N'], 'N')

/**
 * What the shared rate limits count (core/rate.ts): one row per counted event, or per reserved send slot, under its
 * key, kept until `expires_at`. In the database, so a restart forgets nothing and every portal process on it sees them.
 */
export const rateEvents = table(
	'rate_events',
	{
		id: integer().primaryKey({ autoIncrement: true }),
		key: text().notNull(),
		at: text().notNull(),
		expires_at: text().notNull()
	},
	(t) => [index('rate_events_key_idx').on(t.key, t.at), index('rate_events_expiry_idx').on(t.expires_at)]
)

/**
 * Hits per key and fixed window, added to by every portal process (core/rate.ts SharedCounter): the limits whose hot
 * path cannot afford a write per hit (the licence check's) count in memory and add their hits here every few seconds.
 */
export const rateCounts = table(
	'rate_counts',
	{
		key: text().notNull(),
		/** The window's start, in milliseconds since the epoch. */
		window_start: integer().notNull(),
		hits: integer().notNull(),
		expires_at: text().notNull()
	},
	(t) => [primaryKey({ columns: [t.key, t.window_start] }), index('rate_counts_expiry_idx').on(t.expires_at)]
)
