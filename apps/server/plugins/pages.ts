import { Elysia, NotFoundError } from 'elysia'
import { brotliCompressSync, constants as zlib } from 'node:zlib'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative } from 'node:path'
import { authGuard, sessionCookieName, validateSession, type SessionUser } from '../../../modules/auth'
import { type DisplayFormats, ROLE_LABELS, denialOf, homePage, initials, mayOpen } from '../../../modules/core'
import type { AppContext } from '../../../modules/core/server'
import { type ThemeSettings, getDisplayFormats, getThemeSettings, themeCss } from '../../../modules/settings'

const TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.webmanifest': 'application/manifest+json',
	'.json': 'application/json',
	'.txt': 'text/plain; charset=utf-8',
	'.woff2': 'font/woff2'
}
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.webmanifest', '.json', '.txt', '.html'])

interface Asset {
	type: string
	body: Uint8Array
	gzip?: Uint8Array
	br?: Uint8Array
	immutable: boolean
}

interface PageTemplate {
	html: string
	csp: string
}

function sha256Base64(text: string): string {
	return new Bun.CryptoHasher('sha256').update(text).digest('base64')
}

/** A CSP that allows exactly the inline scripts the page was built with, and nothing from elsewhere. */
function contentSecurityPolicy(html: string): string {
	const hashes: string[] = []
	for (const match of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
		if (/type="application\/json"/.test(match[1])) continue
		if (match[2].length > 0) hashes.push(`'sha256-${sha256Base64(match[2])}'`)
	}
	return [
		"default-src 'self'",
		`script-src 'self' ${hashes.join(' ')}`.trim(),
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"frame-ancestors 'none'",
		"form-action 'self'"
	].join('; ')
}

function walk(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = join(dir, name)
		return statSync(full).isDirectory() ? walk(full) : [full]
	})
}

/** Reads the built site once: page templates by route, and every asset compressed once (gzip and brotli). */
export function loadSite(distDir: string) {
	const pages = new Map<string, PageTemplate>()
	const assets = new Map<string, Asset>()
	for (const file of walk(distDir)) {
		const rel = `/${relative(distDir, file).split('\\').join('/')}`
		const ext = extname(file)
		if (ext === '.html') {
			const html = readFileSync(file, 'utf8')
			const route = rel === '/index.html' ? '/' : rel.replace(/\/index\.html$/, '').replace(/\.html$/, '')
			pages.set(route, { html, csp: contentSecurityPolicy(html) })
			continue
		}
		const body = new Uint8Array(readFileSync(file))
		const asset: Asset = { type: TYPES[ext] ?? 'application/octet-stream', body, immutable: rel.startsWith('/_astro/') }
		if (COMPRESSIBLE.has(ext) && body.byteLength > 512) {
			asset.gzip = Bun.gzipSync(body, { level: 9 })
			asset.br = new Uint8Array(brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }))
		}
		assets.set(rel, asset)
	}
	return { pages, assets }
}
export type Site = ReturnType<typeof loadSite>

function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * Fills the placeholders the layout leaves for the signed-in user, so the first paint already knows them,
 * and puts the saved theme (tema.*) in as a <style> element and the html's data-tema-modo, so the first
 * paint already has the portal's colours (a style element: the CSP allows inline styles, not scripts).
 * The display formats of the settings (date order, currency, time zone) travel with the user in #session-data,
 * and so do the answers of the page's first reads (`reads`, by address), which the islands' stores start from.
 */
export function renderPage(
	template: string,
	user: SessionUser | null,
	theme: ThemeSettings | null = null,
	formats: DisplayFormats | null = null,
	reads: Record<string, unknown> = {}
): string {
	const json = JSON.stringify(user ? { user, formats, reads } : null).replace(/</g, '\\u003c')
	const themed = theme
		? template
				.replace('</head>', `<style id="kportal-tema">${themeCss(theme).replace(/</g, '')}</style></head>`)
				.replaceAll('__TEMA_MODO__', theme.modo)
		: template.replaceAll('__TEMA_MODO__', 'light')
	return withoutOtherRoles(themed, user)
		.replaceAll('__SESSION_JSON__', json)
		.replaceAll('__USER_TIPO__', user?.tipo ?? '')
		.replaceAll('__USER_NOME__', escapeHtml(user?.nome ?? ''))
		.replaceAll('__USER_INICIAIS__', escapeHtml(user ? initials(user.nome) : ''))
		.replaceAll('__USER_EMAIL__', escapeHtml(user?.email || 'E-mail não informado'))
		.replaceAll('__USER_PAPEL__', user ? ROLE_LABELS[user.tipo] : '')
}

/**
 * Leaves out the menu entries (`<li data-roles="…">`, no nested list) the user's role does not see: the CSS hides them
 * anyway, and on a representante's phone they were a few hundred elements nobody sees (issue 15).
 */
function withoutOtherRoles(html: string, user: SessionUser | null): string {
	if (!user) return html
	return html.replace(/<li data-roles="([^"]*)"[^>]*>[\s\S]*?<\/li>/g, (item, roles: string) =>
		roles.split(/\s+/).includes(user.tipo) ? item : ''
	)
}

/** The access-denied template with the page's own words (the specification's message for that screen). */
function fillDenial(template: string, path: string): string {
	const { title, message } = denialOf(path)
	return template.replaceAll('__NEGADO_TITULO__', escapeHtml(title)).replaceAll('__NEGADO_MENSAGEM__', escapeHtml(message))
}

