import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { testPostgresServer } from '../../db/testing'

// A process's tables are built for its own dialect (db/columns.ts), so the worker-pool tests run on PostgreSQL in a
// process of their own with DATABASE_URL set: each worker then opens its own connection to a PostgreSQL database.
test('the licence-check workers answer on PostgreSQL: the worker-pool tests pass there', async () => {
	const child = Bun.spawn([process.execPath, 'test', join(import.meta.dir, 'check-pool.test.ts')], {
		cwd: join(import.meta.dir, '../..'),
		// The URL only chooses the dialect; the test databases are made on the test server.
		env: { ...process.env, DATABASE_URL: 'postgres://test@127.0.0.1/chosen-by-the-tests', TEST_POSTGRES_URL: await testPostgresServer() },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [code, output] = await Promise.all([child.exited, new Response(child.stderr).text()])
	expect({ code, failed: output.match(/^ *(\d+) fail$/m)?.[1] }).toEqual({ code: 0, failed: '0' })
	expect(Number(output.match(/^ *(\d+) pass$/m)?.[1])).toBeGreaterThanOrEqual(7)
}, 120_000)
