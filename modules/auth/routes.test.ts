import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { MINUTE, HOUR } from '../core'
import { hashToken } from './service'
import { sessions, users } from './schema'

/** A portal with one administrador, signed in. */
async function signedInAdmin() {
	const t = await createTestApp()
	await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
	return { t, cookie: await t.login(CNPJ.admin) }
}

describe('POST /api/auth/login', () => {
	it('signs in with the masked or bare CNPJ and sets an HttpOnly, SameSite=Lax session cookie', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador', nome: 'Ana Admin' })
		const res = await t.call('POST', '/api/auth/login', { body: { cnpj: '11.222.333/0001-81', senha: 'senha-forte-123' } })
		expect(res.status).toBe(200)
		expect(res.json.user).toEqual({ id: 1, cnpj: CNPJ.admin, nome: 'Ana Admin', email: null, tipo: 'administrador' })
		const cookie = res.headers.get('set-cookie')!
		expect(cookie).toMatch(/^kportal_session=[A-Za-z0-9_-]{43};/)
		expect(cookie).toContain('HttpOnly')
		expect(cookie).toContain('SameSite=Lax')
		expect(cookie).toContain('Path=/')
		expect(cookie).not.toContain('Secure')
	})

	it('stores only the SHA-256 of the token, never the token', async () => {
		const { t, cookie } = await signedInAdmin()
		const token = cookie.split('=')[1]
		const rows = await t.db.select().from(sessions)
		expect(rows).toHaveLength(1)
		expect(rows[0].id).toBe(hashToken(token))
		expect(JSON.stringify(rows)).not.toContain(token)
	})

	it('marks the cookie Secure with the __Host- prefix when served over https', async () => {
		const t = await createTestApp({ config: { secureCookies: true } })
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const res = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'senha-forte-123' } })
		expect(res.headers.get('set-cookie')).toMatch(/^__Host-kportal_session=.*Secure/)
	})

	it('tells a wrong password apart from an unknown CNPJ, in words the login screen maps to its toasts', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const wrong = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'errada' } })
		expect(wrong.status).toBe(401)
		expect(wrong.json.message!.toLowerCase()).toContain('senha')
		const unknown = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.rep, senha: 'qualquer' } })
		expect(unknown.status).toBe(401)
		expect(unknown.json.message!.toLowerCase()).toContain('usuário')
		expect(unknown.json.message!.toLowerCase()).not.toContain('senha')
	})

	it('refuses an invalid CNPJ, a missing password and bad JSON with 400 and a pt-BR message', async () => {
		const t = await createTestApp()
		const bad = await t.call('POST', '/api/auth/login', { body: { cnpj: '11222333000182', senha: 'x' } })
		expect(bad.status).toBe(400)
		expect(bad.json.message).toContain('CNPJ inválido')
		const noPassword = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin } })
		expect(noPassword.status).toBe(400)
		expect(noPassword.json.message).toBe('Senha é obrigatória.')
		const wrongType = await t.call('POST', '/api/auth/login', { body: { cnpj: 11222333000181, senha: 'x' } })
		expect(wrongType.status).toBe(400)
		const broken = await t.call('POST', '/api/auth/login', { body: '{"cnpj": "1122' })
		expect(broken.status).toBe(400)
		expect(broken.json.message).toContain('JSON')
	})

	it('refuses a deactivated user', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador', ativo: false })
		const res = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'senha-forte-123' } })
		expect(res.status).toBe(403)
		expect(await t.db.select().from(sessions)).toHaveLength(0)
	})

	it('issues a new token at every sign-in, ignoring one the browser already had', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const planted = 'kportal_session=attacker-chosen-value'
		const res = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'senha-forte-123' }, cookie: planted })
		expect(res.headers.get('set-cookie')).not.toContain('attacker-chosen-value')
		expect((await t.call('GET', '/api/auth/me', { cookie: planted })).status).toBe(401)
	})
})

