import { describe, expect, it } from 'bun:test'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The rules of the house about who may import what (DESIGN.md, docs/code-map.md):
 * - a module reaches another only through its door: `modules/<x>` (index.ts, server side),
 *   `modules/<x>/model` (the browser-safe contracts and schemas) or `modules/<x>/reads` (its lists' reads, which
 *   pages make first); a `schema.ts` may name another module's `schema.ts` for a foreign key;
 * - no module reads `db/schema` (that file only gathers the tables for drizzle-kit and the migrations);
 * - `core` imports no feature module, and its index is browser-safe (server-only helpers are `core/server`);
 * - the web app imports only `modules/core`, modules' `model.ts` and `reads.ts`, never server code;
 * - a model.ts or reads.ts, and what it imports, runs in the browser: no node:, bun:, drizzle or elysia;
 * - the server never reaches up into the web app: nothing under apps/server imports from apps/web;
 * - who may do what is core/access.ts's to say: the browser's code never compares the user's role with a role's name;
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

/** A browser-safe door of a module: its model (contracts and schemas) or its lists' reads. */
const isBrowserDoor = (file: string) => file.endsWith('/model.ts') || file.endsWith('/reads.ts')

/** A door of module `m`: its index, its model, its reads, or (for schema files only) its schema. */
function isDoor(edge: Edge): boolean {
	const target = moduleOf(edge.to)!
	const rest = edge.to.slice(`modules/${target}/`.length)
	if (rest === 'index.ts' || rest === 'model.ts' || rest === 'reads.ts') return true
	if (target === 'core' && rest === 'server.ts') return true
	return rest === 'schema.ts' && edge.from.endsWith('/schema.ts')
}

