/**
 * bun run demo — the portal with billing and WhatsApp working, without any account: the local Asaas and Evolution
 * stand-ins (the same protocols as the real services), then the portal on a fresh demo database in DATA_DIR
 * (default ./.demo, emptied first), set up through its own API as the demo administrador would: the WhatsApp
 * gateway, the vendor's Asaas account and one for each demo representative, all pointing at the stand-ins (the
 * portal registers its webhooks there). Prints where each one is.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { seedDemo } from '../db/seed'
import { configureDemo, demoLines, startDemoStandins } from './demo-setup'

const port = Number(process.env.PORT ?? 3000)
const asaasPort = Number(process.env.DEMO_ASAAS_PORT ?? 3301)
const evolutionPort = Number(process.env.DEMO_EVOLUTION_PORT ?? 3302)
const dataDir = resolve(process.env.DATA_DIR ?? '.demo')
const portal = `http://localhost:${port}`

rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
const standins = startDemoStandins({ asaas: asaasPort, evolution: evolutionPort })

Object.assign(process.env, {
	DATA_DIR: dataDir,
	PORT: String(port),
	PUBLIC_URL: portal,
	ASAAS_SANDBOX_URL: standins.asaasUrl
})
await seedDemo(join(dataDir, 'portal.sqlite'))
await import('../apps/server/main')
await configureDemo(portal, standins.evolutionUrl)

console.log(`
Demonstração pronta (dados em ${dataDir}, apagados a cada início):
  Portal            ${portal}
${demoLines(standins)}`)
