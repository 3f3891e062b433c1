import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { createTestDb } from '../../../db/testing'
import { hashPassword, users } from '../../../modules/auth'
import { fixedClock, isoDateInSaoPaulo, oneMonthBefore } from '../../../modules/core'
import { saveSettings } from '../../../modules/settings'
import { portalContext, silentLogger, testConfig } from '../../../modules/core/server'
import { createApp, createServices } from '../app'
import { CNPJ } from '../testing'
import { loadSite, renderPage } from './pages'

function page(title: string) {
	return `<!doctype html><html data-role="__USER_TIPO__"><head><script>console.log('theme')</script><script type="application/json" id="session-data">__SESSION_JSON__</script></head><body><h1>${title}</h1><p>__USER_NOME__</p></body></html>`
}

function fakeSite() {
	const dist = mkdtempSync(join(tmpdir(), 'kportal-dist-'))
	for (const [route, title] of [
		['login', 'Entrar'],
		['dashboard', 'Dashboard'],
		['credits', 'Créditos'],
		['companies', 'Empresas'],
		['representatives', 'Representantes'],
		['notices', 'Avisos'],
		['profile', 'Meu Perfil'],
		['settings', 'Configurações'],
		['activities', 'Histórico de Atividades'],
		['reports', 'Relatórios'],
		['carnes', 'Carnês'],
		['autocompra-creditos', 'Autocompra de Créditos'],
		['acesso-negado', 'Acesso negado']
	]) {
		mkdirSync(join(dist, route), { recursive: true })
		writeFileSync(join(dist, route, 'index.html'), page(title))
	}
	writeFileSync(join(dist, '404.html'), page('Page Not Found'))
	mkdirSync(join(dist, '_astro'))
	writeFileSync(join(dist, '_astro', 'app.abc123.js'), `export const x = ${JSON.stringify('y'.repeat(5000))}`)
	writeFileSync(join(dist, 'favicon.svg'), '<svg/>')
	return loadSite(dist)
}

async function setup() {
	const db = await createTestDb()
	const now = '2026-11-20T12:00:00.000Z'
	for (const [cnpj, tipo, nome] of [
		[CNPJ.admin, 'administrador', 'Ana <b>Admin</b>'],
		[CNPJ.rep, 'representante', 'Rafa']
	] as const) {
		await db.insert(users).values({ cnpj, tipo, nome, senha_hash: await hashPassword('senha-forte-123'), created_at: now, updated_at: now })
	}
	const ctx = portalContext({ db, clock: fixedClock(now), config: testConfig(), log: silentLogger })
	const app = await createApp(ctx, await createServices(ctx), fakeSite())
	const get = (path: string, headers: Record<string, string> = {}, origin = 'http://localhost') =>
		app.handle(new Request(`${origin}${path}`, { headers }))
	const login = async (cnpj: string) => {
		const res = await app.handle(
			new Request('http://localhost/api/auth/login', {
				method: 'POST',
				headers: { origin: 'http://localhost', 'content-type': 'application/json' },
				body: JSON.stringify({ cnpj, senha: 'senha-forte-123' })
			})
		)
		return (res.headers.get('set-cookie') ?? '').split(';')[0]
	}
	return { get, login, db, ctx }
}

describe('GET /login with a session (issue 13, point 6)', () => {
	it('redirects to the relative /, never to the host the Host header names', async () => {
		const { get, login } = await setup()
		const cookie = await login(CNPJ.admin)
		// The server builds the request URL from the Host header: an attacker's Host arrives as the URL's host.
		const res = await get('/login', { cookie, host: 'evil.example' }, 'http://evil.example')
		expect(res.status).toBe(302)
		expect(res.headers.get('location')).toBe('/')
	})
})

