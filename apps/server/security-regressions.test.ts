// Regressions found by the security review against a running server: each test reproduces the attack
// or the bad input, and fails if the fix is undone.
import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies } from '../../modules/companies'
import { TEST_IMAGES, testWorld, pngChunk, CNPJ, createTestApp } from './testing'

/** The full company body as the edit dialog sends it with PUT. */
function fullBody(c: Record<string, unknown>) {
	const keys = [
		'razao',
		'cnpj',
		'cnpj_representante',
		'endereco',
		'bairro',
		'cidade',
		'uf',
		'cep',
		'fone',
		'email',
		'link',
		'nterminais',
		'ativarapi',
		'evo_instancia',
		'validade_certificado',
		'validade_licenca',
		'valor_mensal',
		'dia_venc',
		'obs',
		'exibir_aviso',
		'bloqueado',
		'bloqueadopdv',
		'bloqueado_kchef',
		'bloqueado_katelie',
		'bloqueado_kprevenda'
	]
	return Object.fromEntries(keys.map((k) => [k, c[k]]))
}

describe('review P0: licence dates without paying', () => {
	it('refuses a gerente who extends a licence through PUT /api/companies/:id (PATCH already refuses it)', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2026-11-25' })
		const res = await t.call('PUT', `/api/companies/${c.codigo}`, {
			cookie: t.cookies.gerente,
			body: { ...fullBody(c), validade_licenca: '2099-12-31' }
		})
		expect(res.status).toBe(403)
		expect((await t.db.select({ v: companies.validade_licenca }).from(companies).where(eq(companies.codigo, c.codigo)))[0]!.v).toBe(
			'2026-11-25'
		)
	})

	it('refuses a gerente who creates a company with a licence date already set', async () => {
		const t = await testWorld()
		const res = await t.postCompany(t.cookies.gerente, { validade_licenca: '2099-01-01' })
		expect(res.status).toBe(403)
	})
})

describe('review P0: login throttling under a parallel burst', () => {
	it('checks at most 5 passwords for one CNPJ from one address, even when the guesses arrive together', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const guesses = Array.from({ length: 15 }, (_, i) =>
			t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.admin, senha: `errada-${i}` } })
		)
		const statuses = (await Promise.all(guesses)).map((r) => r.status)
		expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5)
		expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10)
	}, 30_000)
})

describe('review P1: company search', () => {
	it('counts the matches of an administrador search of 3+ characters', async () => {
		const t = await testWorld()
		for (let i = 0; i < 3; i++) await t.companyVia({ razao: `Padaria Estrela ${i}` })
		const res = await t.call('GET', '/api/companies?page=1&limit=2&search=Estrela', { cookie: t.cookies.admin })
		expect(res.status).toBe(200)
		expect(res.json.companies).toHaveLength(2)
		expect(res.json.pagination).toMatchObject({ total: 3, totalPages: 2, hasNext: true })
	})

	it('answers a search containing a NUL character with 200 or 400, never 500', async () => {
		const t = await testWorld()
		await t.companyVia({ razao: 'Padaria Estrela' })
		for (const cookie of [t.cookies.admin, t.cookies.rep]) {
			const res = await t.call('GET', `/api/companies?search=${encodeURIComponent('abc\u0000')}`, { cookie })
			expect([200, 400]).toContain(res.status)
		}
	})
})

describe('review P2: notice search with LIKE wildcards', () => {
	it('finds a notice whose title contains % or _ when searched literally', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const admin = await t.login(CNPJ.admin)
		const created = await t.call('POST', '/api/notices/general', {
			cookie: admin,
			body: { titulo: 'Desconto de 50% hoje', texto: 'codigo promo_natal', urgente: 0, ativo: 1 }
		})
		expect(created.status).toBeLessThan(300)
		const byPercent = await t.call('GET', `/api/notices/general?search=${encodeURIComponent('50%')}`, { cookie: admin })
		expect(byPercent.json).toHaveLength(1)
		const byUnderscore = await t.call('GET', `/api/notices/general?search=${encodeURIComponent('promo_natal')}`, { cookie: admin })
		expect(byUnderscore.json).toHaveLength(1)
	})
})

describe('hostile parameters', () => {
	it('accepts only plain positive integers as ids', async () => {
		const t = await testWorld()
		const c = await t.companyVia()
		expect((await t.call('GET', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin })).status).toBe(200)
		for (const id of ['0x1', '1e0', '01', '-1', '1.0', '0', ' 1', '99999999999999999999']) {
			const res = await t.call('GET', `/api/companies/${encodeURIComponent(id)}`, { cookie: t.cookies.admin })
			expect(res.status, id).toBe(400)
			expect(res.json.message).toContain('Identificador inválido')
		}
	})

	it('words type and unknown-field errors without internal names', async () => {
		const t = await testWorld()
		const numeric = await t.call('POST', '/api/auth/login', { body: { cnpj: 11222333000181, senha: 'x' } })
		expect(numeric.json.message).toContain('CNPJ inválido')
		const c = await t.companyVia()
		const extra = await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin, body: { manutencao: 'S' } })
		expect(extra.status).toBe(400)
		expect(extra.json.message).not.toContain('root')
	})

	it('serves uploaded images sandboxed, so nothing in them can run', async () => {
		const t = await testWorld()
		// A well-formed PNG can still carry markup in a text chunk.
		const { png } = TEST_IMAGES
		const polyglot = Buffer.concat([
			png.subarray(0, 33),
			pngChunk('tEXt', Buffer.from('c\0<script>alert(1)</script>')),
			png.subarray(33)
		]).toString('base64')
		const saved = await t.call('POST', '/api/representantes/promo-image', { cookie: t.cookies.rep, body: { imageBase64: polyglot } })
		expect(saved.status).toBe(200)
		const image = await t.app.handle(new Request(`http://localhost${saved.json.promo}`))
		expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
		expect(image.headers.get('content-type')).toBe('image/png')
	})
})
