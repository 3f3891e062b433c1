/**
 * The real portal app on a benchmark database (argv: database port: a SQLite file, or the PostgreSQL URL when
 * DATABASE_URL is set), with the licence workers main.ts would start.
 */
import { openDb, openPostgres } from '../../db/client'
import { DIALECT } from '../../db/dialect'
import { createApp } from '../../apps/server/app'
import { readConfig } from '../../apps/server/config'
import { systemClock } from '../../modules/core'
import { portalContext, silentLogger, testConfig } from '../../modules/core/server'

const [database, port] = process.argv.slice(2)
const config = testConfig({ dataDir: '.tmp/bench-data', licenceWorkers: readConfig().app.licenceWorkers })
const db = DIALECT === 'postgres' ? openPostgres(database) : openDb(database)
const app = await createApp(portalContext({ db, clock: systemClock, config, log: silentLogger }))
app.listen({ port: Number(port), hostname: '127.0.0.1' })
console.log('ready')