describe('pages', () => {
	it('serves the login page at any page URL without a session, never cached', async () => {
		const { get } = await setup()
		for (const path of ['/', '/companies', '/nao-existe']) {
			const res = await get(path)
			expect(res.status).toBe(200)
			expect(await res.text()).toContain('<h1>Entrar</h1>')
			expect(res.headers.get('cache-control')).toBe('no-store')
		}
	})

	it('serves the route shell with the user filled in, escaped, and a CSP allowing only its inline scripts', async () => {
		const { get, login } = await setup()
		const cookie = await login(CNPJ.admin)
		const res = await get('/companies', { cookie })
		const html = await res.text()
		expect(html).toContain('<h1>Empresas</h1>')
		expect(html).toContain('data-role="administrador"')
		expect(html).toContain('Ana &#60;b&#62;Admin&#60;/b&#62;')
		expect(html).toContain('"nome":"Ana \\u003cb>Admin\\u003c/b>"')
		const csp = res.headers.get('content-security-policy')!
		const hash = new Bun.CryptoHasher('sha256').update("console.log('theme')").digest('base64')
		expect(csp).toContain(`'sha256-${hash}'`)
		expect(csp).toContain("frame-ancestors 'none'")
		expect(csp).not.toContain("unsafe-inline' 'sha")
	})

	it('answers / with the dashboard, or the credits screen for a representante, and unknown paths with 404', async () => {
		const { get, login } = await setup()
		expect(await (await get('/', { cookie: await login(CNPJ.admin) })).text()).toContain('<h1>Dashboard</h1>')
		const rep = await login(CNPJ.rep)
		expect(await (await get('/', { cookie: rep })).text()).toContain('<h1>Créditos</h1>')
		const missing = await get('/nao-existe', { cookie: rep })
		expect(missing.status).toBe(404)
		expect(await missing.text()).toContain('Page Not Found')
		const toLogin = await get('/login', { cookie: rep })
		expect(toLogin.status).toBe(302)
	})

	it('serves hashed assets compressed once, with long-lived immutable caching', async () => {
		const { get } = await setup()
		const br = await get('/_astro/app.abc123.js', { 'accept-encoding': 'gzip, br' })
		expect(br.headers.get('content-encoding')).toBe('br')
		expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
		expect(br.headers.get('vary')).toBe('Accept-Encoding')
		const gz = await get('/_astro/app.abc123.js', { 'accept-encoding': 'gzip' })
		expect(gz.headers.get('content-encoding')).toBe('gzip')
		const plain = await get('/_astro/app.abc123.js')
		expect(plain.headers.get('content-encoding')).toBeNull()
		expect((await plain.text()).length).toBeGreaterThan(5000)
		expect((await get('/favicon.svg')).headers.get('cache-control')).toBe('public, max-age=3600')
	})

	it('writes the display formats of the settings into the page with the user (issue 14, point 6)', async () => {
		const { get, login, db, ctx } = await setup()
		const cookie = await login(CNPJ.admin)
		const session = async () => {
			const html = await (await get('/companies', { cookie })).text()
			return JSON.parse(/<script type="application\/json" id="session-data">(.*?)<\/script>/.exec(html)![1])
		}
		expect((await session()).formats).toEqual({ dateFormat: 'DD/MM/YYYY', currency: 'BRL', timeZone: 'America/Sao_Paulo' })
		await saveSettings(db, fixedClock('2026-11-20T12:00:00.000Z'), ctx.secrets, [
			{ chave: 'app.formato_data', valor: 'YYYY-MM-DD' },
			{ chave: 'app.moeda', valor: 'USD' }
		])
		expect((await session()).formats).toEqual({ dateFormat: 'YYYY-MM-DD', currency: 'USD', timeZone: 'America/Sao_Paulo' })
		// The login page (no session) carries nothing.
		expect(await (await get('/companies')).text()).toContain('id="session-data">null</script>')
	})

	it("answers the page's first reads into it, for the view in its address, as the API answers them (issue 15)", async () => {
		const { get, login } = await setup()
		const reads = async (path: string, cookie: string) => {
			const html = await (await get(path, { cookie })).text()
			return JSON.parse(/<script type="application\/json" id="session-data">(.*?)<\/script>/.exec(html)![1]).reads
		}
		const admin = await login(CNPJ.admin)
		const companies = await reads('/companies?search=Padaria&sort=cnpj&order=desc&limit=50&status=bogus', admin)
		// The island's store key: the view read from the address (an unknown filter value falls back to its default).
		const key = '/api/companies?page=1&limit=50&search=Padaria&status=todas&avisos=todas&sort=cnpj&order=desc'
		expect(Object.keys(companies)).toEqual([key])
		expect(companies[key]).toEqual(await (await get(key, { cookie: admin })).json())
		expect(companies[key].pagination).toMatchObject({ page: 1, limit: 50 })
		// The representante's / is Créditos: its two lists, in its own scope; pages without reads carry none.
		const rep = await login(CNPJ.rep)
		expect(Object.keys(await reads('/', rep)).sort()).toEqual([
			'/api/configuracoes',
			'/api/credits?kind=pool&page=1&limit=20&sort=id&order=desc',
			'/api/credits?kind=transfer&page=1&limit=20&sort=id&order=desc'
		])
		expect(await reads('/dashboard', admin)).toMatchObject({ '/api/dashboard/stats': { totalCompanies: 0 } })
		// The administrador's /representatives is the list, for the view in its address.
		const representatives = await reads('/representatives?search=Silva&sort=cidade', admin)
		const listKey = '/api/representatives?search=Silva&sort=cidade&order=asc'
		expect(Object.keys(representatives)).toEqual([listKey])
		expect(representatives[listKey]).toEqual(await (await get(listKey, { cookie: admin })).json())
		// The notices are the representante's own: the same answers the API gives them.
		const notices = await reads('/notices', rep)
		expect(Object.keys(notices)).toEqual(['/api/notices/general', '/api/notices/individual'])
		expect(notices['/api/notices/individual']).toEqual(await (await get('/api/notices/individual', { cookie: rep })).json())
		expect(await reads('/profile', rep)).toEqual({ '/api/users/me': await (await get('/api/users/me', { cookie: rep })).json() })
		// A page the role may not open answers no read of it.
		expect(await reads('/settings', rep)).toEqual({})
		expect(await reads('/autocompra-creditos', admin)).toEqual({})

		// The history, for the view in its address; the carnês' first page whatever page the address names.
		const activitiesKey = '/api/activities?page=1&limit=20&search=Padaria&type=info&inicio=2026-11-01'
		expect(await reads('/activities?search=Padaria&type=info&inicio=2026-11-01&fim=ontem', admin)).toEqual({
			[activitiesKey]: await (await get(activitiesKey, { cookie: admin })).json()
		})
		const carnes = await reads('/carnes?page=3', rep)
		expect(Object.keys(carnes)).toEqual(['/api/carnes?page=1&limit=20'])
		expect(carnes['/api/carnes?page=1&limit=20']).toMatchObject({ carnes: [], pagination: { page: 1 } })
		// The report the screen opens on: the general one of the month up to today, in São Paulo days.
		const today = isoDateInSaoPaulo(new Date())
		const reportKey = `/api/reports?tipo=geral&inicio=${oneMonthBefore(today)}&fim=${today}`
		expect(await reads('/reports', admin)).toEqual({ [reportKey]: await (await get(reportKey, { cookie: admin })).json() })
		// The representante's self-purchase: the prices and their own balance.
		const purchase = await reads('/autocompra-creditos', rep)
		expect(Object.keys(purchase)).toEqual(['/api/configuracoes', '/api/credits/available'])
		expect(purchase['/api/credits/available']).toEqual({ total: 0 })
	})

	it('leaves out the menu entries of other roles (issue 15)', () => {
		const menu =
			'<ul><li data-roles="administrador gerente"><a href="/users">Usuários</a></li><li><a href="/profile">Perfil</a></li><li data-roles="representante" class="x"><a href="/carnes">Carnês</a></li></ul>'
		const user = (tipo: 'administrador' | 'representante') => ({ id: 1, cnpj: '1', nome: 'N', email: null, tipo }) as never
		expect(renderPage(menu, user('representante'))).toBe(
			'<ul><li><a href="/profile">Perfil</a></li><li data-roles="representante" class="x"><a href="/carnes">Carnês</a></li></ul>'
		)
		expect(renderPage(menu, user('administrador'))).toBe(
			'<ul><li data-roles="administrador gerente"><a href="/users">Usuários</a></li><li><a href="/profile">Perfil</a></li></ul>'
		)
		expect(renderPage(menu, null)).toBe(menu)
	})

	it('sends the page compressed when the browser takes it', async () => {
		const { get, login } = await setup()
		const cookie = await login(CNPJ.admin)
		const gz = await get('/companies', { cookie, 'accept-encoding': 'gzip, deflate, br' })
		expect(gz.headers.get('content-encoding')).toBe('br')
		expect(gz.headers.get('vary')).toBe('Accept-Encoding')
		expect(brotliDecompressSync(await gz.arrayBuffer()).toString()).toContain('<h1>Empresas</h1>')
		expect((await get('/companies', { cookie, 'accept-encoding': 'gzip' })).headers.get('content-encoding')).toBe('gzip')
		expect((await get('/companies', { cookie })).headers.get('content-encoding')).toBeNull()
	})

	it('never serves the database or files outside the site', async () => {
		const { get } = await setup()
		for (const path of ['/data/portal.sqlite', '/../package.json', '/%2e%2e/package.json', '/.git/config']) {
			const text = await (await get(path)).text()
			expect(text).toContain('<h1>Entrar</h1>')
		}
	})
})
