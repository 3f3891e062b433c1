/**
 * How the site's scripts are cut into chunks and announced in each page (issue 15), for astro.config.mjs.
 *
 * A page's scripts used to be ~30 small chunks, three import levels deep. Over a phone's connection each level is a
 * round trip (the browser learns of a chunk only once the one importing it has arrived), and so is each batch of six
 * requests on one host, so the island drew late. Now the code pages share comes in three chunks (`CHUNK_GROUPS`), and
 * every page's HTML names all the scripts it will load (`modulePreloads`), so they are all asked for at once.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Whether a source file reaches one of `packages` through its static imports (dynamic imports are chunks of their
 * own and are not followed; type-only imports are erased). Barrels make it cautious: a file importing one plain
 * helper of modules/core counts as reaching zod, because the barrel also re-exports the validators.
 */
function reaches(file, packages, seen = new Map()) {
	if (seen.has(file)) return seen.get(file)
	seen.set(file, false)
	// JSX compiles to imports of react/jsx-runtime that the source does not spell.
	let found = file.endsWith('.tsx') && packages.includes('react')
	if (!found) {
		const source = readFileSync(file, 'utf8')
		found = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?'([^']+)'/gm)].some(([, spec]) => {
			if (!spec.startsWith('.')) return packages.some((p) => spec === p || spec.startsWith(`${p}/`))
			const base = resolve(dirname(file), spec)
			const target = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => /\.tsx?$/.test(f) && existsSync(f))
			return target ? reaches(target, packages, seen) : false
		})
	}
	seen.set(file, found)
	return found
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
	{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
	{
		name: 'common',
		test: (id) =>
			/node_modules[\\/](nanostores|@nanostores[\\/]query)[\\/]/.test(id) || (appSource(id) && !reaches(id, [...ZOD, ...REACT])),
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
