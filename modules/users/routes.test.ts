import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { representatives } from '../resellers'
import { completeCnpj } from '../core'
import { sessions, users, verifyPassword } from '../auth'

const NEW_CNPJ = completeCnpj('667778880001')

async function setup() {
	const t = await createTestApp()
	const admin = await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador', nome: 'Ana Admin', email: 'ana@k.com.br' })
	const gerente = await t.createUser({ cnpj: CNPJ.gerente, tipo: 'gerente', nome: 'Gabriel Gerente' })
	const rep = await t.createUser({ cnpj: CNPJ.rep, tipo: 'representante', nome: 'Rafael Rep' })
	const cookies = {
		administrador: await t.login(CNPJ.admin),
		gerente: await t.login(CNPJ.gerente),
		representante: await t.login(CNPJ.rep)
	}
	/** The administrador saves user `id` with `body` (PUT /api/users/:id). */
	const adminSaves = (id: number, body: Record<string, unknown>) =>
		t.call('PUT', `/api/users/${id}`, { cookie: cookies.administrador, body })
	return { t, admin, gerente, rep, cookies, adminSaves }
}

const userRow = async (t: Awaited<ReturnType<typeof createTestApp>>, id: number) =>
	(await t.db.select().from(users).where(eq(users.id, id)))[0]

