/**
 * bun run demo:cluster — the portal as a cluster on this machine: a throw-away PostgreSQL (or the server DATABASE_URL
 * names: a new database is created there), three portal instances (apps/server/main.ts) on it with the demo data, and
 * a small round-robin front (apps/cluster/front.ts) that sends each request to the next ready instance, with the
 * local Asaas and Evolution as `bun run demo` has them. Prints the address; each instance's log lines are shown with
 * its number, and the request id every answer carries (x-request-id) follows a request across them. Try stopping an
 * instance (`kill -9` its pid): the front skips it, its jobs pass to another after JOB_LEASE_SECONDS.
 */
import { startPostgresCluster } from '../db/postgres-cluster'

const given = process.env.DATABASE_URL?.trim()
const server = given ? null : await startPostgresCluster()
// Set before the portal's modules load: their tables are built for PostgreSQL (db/dialect.ts).
process.env.DATABASE_URL = given || server!.url
const { startPortalCluster } = await import('../apps/cluster/harness')
const { demoLines } = await import('./demo-setup')

const port = Number(process.env.PORT ?? 3000)
const cluster = await startPortalCluster({
	serverUrl: process.env.DATABASE_URL,
	site: true,
	frontPort: port,
	echoLogs: true,
	env: { JOB_LEASE_SECONDS: process.env.JOB_LEASE_SECONDS ?? '15' }
})

async function stop() {
	await cluster.stop()
	await server?.stop()
	process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)

console.log(`
Demonstração em cluster pronta: ${cluster.instances.length} instâncias do portal num PostgreSQL${server ? ' descartável' : ''}.
  Portal            http://localhost:${port}  (o front reparte as requisições entre as instâncias)
${cluster.instances.map((i) => `  instância ${i.index + 1}       ${i.url}  (pid ${i.pid})`).join('\n')}
${demoLines(cluster)}`)