function serveAsset(asset: Asset, request: Request): Response {
	const accept = request.headers.get('accept-encoding') ?? ''
	const headers: Record<string, string> = {
		'content-type': asset.type,
		'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
		'x-content-type-options': 'nosniff'
	}
	let body = asset.body
	if (asset.br && /\bbr\b/.test(accept)) {
		body = asset.br
		headers['content-encoding'] = 'br'
	} else if (asset.gzip && /\bgzip\b/.test(accept)) {
		body = asset.gzip
		headers['content-encoding'] = 'gzip'
	}
	if (asset.gzip) headers.vary = 'Accept-Encoding'
	return new Response(body as unknown as BodyInit, { headers })
}

/** Built pages that are templates of the server, never served at their own URL. */
const TEMPLATES = new Set(['/login', '/404', '/acesso-negado'])

/**
 * Which built page answers a path for this user: the login without a session, the access-denied screen for a
 * page the user's role may not open (core/access.ts PAGES), the page itself, or the 404 page.
 */
function pageFor(path: string, user: SessionUser | null, site: Site): { route: string; status: number } {
	if (!user) return { route: '/login', status: 200 }
	if (path === '/' || path === '/dashboard') return { route: homePage(user.tipo), status: 200 }
	if (TEMPLATES.has(path) || !site.pages.has(path)) return { route: '/404', status: 404 }
	if (!mayOpen(user.tipo, path)) return { route: '/acesso-negado', status: 403 }
	return { route: path, status: 200 }
}

/** The API reads a page's island makes first (apps/server/page-reads.ts), and how the server answers one. */
export interface FirstReads {
	/** The addresses of the reads, by the route served. */
	reads: Record<string, (search: URLSearchParams, role: SessionUser['tipo']) => string[]>
	/** The portal's own answer to a request (app.handle): the read goes through the same routes, checks and scope. */
	answer: (request: Request) => Promise<Response>
}

/**
 * The answers of the page's first reads, made with the caller's cookie, so the island's first render has its rows
 * instead of a skeleton and a fetch after hydration (issue 15). A read that fails is left out: the island asks.
 */
async function answerReads(first: FirstReads | undefined, route: string, request: Request, user: SessionUser) {
	const reads: Record<string, unknown> = {}
	const addresses = first?.reads[route]?.(new URL(request.url).searchParams, user.tipo) ?? []
	for (const address of addresses) {
		try {
			const response = await first!.answer(
				new Request(new URL(address, request.url), { headers: { cookie: request.headers.get('cookie') ?? '' } })
			)
			if (response.ok && (response.headers.get('content-type') ?? '').includes('application/json')) reads[address] = await response.json()
		} catch {}
	}
	return reads
}

/** The page compressed when the browser takes it (a list page's HTML carries its first rows). */
function compressed(html: string, request: Request): { body: BodyInit; encoding?: string } {
	const accept = request.headers.get('accept-encoding') ?? ''
	if (/\bbr\b/.test(accept))
		return { body: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) as unknown as BodyInit, encoding: 'br' }
	if (/\bgzip\b/.test(accept)) return { body: Bun.gzipSync(html, { level: 6 }) as unknown as BodyInit, encoding: 'gzip' }
	return { body: html }
}

/**
 * Serves the Astro build: assets from memory, and for page URLs the login page when there is no
 * valid session, or the route's shell with the user filled in. HTML is never cached.
 */
export function pagesPlugin(ctx: AppContext, site: Site | null, first?: FirstReads) {
	const cookieName = sessionCookieName(ctx.config)
	return new Elysia({ name: 'pages' }).use(authGuard(ctx)).get(
		'/*',
		async ({ request, cookie }) => {
			const url = new URL(request.url)
			const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '/'
			if (path.startsWith('/api/') || path === '/api' || !site) throw new NotFoundError()
			const asset = site.assets.get(path)
			if (asset) return serveAsset(asset, request)

			const token = cookie[cookieName]?.value
			const user = (await validateSession(ctx.db, ctx.clock, typeof token === 'string' ? token : null))?.user ?? null
			// A relative Location: the Host header is the caller's to choose, so it never names where to go.
			if (user && path === '/login') return new Response(null, { status: 302, headers: { location: '/' } })
			const { route, status } = pageFor(path, user, site)
			const page = site.pages.get(route)
			if (!page) throw new NotFoundError()
			const html = route === '/acesso-negado' ? fillDenial(page.html, path) : page.html
			const reads = user && status === 200 ? await answerReads(first, route, request, user) : {}
			const { body, encoding } = compressed(
				renderPage(html, user, await getThemeSettings(ctx.db), user ? await getDisplayFormats(ctx.db) : null, reads),
				request
			)
			return new Response(body, {
				status,
				headers: {
					...(encoding ? { 'content-encoding': encoding } : {}),
					vary: 'Accept-Encoding',
					'content-type': 'text/html; charset=utf-8',
					'cache-control': 'no-store',
					'content-security-policy': page.csp,
					'x-content-type-options': 'nosniff',
					'referrer-policy': 'same-origin',
					'x-frame-options': 'DENY'
				}
			})
		},
		{ publicRoute: true }
	)
}
