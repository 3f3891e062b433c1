/**
 * bun run bench:pages — builds the site and prints, per route, the JavaScript and CSS a first visit
 * downloads (gzipped bytes): the page's scripts and stylesheets, the islands it hydrates and every
 * module they import. Targets: login ≤ 90 KB of JavaScript, every other page ≤ 150 KB.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const DIST = resolve('dist')
const LIMITS = { login: 90 * 1024, other: 150 * 1024 }

const build = Bun.spawnSync([process.execPath, 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' })
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1)

const gzipSize = new Map<string, number>()
function gz(file: string): number {
	if (!gzipSize.has(file)) gzipSize.set(file, Bun.gzipSync(readFileSync(file), { level: 9 }).byteLength)
	return gzipSize.get(file)!
}

function urlToFile(url: string, from: string): string {
	return url.startsWith('/') ? join(DIST, url) : resolve(dirname(from), url)
}

/** A module and everything it imports, statically or by dynamic import. */
function moduleGraph(entry: string, seen: Set<string>) {
	if (seen.has(entry)) return
	seen.add(entry)
	const code = readFileSync(entry, 'utf8')
	for (const match of code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+\.js)["']/g)) moduleGraph(urlToFile(match[1], entry), seen)
}

function walk(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = join(dir, name)
		return statSync(full).isDirectory() ? walk(full) : [full]
	})
}

const rows: { route: string; js: number; css: number; limit: number }[] = []
for (const file of walk(DIST).filter((f) => f.endsWith('.html'))) {
	const html = readFileSync(file, 'utf8')
	const route =
		'/' +
		relative(DIST, file)
			.replace(/(^|\/)index\.html$/, '')
			.replace(/\.html$/, '')
	const js = new Set<string>()
	const css = new Set<string>()
	for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) moduleGraph(urlToFile(m[1], file), js)
	for (const m of html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)) moduleGraph(urlToFile(m[1], file), js)
	for (const m of html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) css.add(urlToFile(m[1], file))
	let inline = 0
	for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) inline += Bun.gzipSync(Buffer.from(m[1])).byteLength
	const jsBytes = [...js].reduce((sum, f) => sum + gz(f), inline)
	const cssBytes = [...css].reduce((sum, f) => sum + gz(f), 0)
	rows.push({ route, js: jsBytes, css: cssBytes, limit: route === '/login' ? LIMITS.login : LIMITS.other })
}

rows.sort((a, b) => a.route.localeCompare(b.route))
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
console.log(`\n${'route'.padEnd(28)}${'JS (gzip)'.padStart(12)}${'CSS (gzip)'.padStart(12)}${'limit JS'.padStart(12)}  result`)
let failures = 0
for (const row of rows) {
	const ok = row.js <= row.limit
	if (!ok) failures++
	console.log(
		`${row.route.padEnd(28)}${kb(row.js).padStart(12)}${kb(row.css).padStart(12)}${kb(row.limit).padStart(12)}  ${ok ? 'ok' : 'OVER'}`
	)
}
console.log(`\n${rows.length} pages, ${failures} over the JavaScript limit`)
process.exit(failures > 0 ? 1 : 0)