describe('GET /api/users', () => {
	it('lists every user for an administrador, without any password field', async () => {
		const { t, cookies, admin } = await setup()
		const res = await t.call('GET', '/api/users', { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect(res.json.map((u) => u.nome)).toEqual(['Ana Admin', 'Gabriel Gerente', 'Rafael Rep'])
		expect(res.json[0]).toEqual({
			id: admin.id,
			cnpj: CNPJ.admin,
			nome: 'Ana Admin',
			tipo: 'administrador',
			representante_id: null,
			email: 'ana@k.com.br',
			ativo: true,
			created_at: '2026-11-20T12:00:00.000Z'
		})
		expect(res.text).not.toContain('senha')
		expect(res.text).not.toContain('argon2')
	})

	it('searches by name, e-mail and CNPJ with or without the mask', async () => {
		const { t, cookies } = await setup()
		const q = async (s: string) =>
			(await t.call('GET', `/api/users?search=${encodeURIComponent(s)}`, { cookie: cookies.administrador })).json.map((u) => u.nome)
		expect(await q('gabriel')).toEqual(['Gabriel Gerente'])
		expect(await q('ana@k')).toEqual(['Ana Admin'])
		expect(await q('45.997.418/0001-53')).toEqual(['Rafael Rep'])
		expect(await q('45997')).toEqual(['Rafael Rep'])
		expect(await q('zzz')).toEqual([])
	})

	it('refuses gerente, representante (403) and anonymous (401)', async () => {
		const { t, cookies } = await setup()
		expect((await t.call('GET', '/api/users', { cookie: cookies.gerente })).status).toBe(403)
		expect((await t.call('GET', '/api/users', { cookie: cookies.representante })).status).toBe(403)
		expect((await t.call('GET', '/api/users')).status).toBe(401)
	})
})

describe('POST /api/users', () => {
	it('creates a representante user and, in the same transaction, its representative record; the user can sign in', async () => {
		const { t, cookies } = await setup()
		const res = await t.call('POST', '/api/users', {
			cookie: cookies.administrador,
			body: {
				cnpj: `66.777.888/0001-${NEW_CNPJ.slice(12)}`,
				nome: 'Nova Rep',
				tipo: 'representante',
				senha: 'segredo1',
				email: 'Nova@Rep.com',
				representante_id: 'x'
			}
		})
		expect(res.status).toBe(201)
		expect(res.json).toMatchObject({
			cnpj: NEW_CNPJ,
			nome: 'Nova Rep',
			tipo: 'representante',
			email: 'nova@rep.com',
			representante_id: null,
			ativo: true
		})
		expect(res.text).not.toContain('segredo1')
		const record = (await t.db.select().from(representatives).where(eq(representatives.cnpj, NEW_CNPJ)))[0]
		expect(record).toMatchObject({ nome: 'Nova Rep', email: 'nova@rep.com', gerente_id: null, data: '2026-11-20' })
		expect(await verifyPassword('segredo1', (await userRow(t, res.json.id))!.senha_hash)).toBe(true)
		const cookie = await t.login(NEW_CNPJ, 'segredo1')
		const current = await t.call('GET', '/api/representatives/current', { cookie })
		expect(current.json.cnpj).toBe(NEW_CNPJ)
		expect(await t.activityTitles()).toContain('Usuário criado')
	})

	it('links a representante user to an existing record without creating another', async () => {
		const { t, cookies } = await setup()
		await t.db.insert(representatives).values({ cnpj: NEW_CNPJ, nome: 'Já Cadastrada', data: '2025-01-01' })
		const res = await t.call('POST', '/api/users', {
			cookie: cookies.administrador,
			body: { cnpj: NEW_CNPJ, nome: 'Login', tipo: 'representante', senha: 'segredo1' }
		})
		expect(res.status).toBe(201)
		const records = await t.db.select().from(representatives).where(eq(representatives.cnpj, NEW_CNPJ))
		expect(records).toHaveLength(1)
		expect(records[0].nome).toBe('Já Cadastrada')
	})

	it('keeps representante_id for a gerente only and creates no representative record for other types', async () => {
		const { t, cookies } = await setup()
		const res = await t.call('POST', '/api/users', {
			cookie: cookies.administrador,
			body: { cnpj: NEW_CNPJ, nome: 'Gerente Novo', tipo: 'gerente', senha: 'segredo1', representante_id: CNPJ.rep }
		})
		expect(res.status).toBe(201)
		expect(res.json.representante_id).toBe(CNPJ.rep)
		expect((await t.db.select().from(representatives).where(eq(representatives.cnpj, NEW_CNPJ)))[0]).toBeUndefined()
	})

	it('refuses bad input with 400, a used CNPJ with 409, and creates nothing', async () => {
		const { t, cookies } = await setup()
		const post = (body: unknown) => t.call('POST', '/api/users', { cookie: cookies.administrador, body })
		const ok = { cnpj: NEW_CNPJ, nome: 'Fulano', tipo: 'gerente', senha: 'segredo1' }
		const cases: [unknown, string][] = [
			[{ ...ok, senha: undefined }, 'senha'],
			[{ ...ok, senha: '' }, 'senha'],
			[{ ...ok, senha: '12345' }, 'pelo menos 6'],
			[{ ...ok, senha: 123456 }, ''],
			[{ ...ok, nome: '' }, 'nome'],
			[{ ...ok, nome: undefined }, 'nome'],
			[{ ...ok, cnpj: undefined }, 'cnpj'],
			[{ ...ok, cnpj: '66777888000100' }, 'cnpj inválido'],
			[{ ...ok, tipo: 'root' }, 'tipo'],
			[{ ...ok, tipo: undefined }, 'tipo'],
			[{ ...ok, email: 'x@' }, 'e-mail'],
			[{ ...ok, ativo: 'sim' }, 'ativo'],
			[{ ...ok, representante_id: 'x'.repeat(51) }, 'representante'],
			['nada', '']
		]
		for (const [body, text] of cases) {
			const res = await post(body)
			expect(res.status, JSON.stringify(body)).toBe(400)
			expect(res.json.message!.toLowerCase(), JSON.stringify(body)).toContain(text)
		}
		const dup = await post({ ...ok, cnpj: CNPJ.rep })
		expect(dup.status).toBe(409)
		expect(dup.json.message).toBe('Já existe um usuário com este CNPJ.')
		expect(await t.db.select().from(users)).toHaveLength(3)
		expect(await t.activityTitles()).not.toContain('Usuário criado')
	})

	it('refuses gerente and representante callers', async () => {
		const { t, cookies } = await setup()
		for (const cookie of [cookies.gerente, cookies.representante]) {
			const res = await t.call('POST', '/api/users', {
				cookie,
				body: { cnpj: NEW_CNPJ, nome: 'X', tipo: 'administrador', senha: 'segredo1' }
			})
			expect(res.status).toBe(403)
		}
		expect(await t.db.select().from(users)).toHaveLength(3)
	})
})

describe('PUT /api/users/{id}', () => {
	it('keeps the password when senha is blank or absent and leaves the sessions alone', async () => {
		const { t, cookies, gerente, adminSaves } = await setup()
		const before = (await userRow(t, gerente.id))!.senha_hash
		for (const senha of ['', undefined, null]) {
			const res = await adminSaves(gerente.id, { cnpj: CNPJ.gerente, nome: 'Gabriel G.', tipo: 'gerente', email: 'g@k.com', senha })
			expect(res.status).toBe(200)
			expect(res.json).toMatchObject({ nome: 'Gabriel G.', email: 'g@k.com', tipo: 'gerente' })
		}
		expect((await userRow(t, gerente.id))!.senha_hash).toBe(before)
		expect((await t.call('GET', '/api/auth/me', { cookie: cookies.gerente })).status).toBe(200)
		expect(await t.activityTitles()).toContain('Usuário atualizado')
	})

	it('sets a new password and ends that user’s sessions', async () => {
		const { t, cookies, gerente, adminSaves } = await setup()
		const res = await adminSaves(gerente.id, { cnpj: CNPJ.gerente, nome: 'Gabriel Gerente', tipo: 'gerente', senha: 'outra-senha' })
		expect(res.status).toBe(200)
		expect((await t.call('GET', '/api/auth/me', { cookie: cookies.gerente })).status).toBe(401)
		await t.login(CNPJ.gerente, 'outra-senha')
	})

	it('ends every session on a change of type or a deactivation', async () => {
		const { t, cookies, rep, gerente, adminSaves } = await setup()
		const res = await adminSaves(rep.id, { cnpj: CNPJ.rep, nome: 'Rafael', tipo: 'gerente' })
		expect(res.status).toBe(200)
		expect((await t.call('GET', '/api/auth/me', { cookie: cookies.representante })).status).toBe(401)
		const off = await adminSaves(gerente.id, { cnpj: CNPJ.gerente, nome: 'G', tipo: 'gerente', ativo: false })
		expect(off.status).toBe(200)
		expect(off.json.ativo).toBe(false)
		expect(await t.db.select().from(sessions).where(eq(sessions.user_id, gerente.id))).toHaveLength(0)
		const login = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.gerente, senha: 'senha-forte-123' } })
		expect(login.status).toBe(403)
	})

	it('creates the representative record when a user becomes a representante', async () => {
		const { t, gerente, adminSaves } = await setup()
		const res = await adminSaves(gerente.id, { cnpj: CNPJ.gerente, nome: 'Virou Rep', tipo: 'representante' })
		expect(res.status).toBe(200)
		expect((await t.db.select().from(representatives).where(eq(representatives.cnpj, CNPJ.gerente)))[0]?.nome).toBe('Virou Rep')
	})

	it('refuses demoting or deactivating the last active administrador, and deactivating oneself', async () => {
		const { t, cookies, admin, adminSaves } = await setup()
		const demote = await adminSaves(admin.id, { cnpj: CNPJ.admin, nome: 'Ana', tipo: 'gerente' })
		expect(demote.status).toBe(409)
		expect(demote.json.message).toContain('último administrador')
		const self = await adminSaves(admin.id, { cnpj: CNPJ.admin, nome: 'Ana', tipo: 'administrador', ativo: false })
		expect(self.status).toBe(422)
		expect(await userRow(t, admin.id)).toMatchObject({ tipo: 'administrador', ativo: true, nome: 'Ana Admin' })
		// with a second administrador, the first may step down, keeping the current session
		const other = await t.createUser({ cnpj: NEW_CNPJ, tipo: 'administrador', nome: 'Bia Admin' })
		const ok = await adminSaves(admin.id, { cnpj: CNPJ.admin, nome: 'Ana', tipo: 'gerente' })
		expect(ok.status).toBe(200)
		const me = await t.call('GET', '/api/auth/me', { cookie: cookies.administrador })
		expect(me.json.user.tipo).toBe('gerente')
		expect((await t.call('GET', '/api/users', { cookie: cookies.administrador })).status).toBe(403)
		expect(other.tipo).toBe('administrador')
	})

	it('refuses bad input, a CNPJ of another user, unknown ids and non-administradores', async () => {
		const { t, cookies, gerente } = await setup()
		const put = (id: number | string, body: unknown, cookie = cookies.administrador) => t.call('PUT', `/api/users/${id}`, { cookie, body })
		const ok = { cnpj: CNPJ.gerente, nome: 'Gabriel', tipo: 'gerente' }
		expect((await put(gerente.id, { ...ok, senha: '123' })).status).toBe(400)
		expect((await put(gerente.id, { ...ok, nome: '' })).status).toBe(400)
		expect((await put(gerente.id, { ...ok, tipo: 'x' })).status).toBe(400)
		expect((await put(gerente.id, { ...ok, cnpj: '1' })).status).toBe(400)
		expect((await put('abc', ok)).status).toBe(400)
		expect((await put(999, ok)).status).toBe(404)
		const dup = await put(gerente.id, { ...ok, cnpj: CNPJ.rep })
		expect(dup.status).toBe(409)
		expect((await put(gerente.id, ok, cookies.gerente)).status).toBe(403)
		expect((await put(gerente.id, ok, cookies.representante)).status).toBe(403)
		expect(await userRow(t, gerente.id)).toMatchObject({ nome: 'Gabriel Gerente', cnpj: CNPJ.gerente })
	})
})