const ROLE_NAME = `['"](?:administrador|gerente|representante)['"]`
/** The signed-in user's role as the browser's code holds it: RolePage's `role`, or `tipo` of the session's user. */
const USER_ROLE = String.raw`(?:\brole|\b(?:user|me)\??\.tipo)`
const ROLE_DECISIONS = [
	new RegExp(`${USER_ROLE}\\s*[!=]==?\\s*${ROLE_NAME}`),
	new RegExp(`${ROLE_NAME}\\s*[!=]==?\\s*${USER_ROLE}`),
	// A hand-written list of roles (['administrador', 'gerente']): who it names is the capability table's to say.
	new RegExp(`\\[\\s*${ROLE_NAME}(?:\\s*,\\s*${ROLE_NAME})*\\s*,?\\s*\\]`),
	// The same list written into a page's markup for the CSS and the server to leave other roles' parts out.
	/data-roles=["'][a-z ]+["']/
]

/** The lines of a source that decide by a role's name instead of asking can() (core/access.ts). */
function roleDecisions(source: string): string[] {
	return source
		.split('\n')
		.filter((line) => ROLE_DECISIONS.some((pattern) => pattern.test(line)))
		.map((line) => line.trim())
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

	it('modules reach each other only through index.ts, model.ts or reads.ts', () => {
		const bad = edges.filter((e) => {
			const from = moduleOf(e.from)
			const to = moduleOf(e.to)
			return from && to && from !== to && !isDoor(e)
		})
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('other code reaches a module only through index.ts, model.ts or reads.ts', () => {
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

	it('the web app imports only browser-safe code: core, models and reads', () => {
		const bad = edges.filter(
			(e) => e.from.startsWith('apps/web/') && moduleOf(e.to) && !(e.to === 'modules/core/index.ts' || isBrowserDoor(e.to))
		)
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it('the server never imports from the web app (issue 38): arrows point down, to the modules', () => {
		const bad = edges.filter((e) => e.from.startsWith('apps/server/') && e.to.startsWith('apps/web/'))
		expect(bad.map((e) => `${e.from} → ${e.spec}`)).toEqual([])
	})

	it("the browser's code asks core/access.ts, never compares the user's role with a role's name (issue 38)", () => {
		const bad = files
			.filter((f) => f.startsWith('apps/web/') && !isTest(f))
			.flatMap((f) => roleDecisions(readFileSync(join(ROOT, f), 'utf8')).map((line) => `${f}: ${line}`))
		expect(bad).toEqual([])
	})

	it('tells a role decision from a role written as data or a form value', () => {
		expect(roleDecisions("if (user?.tipo === 'administrador') x()")).toHaveLength(1)
		expect(roleDecisions("const a = role === 'administrador' || role === 'gerente'")).toHaveLength(1)
		expect(roleDecisions("{'representante' !== me.tipo && <X />}")).toHaveLength(1)
		expect(roleDecisions("const seen = ['administrador', 'gerente'].includes(role)")).toHaveLength(1)
		expect(roleDecisions("{ href: '/users', label: 'Usuários', roles: ['administrador'] },")).toHaveLength(1)
		expect(roleDecisions('<li data-roles="administrador gerente"><a href="/settings">Configurações</a></li>')).toHaveLength(1)
		// The user-type select of the user form, a count of users by type, a badge colour per role: no decision.
		expect(roleDecisions("{values.tipo === 'gerente' && <Field />}")).toEqual([])
		expect(roleDecisions("value={count('administrador')}")).toEqual([])
		expect(roleDecisions("administrador: 'badge-error',")).toEqual([])
	})

	it('the web app refreshes cached reads only by the routes a write names, never by hand-written addresses', () => {
		// lib/query.ts keeps nanoquery's key functions to itself; everyone else names reads by their contracts' routes.
		const byHand = /\b(invalidateKeys|revalidateKeys|mutateCache)\b|startsWith\(\s*['"`]\/api|invalidate\w*:\s*\[\s*['"`]\/api/
		const bad = files.filter(
			(f) => f.startsWith('apps/web/') && f !== 'apps/web/lib/query.ts' && byHand.test(readFileSync(join(ROOT, f), 'utf8'))
		)
		expect(bad).toEqual([])
	})

	it('what a model.ts, a reads.ts or core index imports, transitively, runs in a browser', () => {
		const roots = files.filter((f) => isBrowserDoor(f) || f === 'modules/core/index.ts')
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

/**
 * One data layer for both databases (issue 35): the services use only what SQLite's and PostgreSQL's Drizzle both
 * have. A query is awaited (SQLite's synchronous `.all()`, `.get()`, `.run()`, `.values()` do not exist on
 * PostgreSQL), raw SQL goes through db/query.ts, every transaction through db/transaction.ts, and tables are built
 * with db/columns.ts, never with a dialect's own builders.
 */
describe('one data layer, two databases', () => {
	const SYNC_QUERY = /\)\s*\.(all|get|run|values)\(\)|\b(db|tx|\$client)\.(all|get|run|values)\s*[<(]/
	/** An import of a dialect's own code (a type-only import is erased, and names no builder). */
	const DIALECT_IMPORT = /\bimport\s+(?!type\b)[^'"]*?from ['"]drizzle-orm\/(sqlite-core|pg-core|bun-sqlite|postgres-js)['"]/
	const OWN_TRANSACTION = /\.transaction\(/
	/** Raw SQL that writes read as if it only read: on SQLite it would skip the file's write turn (db/query.ts). */
	const WRITE_AS_READ = /\bsqlRows(?:<[^>]*>)?\(\s*[\w.]+,\s*sql`\s*(insert|update|delete|replace)\b/gi
	// The backup tools handle SQLite files as files (VACUUM INTO, integrity_check) on their own connections.
	const SQLITE_FILE_TOOLS = ['modules/system/archive.ts', 'modules/system/restore.ts', 'modules/system/info.ts', 'modules/system/backup.ts']
	const server = files.filter(
		(f) =>
			(f.startsWith('modules/') || f.startsWith('apps/server/')) && !isTest(f) && !f.includes('/standin') && !SQLITE_FILE_TOOLS.includes(f)
	)

	it('each rule finds what it is written against (a broken pattern would make the rules pass)', () => {
		expect(SYNC_QUERY.test('db.select().from(t).where(x).get()')).toBe(true)
		expect(SYNC_QUERY.test('tx.all<{ n: number }>(sql`select 1`)')).toBe(true)
		expect(SYNC_QUERY.test('const row = (await db.select().from(t))[0]')).toBe(false)
		expect(DIALECT_IMPORT.test("import { alias } from 'drizzle-orm/sqlite-core'")).toBe(true)
		expect(DIALECT_IMPORT.test("import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'")).toBe(false)
		expect('await sqlRows<{ id: number }>(ctx.db, sql`\n\t\tupdate jobs set x = 1 returning id`)'.match(WRITE_AS_READ)).toHaveLength(1)
		expect('await sqlRows<{ n: number }>(db, sql`select count(*) as n from t`)'.match(WRITE_AS_READ)).toBeNull()
	})

	it('no service runs a synchronous SQLite query, writes through sqlRows, imports a dialect of Drizzle or opens its own transaction', () => {
		const bad = server.flatMap((f) => {
			const text = readFileSync(join(ROOT, f), 'utf8')
			const found: string[] = []
			text.split('\n').forEach((line, i) => {
				if (SYNC_QUERY.test(line)) found.push(`${f}:${i + 1} synchronous query: ${line.trim()}`)
				if (OWN_TRANSACTION.test(line)) found.push(`${f}:${i + 1} own transaction: ${line.trim()}`)
			})
			for (const write of text.match(WRITE_AS_READ) ?? []) found.push(`${f}: a write through sqlRows (use sqlWriteRows): ${write.trim()}`)
			if (text.split(/\n(?=import )/).some((statement) => DIALECT_IMPORT.test(statement)))
				found.push(`${f}: imports a dialect of Drizzle (use db/columns.ts, db/query.ts)`)
			return found
		})
		expect(bad).toEqual([])
	})
})
