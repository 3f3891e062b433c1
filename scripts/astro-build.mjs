/**
 * How the site's scripts are cut into chunks and announced in each page (issue 15), for astro.config.mjs.
 *
 * A page's scripts used to be ~30 small chunks, three import levels deep. Over a phone's connection each level is a
 * round trip (the browser learns of a chunk only once the one importing it has arrived), and so is each batch of six
 * requests on one host, so the island drew late. Now the code pages share comes in three chunks (`CHUNK_GROUPS`), and
 * every page's HTML names all the scripts it will load (`modulePreloads`), so they are all asked for at once: eight on
 * an island page (the page's own, React, Astro's React renderer and Rolldown's runtime, the shared components, the
 * shared plain code, the Shell's and the layout's scripts).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A relative import's file, or null for a package or a file that is not TypeScript. */
function resolveSource(from, spec) {
	if (!spec.startsWith('.')) return null
	const base = resolve(dirname(from), spec)
	return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => /\.tsx?$/.test(f) && existsSync(f)) ?? null
}

/**
 * A source file's static imports and re-exports (type-only ones are erased, dynamic imports are chunks of their own).
 * `names` are the bindings a statement takes by name; null when it takes the whole module (default, namespace, bare,
 * or `export *`). `own` are the names the file declares itself.
 */
const parsed = new Map()
function parse(file) {
	if (parsed.has(file)) return parsed.get(file)
	const source = readFileSync(file, 'utf8')
	const statements = [...source.matchAll(/^\s*(import|export)\s+(?!type\b)(?:([\w\s{},*$]*?)\s*from\s*)?'([^']+)'/gm)].map(
		([, kind, clause = '', spec]) => {
			const braces = clause.trim().match(/^\{([^}]*)\}$/)
			const names = braces
				? braces[1]
						.split(',')
						.map((part) => part.trim())
						.filter((part) => part && !part.startsWith('type '))
						.map((part) => part.split(/\s+as\s+/))
				: null
			return { kind, spec, names }
		}
	)
	const own = new Set(
		[...source.matchAll(/^export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|enum|type|interface)\s+([\w$]+)/gm)].map(
			(m) => m[1]
		)
	)
	if (/^export\s+default\b/m.test(source)) own.add('default')
	for (const [, list] of source.matchAll(/^export\s+\{([^}]*)\}\s*$/gm)) {
		for (const part of list.split(',').map((p) => p.trim())) if (part) own.add(part.split(/\s+as\s+/).pop())
	}
	const result = { statements, own }
	parsed.set(file, result)
	return result
}

/**
 * Whether a file reaches one of `packages` when the bindings `names` are taken from it (null: the whole module).
 * A module's own code counts with all its imports. A re-exported binding is followed to the file that declares it,
 * so a page importing one plain helper through modules/core's barrel does not count as reaching zod, which only the
 * barrel's validators import. That is how Rolldown bundles them: the portal's TypeScript has no side effects
 * (package.json), so a barrel's unused re-exports are left out. JSX compiles to imports of react/jsx-runtime that
 * the source does not spell.
 */
function reaches(file, packages, names = null, seen = new Map()) {
	const key = `${file}|${names ? names.join(',') : '*'}|${packages.join(',')}`
	if (seen.has(key)) return seen.get(key)
	seen.set(key, false)
	const { statements, own } = parse(file)
	const viaStatement = (statement, taken) => {
		if (!statement.spec.startsWith('.')) return packages.some((p) => statement.spec === p || statement.spec.startsWith(`${p}/`))
		const target = resolveSource(file, statement.spec)
		return target ? reaches(target, packages, taken, seen) : false
	}
	const ownCode = () =>
		(file.endsWith('.tsx') && packages.includes('react')) ||
		statements.some((st) => st.kind === 'import' && viaStatement(st, st.names?.map(([name]) => name) ?? null))
	let found
	if (names === null) {
		found = ownCode() || statements.some((st) => st.kind === 'export' && viaStatement(st, st.names?.map(([name]) => name) ?? null))
	} else {
		found = names.some((name) => {
			if (own.has(name)) return ownCode()
			for (const st of statements) {
				const entry = st.kind === 'export' && st.names?.find(([orig, alias]) => (alias ?? orig) === name)
				if (entry) return viaStatement(st, [entry[0]])
			}
			const stars = statements.filter((st) => st.kind === 'export' && st.names === null)
			const provider = stars.find((st) => {
				const target = resolveSource(file, st.spec)
				return target ? provides(target, name) : true
			})
			// A name found nowhere: count the whole module rather than guess.
			return provider ? viaStatement(provider, [name]) : reaches(file, packages, null, seen)
		})
	}
	seen.set(key, found)
	return found
}

