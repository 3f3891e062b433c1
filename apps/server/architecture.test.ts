import { describe, expect, it } from 'bun:test'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The rules of the house about who may import what (DESIGN.md, docs/code-map.md):
 * - a module reaches another only through its door: `modules/<x>` (index.ts, server side) or
 *   `modules/<x>/model` (the browser-safe contracts and schemas); a `schema.ts` may name another module's
 *   `schema.ts` for a foreign key;
 * - no module reads `db/schema` (that file only gathers the tables for drizzle-kit and the migrations);
 * - `core` imports no feature module, and its index is browser-safe (server-only helpers are `core/server`);
 * - the web app imports only `modules/core` and modules' `model.ts`, never server code;
 * - a model.ts, and what it imports, runs in the browser: no node:, bun:, drizzle or elysia;
 * - no import cycles, between files or between modules;
 * - the bot's conversation decides without the database (its facts are read, and its effects written, by the bot's
 *   service).
 */
const ROOT = resolve(import.meta.dir, '../..')
const SERVER_ONLY = /^(node:|bun:|drizzle-orm|elysia|@elysiajs\/)/

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function sourceFiles(): string[] {
	const glob = new Bun.Glob('{apps,modules,db,scripts}/**/*.{ts,tsx,astro}')
	return [...glob.scanSync({ cwd: ROOT })].filter((f) => !f.includes('node_modules') && !f.startsWith('db/migrations'))
}

function importsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8')
	const code = file.endsWith('.astro') ? (text.split('---')[1] ?? '') : text
	return [...code.matchAll(IMPORT)].map((m) => m[1] ?? m[2])
}

/** The repository file an import names, or null for packages. */
function resolveImport(from: string, spec: string): string | null {
	if (!spec.startsWith('.')) return null
	const base = resolve(ROOT, dirname(from), spec)
	for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate)
	}
	return relative(ROOT, base)
}

const moduleOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1] : null)
const isTest = (file: string) => /\.(test|e2e)\.tsx?$/.test(file) || file.endsWith('/testing.ts')

interface Edge {
	from: string
	to: string
	spec: string
}

const files = sourceFiles()
const edges: Edge[] = files.flatMap((from) =>
	importsOf(from).flatMap((spec) => {
		const to = resolveImport(from, spec)
		return to ? [{ from, to, spec }] : []
	})
)
const packageImports = files.flatMap((from) =>
	importsOf(from)
		.filter((spec) => !spec.startsWith('.'))
		.map((spec) => ({ from, spec }))
)

/** The imports that load code when a file runs: `import type` and `export type` are erased before. */
const CODE_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g
const DATABASE = /^(drizzle-orm|bun:sqlite)/

/** Each way `root`, by what it loads and what that loads in turn, reaches drizzle, bun:sqlite or a file of db/. */
function databaseReachedFrom(root: string): string[] {
	const found: string[] = []
	const seen = new Set<string>()
	const walk = (file: string, trail: string[]) => {
		if (seen.has(file)) return
		seen.add(file)
		for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(CODE_IMPORT)) {
			const spec = m[1] ?? m[2]
			const to = resolveImport(file, spec)
			if (DATABASE.test(spec) || to?.startsWith('db/')) found.push([...trail, file, spec].join(' → '))
			else if (to && existsSync(join(ROOT, to))) walk(to, [...trail, file])
		}
	}
	walk(root, [])
	return found
}

/** A door of module `m`: its index, its model, or (for schema files only) its schema. */
function isDoor(edge: Edge): boolean {
	const target = moduleOf(edge.to)!
	const rest = edge.to.slice(`modules/${target}/`.length)
	if (rest === 'index.ts' || rest === 'model.ts') return true
	if (target === 'core' && rest === 'server.ts') return true
	return rest === 'schema.ts' && edge.from.endsWith('/schema.ts')
}

function cycles(graph: Map<string, Set<string>>): string[][] {
	const found: string[][] = []
	const state = new Map<string, 'open' | 'done'>()
	const stack: string[] = []
	const visit = (node: string) => {
		state.set(node, 'open')
		stack.push(node)
		for (const next of graph.get(node) ?? []) {
			if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next])
			else if (!state.has(next)) visit(next)
		}
		stack.pop()
		state.set(node, 'done')
	}
	for (const node of graph.keys()) if (!state.has(node)) visit(node)
	return found
}

