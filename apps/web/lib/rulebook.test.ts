import { afterAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../../..')
const copies: string[] = []
afterAll(() => {
	for (const copy of copies) rmSync(copy, { recursive: true, force: true })
})

/** What a gerente meets at the reports in the portal at `root` (rulebook-probe.ts, in a process of its own). */
function gerenteAtReports(root: string) {
	const run = Bun.spawnSync([process.execPath, join(root, 'apps/web/lib/rulebook-probe.ts')], { cwd: root })
	if (run.exitCode !== 0) throw new Error(run.stderr.toString())
	return JSON.parse(run.stdout.toString().trim().split('\n').at(-1)!)
}

/** A copy of the portal's code in which one line of core/access.ts reads `to` instead of `from`. */
function portalWith(from: string, to: string): string {
	const copy = mkdtempSync(join(tmpdir(), 'kportal-rulebook-'))
	copies.push(copy)
	for (const part of ['apps', 'modules', 'db', 'package.json', 'tsconfig.json'])
		cpSync(join(ROOT, part), join(copy, part), { recursive: true })
	symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
	const access = join(copy, 'modules/core/access.ts')
	const text = readFileSync(access, 'utf8')
	expect(text).toContain(from)
	writeFileSync(access, text.replace(from, to))
	return copy
}

describe('one rulebook (issue 38, point 1)', () => {
	it('a capability changed in core/access.ts alone moves the API, the page, the menu and the island together', () => {
		expect(gerenteAtReports(ROOT)).toEqual({ api: 403, page: 'denied', menu: false, island: 'denied' })
		const gerentesReport = portalWith("\t'reports.view': ADMIN,\n", "\t'reports.view': STAFF_MANAGERS,\n")
		expect(gerenteAtReports(gerentesReport)).toEqual({ api: 200, page: 'served', menu: true, island: 'shown' })
	}, 60_000)
})