/** Whether a file exports `name`, itself or through its re-exports. */
function provides(file, name, seen = new Set()) {
	if (seen.has(file)) return false
	seen.add(file)
	const { statements, own } = parse(file)
	if (own.has(name)) return true
	return statements.some((st) => {
		if (st.kind !== 'export') return false
		if (st.names) return st.names.some(([orig, alias]) => (alias ?? orig) === name)
		const target = resolveSource(file, st.spec)
		return target ? provides(target, name, seen) : !st.spec.startsWith('.')
	})
}

const ZOD = ['zod']
const REACT = ['react', 'react-dom', 'lucide-react', '@nanostores/react']

/** A source file of the portal's own (not a package, not a virtual module such as an .astro page's script). */
const appSource = (id) => /[\\/](apps[\\/]web|modules)[\\/][^?]*\.tsx?$/.test(id) && !id.includes('node_modules') && existsSync(id)

/**
 * Rolldown's chunk groups. zod stays in a chunk of its own, loaded only by the forms that validate with it. The code
 * two or more pages or dialogs share, and that does not reach zod, comes in three chunks: React; the shared components
 * (with React); the shared plain code (neither React nor zod, so the login page can load it within its budget).
 */
export const CHUNK_GROUPS = [
	{ name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 40 },
	// With React: Astro's renderer of React islands, which every island page loads.
	{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/, priority: 30 },
	{
		name: 'common',
		test: (id) =>
			/node_modules[\\/](nanostores|@nanostores[\\/]query)[\\/]|^\0vite[\\/]preload-helper/.test(id) ||
			(appSource(id) && !reaches(id, [...ZOD, ...REACT])),
		minShareCount: 2,
		priority: 30
	},
	{
		name: 'ui',
		test: (id) => /node_modules[\\/](lucide-react|@nanostores[\\/]react)[\\/]/.test(id) || (appSource(id) && !reaches(id, ZOD)),
		minShareCount: 2,
		priority: 20
	}
]

/** The chunks a built script imports statically (`import "./x.js"`, `from "./x.js"`; not `import("./x.js")`). */
function staticImports(assets, file) {
	return [...readFileSync(join(assets, file), 'utf8').matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1])
}

/**
 * The `<link rel="modulepreload">` elements a built page needs: every script its module scripts and islands load
 * through static imports, except those the page already names in a `<script src>`.
 */
export function preloadLinks(html, assets) {
	const named = new Set([...html.matchAll(/<script[^>]*\ssrc="\/_astro\/([^"]+\.js)"/g)].map((m) => m[1]))
	const entries = [...new Set([...html.matchAll(/"\/_astro\/([^"]+\.js)"/g)].map((m) => m[1]))]
	const all = new Set(entries)
	for (const file of all) for (const dep of staticImports(assets, file)) all.add(dep)
	return [...all]
		.filter((file) => !named.has(file))
		.map((file) => `<link rel="modulepreload" href="/_astro/${file}">`)
		.join('')
}

/** An Astro integration that writes each page's module preloads after its stylesheet, once the site is built. */
export const modulePreloads = {
	name: 'kportal:module-preloads',
	hooks: {
		'astro:build:done': ({ dir }) => {
			const out = fileURLToPath(dir)
			const assets = join(out, '_astro')
			for (const page of readdirSync(out, { recursive: true }).filter((name) => name.endsWith('.html'))) {
				const file = join(out, page)
				const html = readFileSync(file, 'utf8')
				const links = preloadLinks(html, assets)
				if (links) writeFileSync(file, html.replace(/(<link rel="stylesheet"[^>]*>)/, `$1${links}`))
			}
		}
	}
}
