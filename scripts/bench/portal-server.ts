/** The real portal app on a benchmark database (argv: dbPath port), with the licence workers main.ts would start. */
import { openDb } from '../../db/client'
import { createApp } from '../../apps/server/app'
import { readConfig } from '../../apps/server/config'
import { systemClock } from '../../modules/core'
import { portalContext, silentLogger, testConfig } from '../../modules/core/server'

const [dbPath, port] = process.argv.slice(2)
const config = testConfig({ dataDir: '.tmp/bench-data', licenceWorkers: readConfig().app.licenceWorkers })
const app = await createApp(portalContext({ db: openDb(dbPath), clock: systemClock, config, log: silentLogger }))
app.listen({ port: Number(port), hostname: '127.0.0.1' })
console.log('ready')