describe('DELETE /api/users/{id}', () => {
	it('deletes a user and their sessions but keeps their representative record', async () => {
		const { t, cookies, rep } = await setup()
		await t.db.insert(representatives).values({ cnpj: CNPJ.rep, nome: 'Rafael Rep', data: '2025-01-01' })
		const res = await t.call('DELETE', `/api/users/${rep.id}`, { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect(await userRow(t, rep.id)).toBeUndefined()
		expect((await t.call('GET', '/api/auth/me', { cookie: cookies.representante })).status).toBe(401)
		expect((await t.db.select().from(representatives).where(eq(representatives.cnpj, CNPJ.rep)))[0]).toBeDefined()
		expect(await t.activityTitles()).toContain('Usuário excluído')
		expect((await t.call('DELETE', `/api/users/${rep.id}`, { cookie: cookies.administrador })).status).toBe(404)
	})

	it('refuses deleting oneself, by non-administradores and bad ids', async () => {
		const { t, cookies, admin, gerente } = await setup()
		const self = await t.call('DELETE', `/api/users/${admin.id}`, { cookie: cookies.administrador })
		expect(self.status).toBe(422)
		expect(self.json.message).toBe('Você não pode excluir seu próprio usuário.')
		expect(await userRow(t, admin.id)).toBeDefined()
		// another administrador may be deleted (the caller remains an active one)
		const second = await t.createUser({ cnpj: NEW_CNPJ, tipo: 'administrador', nome: 'Bia' })
		expect((await t.call('DELETE', `/api/users/${second.id}`, { cookie: cookies.administrador })).status).toBe(200)
		expect((await t.call('DELETE', `/api/users/${gerente.id}`, { cookie: cookies.gerente })).status).toBe(403)
		expect((await t.call('DELETE', `/api/users/${gerente.id}`, { cookie: cookies.representante })).status).toBe(403)
		expect((await t.call('DELETE', '/api/users/abc', { cookie: cookies.administrador })).status).toBe(400)
		expect(await userRow(t, gerente.id)).toBeDefined()
	})
})

describe('POST /api/users/change-password', () => {
	it('changes the own password, keeps the current session and ends the others', async () => {
		const { t, cookies, gerente } = await setup()
		const otherBrowser = await t.login(CNPJ.gerente)
		const res = await t.call('POST', '/api/users/change-password', {
			cookie: cookies.gerente,
			body: { currentPassword: 'senha-forte-123', newPassword: 'nova-senha-9' }
		})
		expect(res.status).toBe(200)
		expect(res.json.message).toBe('Senha alterada com sucesso!')
		expect((await t.call('GET', '/api/auth/me', { cookie: cookies.gerente })).status).toBe(200)
		expect((await t.call('GET', '/api/auth/me', { cookie: otherBrowser })).status).toBe(401)
		expect(await verifyPassword('nova-senha-9', (await userRow(t, gerente.id))!.senha_hash)).toBe(true)
		expect(await t.activityTitles()).toContain('Senha alterada')
	})

	it('refuses a wrong current password and bad input, changing nothing', async () => {
		const { t, cookies, rep } = await setup()
		const before = (await userRow(t, rep.id))!.senha_hash
		const change = (body: unknown, cookie: string | undefined = cookies.representante) =>
			t.call('POST', '/api/users/change-password', { cookie, body })
		const wrong = await change({ currentPassword: 'errada', newPassword: 'nova-senha-9' })
		expect(wrong.status).toBe(400)
		expect(wrong.json.message).toBe('Senha atual incorreta')
		const short = await change({ currentPassword: 'senha-forte-123', newPassword: '12345' })
		expect(short.status).toBe(400)
		expect(short.json.message).toContain('A nova senha deve ter pelo menos 6 caracteres')
		expect((await change({ currentPassword: '', newPassword: 'nova-senha-9' })).status).toBe(400)
		expect((await change({ newPassword: 'nova-senha-9' })).status).toBe(400)
		expect((await change({ currentPassword: 'senha-forte-123' })).status).toBe(400)
		expect((await change({ currentPassword: 1, newPassword: 2 })).status).toBe(400)
		expect((await change({ currentPassword: 'senha-forte-123', newPassword: 'nova-senha-9' }, '')).status).toBe(401)
		expect((await userRow(t, rep.id))!.senha_hash).toBe(before)
		expect(await t.activityTitles()).not.toContain('Senha alterada')
	})
})

describe('common passwords and the own CNPJ are refused (issue 13, point 7)', () => {
	const COMMON = ['123456', 'password', 'qwerty123', 'senha123', 'Mudar123', 'abcdefgh', '111111', '987654', 'asdfghjk', 'abcabcabc']

	it('refuses them when an administrador creates or edits a user, with a pt-BR message, creating nothing', async () => {
		const { t, cookies, gerente, adminSaves } = await setup()
		for (const senha of [...COMMON, '66.777.888/0001-XX'.replace('XX', NEW_CNPJ.slice(-2)), NEW_CNPJ, NEW_CNPJ.slice(0, 8)]) {
			const res = await t.call('POST', '/api/users', {
				cookie: cookies.administrador,
				body: { cnpj: NEW_CNPJ, nome: 'Novo', tipo: 'gerente', senha }
			})
			expect(res.status, senha).toBe(400)
			expect(res.json.message, senha).toMatch(/Senha muito comum|não pode ser o seu CNPJ/)
		}
		expect((await t.db.select().from(users).where(eq(users.cnpj, NEW_CNPJ)))[0]).toBeUndefined()
		const edit = await adminSaves(gerente.id, { cnpj: CNPJ.gerente, nome: 'Gabriel Gerente', tipo: 'gerente', senha: CNPJ.gerente })
		expect(edit.status).toBe(400)
		expect(edit.json.message).toContain('A senha não pode ser o seu CNPJ.')
		// Six characters that are neither common nor a sequence are enough (the minimum stays 6).
		const ok = await t.call('POST', '/api/users', {
			cookie: cookies.administrador,
			body: { cnpj: NEW_CNPJ, nome: 'Novo', tipo: 'gerente', senha: 'kq7!mz' }
		})
		expect(ok.status).toBe(201)
	})

	it('refuses them on Alterar Senha, changing nothing', async () => {
		const { t, cookies, rep } = await setup()
		const before = (await userRow(t, rep.id))!.senha_hash
		for (const newPassword of [...COMMON, CNPJ.rep, '45.997.418/0001-53']) {
			const res = await t.call('POST', '/api/users/change-password', {
				cookie: cookies.representante,
				body: { currentPassword: 'senha-forte-123', newPassword }
			})
			expect(res.status, newPassword).toBe(400)
			expect(res.json.message, newPassword).toMatch(/Senha muito comum|A senha não pode ser o seu CNPJ\./)
		}
		expect((await userRow(t, rep.id))!.senha_hash).toBe(before)
	}, 30_000)
})

describe('the current password of change-password is throttled like a login (issue 13, point 3)', () => {
	it('answers 429 after 5 wrong current passwords from one address, even to the right one', async () => {
		const { t, cookies, rep } = await setup()
		const before = (await userRow(t, rep.id))!.senha_hash
		const change = (currentPassword: string) =>
			t.call('POST', '/api/users/change-password', {
				cookie: cookies.representante,
				body: { currentPassword, newPassword: 'nova-senha-9' }
			})
		for (let i = 0; i < 5; i++) expect((await change(`errada-${i}`)).status).toBe(400)
		const refused = await change('senha-forte-123')
		expect(refused.status).toBe(429)
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
		expect((await userRow(t, rep.id))!.senha_hash).toBe(before)
		// The same count as a login: that address cannot guess by signing in either.
		const login = await t.call('POST', '/api/auth/login', { body: { cnpj: CNPJ.rep, senha: 'senha-forte-123' } })
		expect(login.status).toBe(429)
	}, 30_000)
})

describe('GET and PUT /api/users/me', () => {
	it('lets any role read and update their own name and e-mail, not their CNPJ or type', async () => {
		const { t, cookies, rep } = await setup()
		for (const cookie of Object.values(cookies)) {
			expect((await t.call('GET', '/api/users/me', { cookie })).status).toBe(200)
		}
		const me = await t.call('GET', '/api/users/me', { cookie: cookies.representante })
		expect(me.json).toMatchObject({ id: rep.id, cnpj: CNPJ.rep, tipo: 'representante', created_at: '2026-11-20T12:00:00.000Z' })
		const res = await t.call('PUT', '/api/users/me', {
			cookie: cookies.representante,
			body: { nome: 'Rafael Novo', email: 'rafa@rep.com', cnpj: CNPJ.admin, tipo: 'administrador' }
		})
		expect(res.status).toBe(200)
		expect(res.json).toMatchObject({ nome: 'Rafael Novo', email: 'rafa@rep.com', cnpj: CNPJ.rep, tipo: 'representante' })
		expect(await t.activityTitles()).toContain('Perfil atualizado')
		const cleared = await t.call('PUT', '/api/users/me', { cookie: cookies.representante, body: { nome: 'Rafael Novo', email: '' } })
		expect(cleared.json.email).toBeNull()
	})

	it('refuses bad input and anonymous callers', async () => {
		const { t, cookies, rep } = await setup()
		expect((await t.call('PUT', '/api/users/me', { cookie: cookies.representante, body: { nome: '' } })).status).toBe(400)
		expect((await t.call('PUT', '/api/users/me', { cookie: cookies.representante, body: { nome: 'X', email: 'x@' } })).status).toBe(400)
		expect((await t.call('PUT', '/api/users/me', { cookie: cookies.representante, body: { nome: 'X'.repeat(201) } })).status).toBe(400)
		expect((await t.call('PUT', '/api/users/me', { body: { nome: 'X' } })).status).toBe(401)
		expect((await t.call('GET', '/api/users/me')).status).toBe(401)
		expect((await userRow(t, rep.id))!.nome).toBe('Rafael Rep')
	})
})
