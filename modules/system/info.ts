import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { onPostgres } from '../../db/dialect'
import { sqlRows } from '../../db/query'
import pkg from '../../package.json' with { type: 'json' }
import { lastSettingsUpdate } from '../settings'

/** The portal's version, from package.json (shown as v2.1.0 in the Sistema tab). */
export const VERSION: string = pkg.version

/** The Sistema tab's information card. */
export async function systemInfo(db: Db) {
	const postgres = onPostgres(db)
	const databaseKind = postgres ? 'PostgreSQL' : 'SQLite'
	// PostgreSQL's server_version reads like "16.4 (Debian 16.4-1.pgdg120+1)": the number is enough.
	const [version] = await sqlRows<{ v: string }>(
		db,
		postgres ? sql`select split_part(current_setting('server_version'), ' ', 1) as v` : sql`select sqlite_version() as v`
	)
	let migratedAt: string | null = null
	try {
		const [row] = await sqlRows<{ at: number | null }>(
			db,
			postgres
				? sql`select max(created_at) as at from drizzle.__drizzle_migrations`
				: sql`select max(created_at) as at from __drizzle_migrations`
		)
		migratedAt = row?.at ? new Date(Number(row.at)).toISOString() : null
	} catch {}
	const settingsAt = await lastSettingsUpdate(db)
	const lastUpdate =
		[settingsAt, migratedAt]
			.filter((v): v is string => !!v)
			.sort()
			.at(-1) ?? null
	return { version: VERSION, database: `${databaseKind} ${version?.v ?? ''}`.trim(), databaseKind, lastUpdate, status: 'Online' as const }
}