describe('architecture', () => {
	it('reads the tree (a broken scan would make every rule pass)', () => {
		expect(files.length).toBeGreaterThan(150)
		expect(edges.length).toBeGreaterThan(500)
	})

	it('modules reach each other only through index.ts or model.ts', () => {
		const bad = edges.filter((e) => {
			const from = moduleOf(e.from)
			const to = moduleOf(e.to)
			return from && to && from !== to && !isDoor(e)
		})
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('other code reaches a module only through index.ts or model.ts', () => {
		const bad = edges.filter((e) => !moduleOf(e.from) && moduleOf(e.to) && !isTest(e.from) && !isDoor(e))
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('no module reads db/schema', () => {
		const bad = edges.filter((e) => moduleOf(e.from) && e.to === 'db/schema.ts')
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('core imports no feature module', () => {
		const bad = edges.filter((e) => moduleOf(e.from) === 'core' && moduleOf(e.to) && moduleOf(e.to) !== 'core')
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('the web app imports only browser-safe code: core and models', () => {
		const bad = edges.filter(
			(e) => e.from.startsWith('apps/web/') && moduleOf(e.to) && !(e.to === 'modules/core/index.ts' || e.to.endsWith('/model.ts'))
		)
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('what a model.ts or core index imports, transitively, runs in a browser', () => {
		const roots = files.filter((f) => f.endsWith('/model.ts') || f === 'modules/core/index.ts')
		const bad: string[] = []
		const seen = new Set<string>()
		const walk = (file: string, via: string) => {
			if (seen.has(file)) return
			seen.add(file)
			for (const p of packageImports.filter((i) => i.from === file && SERVER_ONLY.test(i.spec))) bad.push(`${via} … ${file} → ${p.spec}`)
			for (const e of edges.filter((x) => x.from === file)) walk(e.to, via)
		}
		for (const root of roots) walk(root, root)
		expect(bad).toEqual([])
	})

	it('the bot’s conversation loads nothing that reaches the database, however indirectly', () => {
		expect(databaseReachedFrom('modules/bot/conversation.ts')).toEqual([])
		// The same walk finds the database behind the bot's service: a walk that found nothing would pass anything.
		expect(databaseReachedFrom('modules/bot/service.ts')).toContain('modules/bot/service.ts → modules/bot/store.ts → drizzle-orm')
	})

	it('has no import cycle between files', () => {
		const graph = new Map<string, Set<string>>()
		for (const e of edges) {
			if (isTest(e.from)) continue
			if (!graph.has(e.from)) graph.set(e.from, new Set())
			graph.get(e.from)!.add(e.to)
		}
		expect(cycles(graph).map((c) => c.join(' → '))).toEqual([])
	})

	it('has no import cycle between modules', () => {
		const graph = new Map<string, Set<string>>()
		for (const e of edges) {
			const from = moduleOf(e.from)
			const to = moduleOf(e.to)
			if (!from || !to || from === to || isTest(e.from) || e.from.endsWith('/schema.ts')) continue
			if (!graph.has(from)) graph.set(from, new Set())
			graph.get(from)!.add(to)
		}
		expect(cycles(graph).map((c) => c.join(' → '))).toEqual([])
	})
})

/**
 * One formatter per kind (issue 38, point 5): dates, date-times and money are written by modules/core/format.ts
 * (formatDate/formatBrDate, formatDateTime, formatMoney/formatReais/formatBrl) and nowhere else. Each pattern below is
 * how a copy was written before; tests may still write the text they expect by hand.
 */
const FORMATTER_COPIES: { what: string; pattern: RegExp; example: string }[] = [
	{
		what: 'an ISO date turned around by hand',
		pattern: /\.split\(\s*['"`]-['"`]\s*\)\s*\.reverse\(\)/,
		example: "iso.split('-').reverse().join('/')"
	},
	{
		what: 'a date put together from a match',
		pattern: /\$\{\s*\w+\[3\]\s*\}\/\$\{\s*\w+\[2\]\s*\}\/\$\{\s*\w+\[1\]\s*\}/,
		example: `\`\${m[3]}/\${m[2]}/\${m[1]}\``
	},
	{
		what: 'an Intl date formatter of its own',
		pattern: /\bday:\s*['"]2-digit['"]/,
		example: "new Intl.DateTimeFormat('pt-BR', { day: '2-digit' })"
	},
	{
		what: 'an Intl currency formatter of its own',
		pattern: /style:\s*['"]currency['"]/,
		example: "v.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' })"
	},
	{ what: 'money written by hand', pattern: /R\$\s?\$\{|['"]R\$ ?['"]\s*\+/, example: `\`R$ \${v.toFixed(2)}\`` }
]
const FORMATS_FILE = 'modules/core/format.ts'

describe('one formatter per kind', () => {
	it('each pattern finds the copy it is named for (a broken pattern would make the rule pass)', () => {
		for (const copy of FORMATTER_COPIES) expect(copy.pattern.test(copy.example), copy.what).toBe(true)
		const formats = readFileSync(join(ROOT, FORMATS_FILE), 'utf8')
		expect(FORMATTER_COPIES.filter((c) => c.pattern.test(formats)).length).toBeGreaterThan(0)
	})

	it('no date or money formatter outside modules/core/format.ts', () => {
		const bad = files
			.filter((f) => f !== FORMATS_FILE && !isTest(f))
			.flatMap((f) =>
				readFileSync(join(ROOT, f), 'utf8')
					.split('\n')
					.flatMap((line, i) => FORMATTER_COPIES.filter((c) => c.pattern.test(line)).map((c) => `${f}:${i + 1} ${c.what}: ${line.trim()}`))
			)
		expect(bad).toEqual([])
	})
})