describe('login throttling', () => {
	it('answers 429 with Retry-After after 5 failures for one CNPJ from one address, without checking the password', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		for (let i = 0; i < 5; i++) {
			expect((await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'errada' } })).status).toBe(401)
		}
		const blocked = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'senha-forte-123' } })
		expect(blocked.status).toBe(429)
		expect(Number(blocked.headers.get('retry-after'))).toBe(15 * 60)
		expect(blocked.json.message).toContain('Muitas tentativas')

		t.clock.advance(15 * MINUTE)
		expect((await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'senha-forte-123' } })).status).toBe(200)
	})

	it('limits one address to 20 failures across CNPJs', async () => {
		const t = await createTestApp()
		const others = ['11444777000161', '45997418000153', '04252011000110', '12ABC34501DE35']
		let n = 0
		for (const cnpj of others) {
			for (let i = 0; i < 5; i++, n++) await t.call('POST', '/api/auth/login', { body: { cnpj, senha: 'x' } })
		}
		expect(n).toBe(20)
		const res = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'x' } })
		expect(res.status).toBe(429)
	})

	it('limits one CNPJ to 50 failures from any address, and a forged X-Forwarded-For does not reset the count', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		// Without a trusted proxy every request here comes from the same socket address; the header changes nothing.
		for (let i = 0; i < 5; i++) {
			await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'x' }, headers: { 'x-forwarded-for': `10.0.0.${i}` } })
		}
		const res = await t.call('POST', '/api/auth/login', {
			body: { cnpj: CNPJ.admin, senha: 'senha-forte-123' },
			headers: { 'x-forwarded-for': '10.9.9.9' }
		})
		expect(res.status).toBe(429)
	})

	it('behind a trusted proxy, an account attacked from many addresses still lets its owner in at once from another (issue 13, point 3)', async () => {
		const t = await createTestApp({ config: { trustProxy: true } })
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const attempt = (senha: string, ip: string) =>
			t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha }, headers: { 'x-forwarded-for': ip } })
		// 10 wrong passwords from three addresses: the account is now slowed down.
		for (let i = 0; i < 10; i++) expect((await attempt('x', `198.51.100.${i % 3}`)).status).toBe(401)
		// An address that has been failing waits, even with the right password…
		const slowed = await attempt('senha-forte-123', '198.51.100.1')
		expect(slowed.status).toBe(429)
		expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(slowed.json.message).toContain('Muitas tentativas')
		// …while the owner, from an address without recent failures, signs in at once.
		expect((await attempt('senha-forte-123', '203.0.113.77')).status).toBe(200)
	}, 30_000)
})

describe('login timing (issue 13, point 9)', () => {
	it('answers an unknown CNPJ about as slowly as a wrong password, and still tells them apart', async () => {
		const t = await createTestApp({ config: { trustProxy: true } })
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const timed = async (cnpj: string, i: number) => {
			const start = performance.now()
			const res = await t.call('POST', '/api/auth/login', {
				body: { cnpj, senha: `errada-${i}` },
				headers: { 'x-forwarded-for': `192.0.2.${i}` }
			})
			expect(res.status).toBe(401)
			return { ms: performance.now() - start, code: res.json.code }
		}
		await timed(CNPJ.rep, 200) // the first unknown CNPJ also makes the dummy hash once
		const unknown: number[] = []
		const wrong: number[] = []
		for (let i = 0; i < 7; i++) {
			const u = await timed(CNPJ.rep, i)
			const w = await timed(CNPJ.admin, 100 + i)
			expect(u.code).toBe('USER_NOT_FOUND')
			expect(w.code).toBe('WRONG_PASSWORD')
			unknown.push(u.ms)
			wrong.push(w.ms)
		}
		const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
		// Both verify one argon2id hash; without the dummy hash the unknown CNPJ answered 14 times faster.
		expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5)
	}, 30_000)
})

