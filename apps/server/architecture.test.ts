import { describe, expect, it } from 'bun:test'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The rules of the house about who may import what (DESIGN.md, README "Layout"):
 * - a module reaches another only through its door: `modules/<x>` (index.ts, server side) or
 *   `modules/<x>/model` (the browser-safe contracts and schemas); a `schema.ts` may name another module's
 *   `schema.ts` for a foreign key;
 * - no module reads `db/schema` (that file only gathers the tables for drizzle-kit and the migrations);
 * - `core` imports no feature module, and its index is browser-safe (server-only helpers are `core/server`);
 * - the web app imports only `modules/core` and modules' `model.ts`, never server code;
 * - a model.ts, and what it imports, runs in the browser: no node:, bun:, drizzle or elysia;
 * - no import cycles, between files or between modules.
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

	it('the web app refreshes cached reads only by the routes a write names, never by hand-written addresses', () => {
		// lib/query.ts keeps nanoquery's key functions to itself; everyone else names reads by their contracts' routes.
		const byHand = /\b(invalidateKeys|revalidateKeys|mutateCache)\b|startsWith\(\s*['"`]\/api|invalidate\w*:\s*\[\s*['"`]\/api/
		const bad = files.filter(
			(f) => f.startsWith('apps/web/') && f !== 'apps/web/lib/query.ts' && byHand.test(readFileSync(join(ROOT, f), 'utf8'))
		)
		expect(bad).toEqual([])
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
