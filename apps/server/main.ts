import { existsSync, mkdirSync } from 'node:fs'
import { openPortalDatabase } from '../../db/migrate'
import { ensureFirstAdmin, generatePassword } from '../../modules/auth'
import { rebuildCreditBalances } from '../../modules/credits'
import { sealSigningKeys } from '../../modules/licensing'
import { importPromoFiles } from '../../modules/resellers'
import { sealPlaintextSettings } from '../../modules/settings'
import { scheduleJobs } from '../../modules/jobs'
import { formatCnpj, isValidCnpj, normalizeCnpj, systemClock } from '../../modules/core'
import { type AppConfig, jsonLogger, loadSecretKey, portalContext, uploadsDir } from '../../modules/core/server'
import { writePidFile } from '../../modules/system'
import { appJobs, createApp, createServices } from './app'
import { readConfig } from './config'
import { loadSite } from './plugins/pages'

/** The documented default sign-in CNPJ of the first administrator when ADMIN_CNPJ is not set. */
const DEFAULT_ADMIN_CNPJ = '11222333000181'
const MAX_BODY_BYTES = 8 * 1024 * 1024

// The database, its WAL, uploads and backups are readable by the portal's own user only.
process.umask(0o077)
const { app: settings, ...config } = readConfig()
mkdirSync(settings.dataDir, { recursive: true })
const appConfig: AppConfig = { ...settings, secretKey: loadSecretKey(settings.dataDir, config.secretKey) }
mkdirSync(uploadsDir(appConfig), { recursive: true })
const db = await openPortalDatabase(appConfig.dataDir, { poolSize: config.databasePool })
// The cached per-representative credit totals are recomputed from the ledger on every start.
await rebuildCreditBalances(db)
const ctx = portalContext({ db, clock: systemClock, config: appConfig, log: jsonLogger })
// Secrets saved in clear by an older version are sealed now (idempotent).
await sealPlaintextSettings(db, ctx.secrets)
await sealSigningKeys(db, ctx.secrets)
// Promotional images an older version kept in DATA_DIR move into the database, where every process reads them.
await importPromoFiles(db, systemClock, appConfig.dataDir)

const adminCnpj = normalizeCnpj(config.admin.cnpj ?? DEFAULT_ADMIN_CNPJ)
if (!isValidCnpj(adminCnpj)) throw new Error(`ADMIN_CNPJ inválido: ${config.admin.cnpj}`)
const adminPassword = config.admin.senha ?? generatePassword()
if (await ensureFirstAdmin(db, systemClock, { cnpj: adminCnpj, senha: adminPassword, nome: config.admin.nome })) {
	console.log(`Administrador inicial criado. CNPJ: ${formatCnpj(adminCnpj)}`)
	if (!config.admin.senha) console.log(`Senha gerada (exibida só agora, anote-a): ${adminPassword}`)
}

const site = appConfig.distDir && existsSync(appConfig.distDir) ? loadSite(appConfig.distDir) : null
if (!site) console.warn(`Site não encontrado em ${appConfig.distDir}: rode "bun run build". Só a API será servida.`)

const services = await createServices(ctx)
const app = (await createApp(ctx, services, site))
	.use(scheduleJobs(ctx, appJobs(ctx, services)))
	.listen({ port: config.port, hostname: config.host, maxRequestBodySize: MAX_BODY_BYTES })

writePidFile(appConfig.dataDir)
console.log(`Portal em http://localhost:${app.server?.port}`)

// Ctrl+C ends the portal at once. Stopped by its orchestrator (SIGTERM: docker stop, a rolling update), it drains:
// the readiness probe answers 503 at once, so the balancer stops sending it requests; for DRAIN_SECONDS it still
// answers what comes, then it lets the requests under way finish and ends.
process.once('SIGINT', () => {
	console.error('Sinal SIGINT recebido: encerrando o portal.')
	process.exit(0)
})
process.once('SIGTERM', async () => {
	console.error(`Sinal SIGTERM recebido: encerrando o portal em ${config.drainSeconds} s.`)
	services.lifecycle.draining = true
	await Bun.sleep(config.drainSeconds * 1000)
	await app.stop()
	services.licence.close()
	process.exit(0)
})
// Webhook events a stopped process left unhandled are taken up at once, not at the next tick.
void services.asaasInbox.processDue().catch((error) => ctx.log('job.failed', { job: 'billing.webhook-inbox', message: String(error) }))
