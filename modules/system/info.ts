import type { Db } from '../../db/client'
import pkg from '../../package.json' with { type: 'json' }
import { lastSettingsUpdate } from '../settings'

/** The portal's version, from package.json (shown as v2.1.0 in the Sistema tab). */
export const VERSION: string = pkg.version

/** The Sistema tab's information card. */
export async function systemInfo(db: Db) {
	const sqlite = db.$client.query('select sqlite_version() as v').get() as { v: string } | null
	let migratedAt: string | null = null
	try {
		const row = db.$client.query('select max(created_at) as at from __drizzle_migrations').get() as { at: number | null } | null
		migratedAt = row?.at ? new Date(Number(row.at)).toISOString() : null
	} catch {}
	const settingsAt = await lastSettingsUpdate(db)
	const lastUpdate =
		[settingsAt, migratedAt]
			.filter((v): v is string => !!v)
			.sort()
			.at(-1) ?? null
	return { version: VERSION, database: `SQLite ${sqlite?.v ?? ''}`.trim(), databaseKind: 'SQLite', lastUpdate, status: 'Online' as const }
}
