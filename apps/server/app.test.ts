import { describe, expect, it } from 'bun:test'
import { Elysia } from 'elysia'
import { GUARD_MESSAGES } from '../../modules/auth'
import { ROLES, type Role } from '../../modules/core'
import { assertEveryRouteDeclaresAccess } from './app'
import { defaultLicenceWorkers, readConfig } from './config'
import { pathOf } from './plugins/security'
import { CNPJ, createTestApp, refusalOf } from './testing'

async function signedInAs(t: Awaited<ReturnType<typeof createTestApp>>) {
	const cnpjs: Record<Role, string> = { administrador: CNPJ.admin, gerente: CNPJ.gerente, representante: CNPJ.rep }
	const cookies = {} as Record<Role, string>
	for (const tipo of ROLES) {
		await t.createUser({ cnpj: cnpjs[tipo], tipo })
		cookies[tipo] = await t.login(cnpjs[tipo])
	}
	return cookies
}

describe('deny by default', () => {
	it('refuses to build an app with a route that declares no access', () => {
		const app = new Elysia().get('/api/forgotten', () => 'open')
		expect(() => assertEveryRouteDeclaresAccess(app)).toThrow('GET /api/forgotten')
	})

	it('every route of the portal declares who may call it', async () => {
		const t = await createTestApp()
		for (const route of t.app.routes) {
			expect((route.hooks as any).detail?.['x-access']).toBeDefined()
		}
	})
})

describe('the role guard on every route', () => {
	it('answers 401 without a session and 403 to a role not allowed, for every guarded route', async () => {
		const t = await createTestApp()
		const cookies = await signedInAs(t)
		let checked = 0
		for (const route of t.app.routes) {
			const detail = (route.hooks as any).detail
			if (detail['x-access'] === 'public') continue
			const roles = detail['x-roles'] as Role[]
			const path = route.path.replace(/:[^/]+/g, '1')
			const anonymous = await t.call(route.method, path, { body: route.method === 'GET' ? undefined : {} })
			expect(anonymous.status, `${route.method} ${route.path} anónimo`).toBe(401)
			for (const role of ROLES) {
				const res = await t.call(route.method, path, { cookie: cookies[role], body: route.method === 'GET' ? undefined : {} })
				const allowed = roles.includes(role)
				// An allowed role may still be refused by a business rule, but never by the guard.
				if (allowed) {
					expect(res.status, `${route.method} ${route.path} como ${role}`).not.toBe(401)
					expect(res.json?.message, `${route.method} ${route.path} como ${role}`).not.toBe(GUARD_MESSAGES.forbidden)
				} else {
					expect(res.status, `${route.method} ${route.path} como ${role}`).toBe(403)
					expect(res.json.message).toBe(GUARD_MESSAGES.forbidden)
				}
			}
			checked++
		}
		expect(checked).toBeGreaterThanOrEqual(4)
	})
})

describe('CSRF and request hygiene', () => {
	const body = { enabled: true, timeoutMinutes: 45 }

	it('refuses a write from another origin, from no origin, or marked cross-site, and changes nothing', async () => {
		const t = await createTestApp()
		const { administrador: cookie } = await signedInAs(t)
		const attempts: Record<string, string>[] = [
			{ origin: 'https://evil.example' },
			{ origin: '' },
			{ 'sec-fetch-site': 'cross-site', origin: 'http://localhost' },
			{ origin: 'null' }
		]
		for (const headers of attempts) {
			const res = await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body, headers })
			expect(res.status).toBe(403)
			expect(res.json.message).toContain('origem')
		}
		expect((await t.call('GET', '/api/public/auto-logout-config')).json.timeoutMinutes).toBe(30)
		const same = await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body, headers: { 'sec-fetch-site': 'same-origin' } })
		expect(same.status).toBe(200)
		expect((await t.call('GET', '/api/public/auto-logout-config')).json.timeoutMinutes).toBe(45)
	})

	it('refuses form-encoded and text bodies on writes with 415', async () => {
		const t = await createTestApp()
		const { administrador: cookie } = await signedInAs(t)
		for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
			const res = await t.call('POST', '/api/configuracoes/auto-logout', {
				cookie,
				body: JSON.stringify(body),
				headers: { 'content-type': type }
			})
			expect(res.status).toBe(415)
		}
	})

	it('refuses an oversized body with 413 before reading it', async () => {
		const t = await createTestApp()
		const res = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'x'.repeat(300 * 1024) } })
		expect(res.status).toBe(413)
		expect(res.json.message).toContain('limite')
	})

	it('answers unknown API paths with a JSON 404 and never caches API answers', async () => {
		const t = await createTestApp()
		const res = await t.call('GET', '/api/nao-existe')
		expect(res.status).toBe(404)
		expect(refusalOf(res).message).toBe('Recurso não encontrado.')
		expect(res.headers.get('cache-control')).toBe('no-store')
		expect(res.headers.get('x-content-type-options')).toBe('nosniff')
	})

	it('reads the path the router sees: a query string does not hide a route from the CSRF check', async () => {
		expect(pathOf('http://localhost/api/companies?x=/api/licenca/')).toBe('/api/companies')
		expect(pathOf('http://localhost:3000/')).toBe('/')
		expect(pathOf('http://localhost')).toBe('/')
		const t = await createTestApp()
		const { administrador: cookie } = await signedInAs(t)
		const res = await t.call('POST', '/api/configuracoes/auto-logout?next=/api/licenca/verificar', {
			cookie,
			body,
			headers: { origin: 'https://evil.example' }
		})
		expect(res.status).toBe(403)
		expect((await t.call('GET', '/api/public/auto-logout-config')).json.timeoutMinutes).toBe(30)
	})

	it('never reflects a foreign origin in CORS headers', async () => {
		const t = await createTestApp()
		const res = await t.call('GET', '/api/health', { headers: { origin: 'https://evil.example' } })
		expect(res.headers.get('access-control-allow-origin')).toBeNull()
	})
})

