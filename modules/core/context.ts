import { join } from 'node:path'
import type { Db } from '../../db/client'
import type { Clock } from './clock'

export interface AppConfig {
	/** Where uploads, backups and the database live. */
	dataDir: string
	/** The built Astro site; pages are not served when it is missing (API-only tests). */
	distDir: string | null
	/** Trust X-Forwarded-For / X-Forwarded-Host (only behind a reverse proxy that sets them). */
	trustProxy: boolean
	/** Send cookies with Secure (and the __Host- prefix). */
	secureCookies: boolean
	/** Hard limit of a session, however active it is. */
	sessionMaxHours: number
	/** The portal's own origin (https://portal.example) when it runs behind a proxy; null = the request's Host. */
	publicOrigin: string | null
	/** Worker threads that answer licence checks (0 = in the main thread). */
	licenceWorkers: number
}

/** Everything a module may depend on, handed in by the composition root: no module-level singletons. */
export interface AppContext {
	db: Db
	clock: Clock
	config: AppConfig
	log: Logger
}

/** Structured log lines (one JSON object each), so values with line breaks cannot forge entries. */
export type Logger = (event: string, fields?: Record<string, unknown>) => void

export const jsonLogger: Logger = (event, fields = {}) => {
	console.log(JSON.stringify({ at: new Date().toISOString(), event, ...fields }))
}

export const silentLogger: Logger = () => {}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
	return {
		dataDir: '.tmp/test-data',
		distDir: null,
		trustProxy: false,
		secureCookies: false,
		sessionMaxHours: 12,
		publicOrigin: null,
		licenceWorkers: 0,
		...overrides
	}
}

/** Where uploaded files live (promotional images...); backups archive this folder with the database. */
export const uploadsDir = (config: Pick<AppConfig, 'dataDir'>) => join(config.dataDir, 'uploads')
