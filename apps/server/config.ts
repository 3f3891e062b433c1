import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { AppConfig } from '../../modules/core/server'

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1')

const Env = z.object({
	PORT: z.coerce.number().int().min(1).max(65535).default(3000),
	HOST: z.string().default('0.0.0.0'),
	DATA_DIR: z.string().default('./data'),
	DIST_DIR: z.string().default('./dist'),
	PUBLIC_URL: z.url().optional(),
	TRUST_PROXY: bool.default(false),
	COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
	SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(72).default(12),
	LICENCE_WORKERS: z.coerce.number().int().min(0).max(32).optional(),
	SECRET_KEY: z.string().optional(),
	ASAAS_SANDBOX_URL: z.url().default('https://api-sandbox.asaas.com/v3'),
	ASAAS_PRODUCTION_URL: z.url().default('https://api.asaas.com/v3'),
	WHATSAPP_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
	JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
	METRICS_TOKEN: z.string().min(32, 'METRICS_TOKEN deve ter pelo menos 32 caracteres').optional(),
	DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(5),
	DATABASE_POOL: z.coerce.number().int().min(2).max(200).default(10),
	ADMIN_CNPJ: z.string().optional(),
	ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD deve ter pelo menos 8 caracteres').optional(),
	ADMIN_NOME: z.string().optional()
})

/** Reads and checks the environment; a wrong value stops the start with a message naming it. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
	const parsed = Env.safeParse(env)
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
		throw new Error(`Configuração inválida:\n${lines.join('\n')}`)
	}
	const e = parsed.data
	const secureCookies = e.COOKIE_SECURE === 'auto' ? (e.PUBLIC_URL?.startsWith('https://') ?? false) : e.COOKIE_SECURE === 'true'
	const app: Omit<AppConfig, 'secretKey'> = {
		dataDir: resolve(e.DATA_DIR),
		distDir: resolve(e.DIST_DIR),
		trustProxy: e.TRUST_PROXY,
		secureCookies,
		sessionMaxHours: e.SESSION_MAX_HOURS,
		publicOrigin: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : null,
		licenceWorkers: e.LICENCE_WORKERS ?? defaultLicenceWorkers(),
		asaasUrls: { sandbox: e.ASAAS_SANDBOX_URL.replace(/\/+$/, ''), production: e.ASAAS_PRODUCTION_URL.replace(/\/+$/, '') },
		whatsappPauseMs: e.WHATSAPP_PAUSE_MS,
		jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
		metricsToken: e.METRICS_TOKEN ?? null
	}
	return {
		app,
		port: e.PORT,
		host: e.HOST,
		secretKey: e.SECRET_KEY,
		drainSeconds: e.DRAIN_SECONDS,
		databasePool: e.DATABASE_POOL,
		admin: { cnpj: e.ADMIN_CNPJ, senha: e.ADMIN_PASSWORD, nome: e.ADMIN_NOME }
	}
}

/** One licence-check worker per core beyond the first (up to 4); none on a single core. */
export function defaultLicenceWorkers(cores = availableParallelism()): number {
	return Math.min(4, Math.max(0, cores - 1))
}
