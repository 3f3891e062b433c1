import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedDemo } from './seed'

const dirs: string[] = []
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('seed:demo (issue 13, point 5)', () => {
	it('leaves the database and its WAL and SHM readable by the owner only, whatever the umask', async () => {
		const mask = process.umask(0o022)
		try {
			const dataDir = mkdtempSync(join(tmpdir(), 'kportal-seed-'))
			dirs.push(dataDir)
			const dbPath = join(dataDir, 'portal.sqlite')
			const result = await seedDemo(dbPath)
			expect(result.created).toBe(true)
			for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
				expect(existsSync(path), path).toBe(true)
				expect((statSync(path).mode & 0o077).toString(8), path).toBe('0')
			}
		} finally {
			process.umask(mask)
		}
	})
})
