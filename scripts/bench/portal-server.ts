/** The real portal app on a benchmark database (argv: dbPath port). */
import { openDb } from '../../db/client'
import { createApp } from '../../apps/server/app'
import { silentLogger, systemClock, testConfig } from '../../modules/core'

const [dbPath, port] = process.argv.slice(2)
const app = createApp({ db: openDb(dbPath), clock: systemClock, config: testConfig({ dataDir: '.tmp/bench-data' }), log: silentLogger })
app.listen({ port: Number(port), hostname: '127.0.0.1' })
console.log('ready')
