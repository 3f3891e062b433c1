/**
 * The server the browser tests drive: a fresh database in a temporary folder, the demo data set,
 * then the real entry point (apps/server/main.ts) with the built site.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedDemo } from '../../db/seed'

const dataDir = mkdtempSync(join(tmpdir(), 'kportal-e2e-'))
process.env.DATA_DIR = dataDir
await seedDemo(join(dataDir, 'portal.sqlite'))
await import('../server/main')
