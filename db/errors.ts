/**
 * What a failed statement broke, the same on both databases: SQLite names it in its error code
 * (SQLITE_CONSTRAINT_UNIQUE…), PostgreSQL in its SQLSTATE (23505…). Drizzle wraps the driver's error in `cause`.
 */
export type ConstraintKind = 'unique' | 'foreign_key' | 'check' | 'not_null'

const SQLITE: Record<string, ConstraintKind> = {
	SQLITE_CONSTRAINT_UNIQUE: 'unique',
	SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
	SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
	SQLITE_CONSTRAINT_CHECK: 'check',
	SQLITE_CONSTRAINT_NOTNULL: 'not_null'
}
const POSTGRES: Record<string, ConstraintKind> = { '23505': 'unique', '23503': 'foreign_key', '23514': 'check', '23502': 'not_null' }

/** The driver's error code of `error` or of the error it wraps (SQLite's name or PostgreSQL's SQLSTATE). */
export function failureCode(error: unknown): string | undefined {
	for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
		const code = (e as { code?: unknown }).code
		if (typeof code === 'string' && (code.startsWith('SQLITE_') || /^[0-9A-Z]{5}$/.test(code))) return code
	}
	return undefined
}

/** Which constraint `error` broke, or null when it is not a constraint violation. */
export function constraintViolation(error: unknown): ConstraintKind | null {
	const code = failureCode(error)
	if (!code) return null
	return SQLITE[code] ?? POSTGRES[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'check' : null)
}