describe('sessions', () => {
	it('GET /api/auth/me answers the user, and 401 without a cookie', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador', nome: 'Ana' })
		const cookie = await t.login(CNPJ.admin)
		const me = await t.call('GET', '/api/auth/me', { cookie })
		expect(me.status).toBe(200)
		expect(me.json.user.nome).toBe('Ana')
		expect(me.json.session.expiresAt).toBe('2026-11-20T12:32:00.000Z')
		expect((await t.call('GET', '/api/auth/me')).status).toBe(401)
	})

	it('expires after the configured inactivity and slides forward while used', async () => {
		const { t, cookie } = await signedInAdmin()
		t.clock.advance(25 * MINUTE)
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(200)
		t.clock.advance(25 * MINUTE)
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(200)
		t.clock.advance(33 * MINUTE)
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(401)
		expect(await t.db.select().from(sessions)).toHaveLength(0)
	})

	it('follows the auto-logout setting an administrator saves', async () => {
		const { t, cookie } = await signedInAdmin()
		const saved = await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body: { enabled: true, timeoutMinutes: 5 } })
		expect(saved.status).toBe(200)
		t.clock.advance(8 * MINUTE)
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(401)
	})

	it('ends at the absolute limit however active the user is', async () => {
		const { t, cookie } = await signedInAdmin()
		for (let i = 0; i < 28; i++) {
			t.clock.advance(25 * MINUTE)
			expect((await t.call('POST', '/api/auth/renew', { cookie })).status).toBe(200)
		}
		expect(t.clock.now().getTime()).toBeLessThan(Date.parse('2026-11-20T12:00:00.000Z') + 12 * HOUR)
		t.clock.advance(25 * MINUTE)
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(401)
	})

	it('renew moves the idle expiry forward', async () => {
		const { t, cookie } = await signedInAdmin()
		t.clock.advance(20 * MINUTE)
		const renewed = await t.call('POST', '/api/auth/renew', { cookie })
		expect(renewed.json.session.expiresAt).toBe('2026-11-20T12:52:00.000Z')
	})

	it('writes the session at most once a minute however many calls are made', async () => {
		const { t, cookie } = await signedInAdmin()
		const before = (await t.db.select().from(sessions))[0]!.last_active_at
		for (let i = 0; i < 20; i++) {
			t.clock.advance(2_000)
			await t.call('GET', '/api/auth/me', { cookie })
		}
		expect((await t.db.select().from(sessions))[0]!.last_active_at).toBe(before)
		t.clock.advance(30_000)
		await t.call('GET', '/api/auth/me', { cookie })
		expect((await t.db.select().from(sessions))[0]!.last_active_at).not.toBe(before)
	})

	it('logout deletes the session so the old cookie stops working', async () => {
		const { t, cookie } = await signedInAdmin()
		const out = await t.call('POST', '/api/auth/logout', { cookie })
		expect(out.status).toBe(200)
		expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(401)
		expect(await t.db.select().from(sessions)).toHaveLength(0)
	})

	it('a deactivated user loses their sessions at the next call', async () => {
		const t = await createTestApp()
		const u = await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const cookie = await t.login(CNPJ.admin)
		await t.db.update(users).set({ ativo: false }).where(eq(users.id, u.id))
		expect((await t.call('GET', '/api/auth/me', { cookie })).status).toBe(401)
	})

	it('a changed role takes effect on the next call', async () => {
		const t = await createTestApp()
		const u = await t.createUser({ cnpj: CNPJ.gerente, tipo: 'gerente' })
		const cookie = await t.login(CNPJ.gerente)
		const body = { enabled: true, timeoutMinutes: 30 }
		expect((await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body })).status).toBe(403)
		await t.db.update(users).set({ tipo: 'administrador' }).where(eq(users.id, u.id))
		expect((await t.call('POST', '/api/configuracoes/auto-logout', { cookie, body })).status).toBe(200)
	})

	it('logs sign-in outcomes without the password', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: 'segredo-errado' } })
		await t.login(CNPJ.admin)
		const lines = t.logs.filter((l) => l.event === 'login')
		expect(lines.map((l) => l.fields?.outcome)).toEqual(['failure', 'success'])
		expect(JSON.stringify(t.logs)).not.toContain('segredo-errado')
		expect(JSON.stringify(t.logs)).not.toContain('senha-forte-123')
	})
})
