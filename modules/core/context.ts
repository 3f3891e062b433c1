import { AsyncLocalStorage } from 'node:async_hooks'
import { join } from 'node:path'
import type { Db } from '../../db/client'
import type { Clock } from './clock'
import { Metrics } from './metrics'
import { type SecretBox, createSecretBox } from './secrets'

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
	/** The key of the secret box (SECRET_KEY or DATA_DIR/secret.key); the licence workers open the signing key with it. */
	secretKey: Uint8Array
	/** Asaas API base URLs by account environment (ASAAS_SANDBOX_URL, ASAAS_PRODUCTION_URL). */
	asaasUrls: { sandbox: string; production: string }
	/** The pause between two automatic WhatsApp messages, plus up to as much again at random (WHATSAPP_PAUSE_MS). */
	whatsappPauseMs: number
	/** How long a job's lease lasts unrenewed: how soon another instance takes the jobs of one that died (JOB_LEASE_SECONDS). */
	jobLeaseMs: number
	/** The secret that opens GET /metrics to a scraper without a session (METRICS_TOKEN); null: administradores only. */
	metricsToken: string | null
}

/** An HTTP transport, as fetch takes it. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/**
 * How the portal reaches the external systems: the transport of the Asaas and Evolution clients. Production
 * hands in fetch; tests hand in the local stand-ins (modules/asaas, modules/evolution), which speak the same
 * protocol, so the same client code runs in both.
 */
export interface Gateways {
	asaas: FetchLike
	evolution: FetchLike
}

/** Everything a module may depend on, handed in by the composition root: no module-level singletons. */
export interface AppContext {
	db: Db
	clock: Clock
	config: AppConfig
	log: Logger
	/** Seals and opens secrets at rest (core/secrets.ts). */
	secrets: SecretBox
	gateways: Gateways
	/** This process's counters for GET /metrics (core/metrics.ts). */
	metrics: Metrics
}

/** Structured log lines (one JSON object each), so values with line breaks cannot forge entries. */
export type Logger = (event: string, fields?: Record<string, unknown>) => void

/** The id of the request the running code serves (apps/server/plugins/observe.ts), for the log lines it writes. */
const requestIds = new AsyncLocalStorage<string>()

/** Marks the rest of the running request's work (and what it starts) as serving `id`. */
export function enterRequest(id: string) {
	requestIds.enterWith(id)
}

export const currentRequestId = (): string | undefined => requestIds.getStore()

/** One JSON object per line: when, what, the request it served (so one request is followed across instances), its fields. */
export const jsonLogger: Logger = (event, fields = {}) => {
	const requestId = requestIds.getStore()
	console.log(JSON.stringify({ at: new Date().toISOString(), event, ...(requestId ? { requestId } : {}), ...fields }))
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
		secretKey: new Uint8Array(32).fill(7),
		asaasUrls: { sandbox: 'https://api-sandbox.asaas.com/v3', production: 'https://api.asaas.com/v3' },
		whatsappPauseMs: 0,
		jobLeaseMs: 60_000,
		metricsToken: null,
		...overrides
	}
}

/** Where uploaded files live (promotional images...); backups archive this folder with the database. */
export const uploadsDir = (config: Pick<AppConfig, 'dataDir'>) => join(config.dataDir, 'uploads')

/** The context of a running portal (and of the benchmarks): secrets sealed with the config's key, external systems over fetch. */
export function portalContext(parts: Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>): AppContext {
	return {
		...parts,
		secrets: createSecretBox(parts.config.secretKey),
		gateways: { asaas: fetch, evolution: fetch },
		metrics: new Metrics()
	}
}
