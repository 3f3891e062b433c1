/**
 * The server the browser tests drive: a fresh database in a temporary folder, the demo data set, the local
 * stand-ins of Evolution and Asaas (the portal reaches them over HTTP with its real clients, and their webhooks
 * come back to it), then the real entry point (apps/server/main.ts) with the built site.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedDemo } from '../../db/seed'
import { startAsaasStandin } from '../../modules/asaas'
import { startEvolutionStandin } from '../../modules/evolution'
import { ASAAS_PORT, EVOLUTION_INSTANCE, EVOLUTION_KEY, EVOLUTION_PORT, PORTAL_PORT } from './ports'

const dataDir = mkdtempSync(join(tmpdir(), 'kportal-e2e-'))
process.env.DATA_DIR = dataDir
const asaas = startAsaasStandin({ port: ASAAS_PORT })
startEvolutionStandin({ port: EVOLUTION_PORT, apiKey: EVOLUTION_KEY, instances: [EVOLUTION_INSTANCE] })
process.env.ASAAS_SANDBOX_URL = asaas.url
process.env.PUBLIC_URL = `http://127.0.0.1:${PORTAL_PORT}`
// Messages a few hundred milliseconds apart: still paced, without slowing the journeys down.
process.env.WHATSAPP_PAUSE_MS = '200'
await seedDemo(join(dataDir, 'portal.sqlite'))
await import('../server/main')