describe('auto-logout configuration', () => {
	it('is public to read and defaults to 30 minutes, enabled', async () => {
		const t = await createTestApp()
		const res = await t.call('GET', '/api/public/auto-logout-config')
		expect(res.json).toEqual({ enabled: true, timeoutMinutes: 30 })
	})

	it('accepts 5 to 480 minutes and refuses values outside, changing nothing', async () => {
		const t = await createTestApp()
		const { administrador: cookie } = await signedInAs(t)
		for (const [minutes, status] of [
			[4, 400],
			[5, 200],
			[480, 200],
			[481, 400],
			[30.5, 400]
		] as const) {
			const res = await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body: { enabled: false, timeoutMinutes: minutes } })
			expect(res.status, `${minutes} min`).toBe(status)
			// The words the security tab shows beside the field: the setting's own range.
			if (status === 400) expect(res.json.message).toContain('Tempo de inatividade deve estar entre 5 e 480.')
		}
		expect((await t.call('GET', '/api/public/auto-logout-config')).json).toEqual({ enabled: false, timeoutMinutes: 480 })
		const wrong = await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body: { enabled: 'sim', timeoutMinutes: 30 } })
		expect(wrong.status).toBe(400)
		expect(wrong.json.message).toBe('Logout automático: ligue ou desligue.')
	})
})

describe('GET /api/health', () => {
	it('answers ok while the database answers', async () => {
		const t = await createTestApp()
		const res = await t.call('GET', '/api/health')
		expect(res.status).toBe(200)
		expect(res.json.status).toBe('ok')
	})
})

describe('the test client', () => {
	it('types an answer by its route’s contract, and an address no route answers as unknown (issue 38, point 3)', async () => {
		const t = await createTestApp()
		const health = await t.call('GET', '/api/health?check=1')
		expect(health.json.time).toBe(t.clock.now().toISOString())
		// @ts-expect-error: not a field of the health answer, so reading it does not compile (it was `any`).
		expect(health.json.uptime).toBeUndefined()
		const missing = await t.call('GET', '/api/nao-existe/5')
		// @ts-expect-error: no contract answers this address: the test says what it expects (refusalOf).
		expect(missing.json.message).toBe(refusalOf(missing).message)
	})
})

describe('GET /api/configuracoes', () => {
	it('lists every setting with its default, and never a secret in clear', async () => {
		const t = await createTestApp()
		const cookies = await signedInAs(t)
		await t.db
			.insert((await import('../../modules/settings')).settings)
			.values({ chave: 'app.asaas_api_key', valor: '$aact_hmlg_0123456789abcdef', updated_at: '2026-11-20T00:00:00Z' })
		const admin = await t.call('GET', '/api/configuracoes', { cookie: cookies.administrador })
		const byKey = Object.fromEntries(admin.json.map((e: { chave: string; valor: string }) => [e.chave, e.valor]))
		expect(byKey['app.valor_credito_dia']).toBe('33')
		expect(byKey['app.valor_credito_individual']).toBe('50.00')
		expect(byKey['app.asaas_api_key']).toBe('••••••••cdef')
		expect(admin.text).not.toContain('0123456789abcdef')
		const rep = await t.call('GET', '/api/configuracoes', { cookie: cookies.representante })
		expect(rep.status).toBe(200)
		expect(rep.json.map((e) => e.chave)).not.toContain('app.asaas_api_key')
		expect(rep.json.find((e) => e.chave === 'app.valor_credito_dia')!.valor).toBe('33')
	})
})

describe('licence workers configuration', () => {
	it('starts one worker per core beyond the first, up to 4, and takes LICENCE_WORKERS when set', () => {
		expect([1, 2, 4, 8, 64].map((cores) => defaultLicenceWorkers(cores))).toEqual([0, 1, 3, 4, 4])
		expect(readConfig({ LICENCE_WORKERS: '0' }).app.licenceWorkers).toBe(0)
		expect(readConfig({ LICENCE_WORKERS: '6' }).app.licenceWorkers).toBe(6)
		expect(() => readConfig({ LICENCE_WORKERS: '-1' })).toThrow('LICENCE_WORKERS')
	})
})
