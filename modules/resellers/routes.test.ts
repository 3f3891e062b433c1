import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { activities } from '../activity'
import { sessions, users } from '../auth'
import { companies } from '../companies'
import { creditPurchases, credits } from '../credits'
import { completeCnpj } from '../core'
import { representatives } from './schema'

const GERENTE2 = completeCnpj('223334440001')
const REP3 = completeCnpj('556667770001')

/** An administrador, two gerentes, a representante with a login, and three representative records. */
async function setup() {
	const t = await createTestApp()
	const admin = await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador', nome: 'Ana Admin' })
	const gerente = await t.createUser({ cnpj: CNPJ.gerente, tipo: 'gerente', nome: 'Gabriel Gerente' })
	const gerente2 = await t.createUser({ cnpj: GERENTE2, tipo: 'gerente', nome: 'Beatriz Gerente' })
	await t.createUser({ cnpj: CNPJ.rep, tipo: 'representante', nome: 'Rafael Rep' })
	const rep = async (cnpj: string, nome: string, gerente_id: number | null, cidade: string) =>
		(await t.db.insert(representatives).values({ cnpj, nome, gerente_id, cidade, uf: 'CE', data: '2025-01-10' }).returning())[0]
	const repA = await rep(CNPJ.rep, 'Rafael Representações', gerente.id, 'Fortaleza')
	const repB = await rep(CNPJ.rep2, 'Sul Revendas', gerente2.id, 'Curitiba')
	const repC = await rep(REP3, 'Norte 50% Sistemas', null, 'Belém')
	const cookies = {
		administrador: await t.login(CNPJ.admin),
		gerente: await t.login(CNPJ.gerente),
		gerente2: await t.login(GERENTE2),
		representante: await t.login(CNPJ.rep)
	}
	return { t, admin, gerente, gerente2, repA, repB, repC, cookies }
}

async function addCompany(t: Awaited<ReturnType<typeof createTestApp>>, repCnpj: string, n: number) {
	const [company] = await t.db
		.insert(companies)
		.values({
			razao: `Empresa ${n}`,
			cnpj: completeCnpj(String(880000000000 + n)),
			cnpj_representante: repCnpj,
			serial: `serial-${n}`,
			data: '2025-02-01'
		})
		.returning()
	return company
}

const _validRep = { nome: 'Nova Representações', cnpj: '11.444.777/0001-61'.replace('0001-61', '0001-61') }
const NEW_CNPJ = completeCnpj('667778880001')

describe('GET /api/representatives', () => {
	it('gives an administrador every representative with the manager name and the real company count', async () => {
		const { t, cookies, repA } = await setup()
		await addCompany(t, CNPJ.rep, 1)
		await addCompany(t, CNPJ.rep, 2)
		await addCompany(t, CNPJ.rep2, 3)
		const res = await t.call('GET', '/api/representatives', { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect(res.json.map((r) => r.nome)).toEqual(['Norte 50% Sistemas', 'Rafael Representações', 'Sul Revendas'])
		const a = res.json.find((r) => r.codigo === repA.codigo)
		expect(a).toEqual({
			codigo: repA.codigo,
			nome: 'Rafael Representações',
			cnpj: CNPJ.rep,
			endereco: null,
			bairro: null,
			cidade: 'Fortaleza',
			uf: 'CE',
			cep: null,
			fone: null,
			whatsapp: null,
			email: null,
			gerente_id: repA.gerente_id,
			gerente: { nome: 'Gabriel Gerente' },
			plink: null,
			ativar_api_asaas: 'N',
			evo_instancia: null,
			nempresas: 2,
			data: '2025-01-10'
		})
		expect(res.json.find((r) => r.cnpj === CNPJ.rep2)!.nempresas).toBe(1)
		const c = res.json.find((r) => r.cnpj === REP3)!
		expect(c.gerente).toBeNull()
		expect(c.nempresas).toBe(0)
	})

	it('gives a gerente only the representatives they manage, and a representante only their own record', async () => {
		const { t, cookies } = await setup()
		const g = await t.call('GET', '/api/representatives', { cookie: cookies.gerente })
		expect(g.json.map((r) => r.cnpj)).toEqual([CNPJ.rep])
		const g2 = await t.call('GET', '/api/representatives', { cookie: cookies.gerente2 })
		expect(g2.json.map((r) => r.cnpj)).toEqual([CNPJ.rep2])
		const r = await t.call('GET', '/api/representatives', { cookie: cookies.representante })
		expect(r.json.map((x) => x.cnpj)).toEqual([CNPJ.rep])
	})

	it('searches by name, city and CNPJ with or without the mask, treating % as text', async () => {
		const { t, cookies } = await setup()
		const q = async (s: string) =>
			(await t.call('GET', `/api/representatives?search=${encodeURIComponent(s)}`, { cookie: cookies.administrador })).json.map(
				(r) => r.nome
			)
		expect(await q('sul')).toEqual(['Sul Revendas'])
		expect(await q('Belém')).toEqual(['Norte 50% Sistemas'])
		expect(await q('45.997.418')).toEqual(['Rafael Representações'])
		expect(await q('45997418')).toEqual(['Rafael Representações'])
		expect(await q('50%')).toEqual(['Norte 50% Sistemas'])
		expect(await q('nada-assim')).toEqual([])
		// the search never widens a gerente's scope
		const g = await t.call('GET', '/api/representatives?search=Sul', { cookie: cookies.gerente })
		expect(g.json).toEqual([])
		const tooLong = await t.call('GET', `/api/representatives?search=${'x'.repeat(101)}`, { cookie: cookies.administrador })
		expect(tooLong.status).toBe(400)
	})

	it('requires a session', async () => {
		const { t } = await setup()
		expect((await t.call('GET', '/api/representatives')).status).toBe(401)
	})
})

describe('GET /api/representatives/current', () => {
	it("returns the representante's own record and 404 for a user without one", async () => {
		const { t, cookies } = await setup()
		const own = await t.call('GET', '/api/representatives/current', { cookie: cookies.representante })
		expect(own.status).toBe(200)
		expect(own.json.cnpj).toBe(CNPJ.rep)
		expect(own.json.gerente).toEqual({ nome: 'Gabriel Gerente' })
		const admin = await t.call('GET', '/api/representatives/current', { cookie: cookies.administrador })
		expect(admin.status).toBe(404)
		expect((await t.call('GET', '/api/representatives/current')).status).toBe(401)
	})
})

describe('GET /api/managers', () => {
	it('lists active gerentes as {id, nome} for administradores and gerentes, never to a representante', async () => {
		const { t, cookies, gerente, gerente2 } = await setup()
		await t.createUser({ cnpj: completeCnpj('334445550001'), tipo: 'gerente', nome: 'Inativo', ativo: false })
		const res = await t.call('GET', '/api/managers', { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect(res.json).toEqual([
			{ id: gerente2.id, nome: 'Beatriz Gerente' },
			{ id: gerente.id, nome: 'Gabriel Gerente' }
		])
		expect((await t.call('GET', '/api/managers', { cookie: cookies.gerente })).status).toBe(200)
		const rep = await t.call('GET', '/api/managers', { cookie: cookies.representante })
		expect(rep.status).toBe(403)
	})
})

describe('POST /api/representatives', () => {
	it('lets an administrador create one with a manager; it is stored normalised and logged', async () => {
		const { t, cookies, gerente } = await setup()
		const res = await t.call('POST', '/api/representatives', {
			cookie: cookies.administrador,
			body: {
				nome: '  Nova Representações ',
				cnpj: `66.777.888/0001-${NEW_CNPJ.slice(12)}`,
				cidade: 'Natal',
				uf: 'rn',
				cep: '59000000',
				fone: '(84) 3222-1100',
				whatsapp: '+55 84 99999-0000',
				email: 'Contato@Nova.com.br',
				gerente_id: gerente.id,
				plink: 'https://pagar.exemplo.com/nova',
				ativar_api_asaas: 'S',
				evo_instancia: 'nova-instancia',
				senha: 'ignorada',
				codigo: 999
			}
		})
		expect(res.status).toBe(201)
		expect(res.json).toMatchObject({
			nome: 'Nova Representações',
			cnpj: NEW_CNPJ,
			uf: 'RN',
			cep: '59000-000',
			fone: '8432221100',
			whatsapp: '5584999990000',
			email: 'contato@nova.com.br',
			gerente_id: gerente.id,
			gerente: { nome: 'Gabriel Gerente' },
			plink: 'https://pagar.exemplo.com/nova',
			ativar_api_asaas: 'S',
			evo_instancia: 'nova-instancia',
			nempresas: 0,
			data: '2026-11-20'
		})
		expect(res.json.codigo).not.toBe(999)
		const log = (await t.db.select().from(activities).where(eq(activities.title, 'Representante criado')))[0]
		expect(log).toMatchObject({
			event: 'representatives.created',
			icon: 'Users',
			subtitle: 'Nova Representações',
			representante_cnpj: NEW_CNPJ,
			entity: 'representative'
		})
	})

	it("makes a gerente's new representative theirs and refuses a gerente choosing another manager", async () => {
		const { t, cookies, gerente, gerente2 } = await setup()
		const own = await t.call('POST', '/api/representatives', { cookie: cookies.gerente, body: { nome: 'Do Gerente', cnpj: NEW_CNPJ } })
		expect(own.status).toBe(201)
		expect(own.json.gerente_id).toBe(gerente.id)
		const other = await t.call('POST', '/api/representatives', {
			cookie: cookies.gerente,
			body: { nome: 'Outro', cnpj: completeCnpj('667778880002'), gerente_id: gerente2.id }
		})
		expect(other.status).toBe(403)
		expect(other.json.message).toContain('Apenas administradores')
		expect((await t.db.select().from(representatives).where(eq(representatives.nome, 'Outro')))[0]).toBeUndefined()
	})

	it('refuses a representante and an anonymous caller, creating nothing', async () => {
		const { t, cookies } = await setup()
		const before = (await t.db.select().from(representatives)).length
		expect(
			(await t.call('POST', '/api/representatives', { cookie: cookies.representante, body: { nome: 'X', cnpj: NEW_CNPJ } })).status
		).toBe(403)
		expect((await t.call('POST', '/api/representatives', { body: { nome: 'X', cnpj: NEW_CNPJ } })).status).toBe(401)
		expect(await t.db.select().from(representatives)).toHaveLength(before)
	})

	it('refuses bad input with 400 and a pt-BR message, and a duplicate CNPJ with 409', async () => {
		const { t, cookies } = await setup()
		const post = (body: unknown) => t.call('POST', '/api/representatives', { cookie: cookies.administrador, body })
		const cases: [unknown, string][] = [
			[{ cnpj: NEW_CNPJ }, 'Nome'],
			[{ nome: '   ', cnpj: NEW_CNPJ }, 'Nome'],
			[{ nome: 'X' }, 'CNPJ'],
			[{ nome: 'X', cnpj: '66777888000100' }, 'CNPJ inválido'],
			[{ nome: 'X', cnpj: 66777888000100 }, ''],
			[{ nome: 'X'.repeat(201), cnpj: NEW_CNPJ }, 'Nome'],
			[{ nome: 'X', cnpj: NEW_CNPJ, uf: 'XX' }, 'UF inválida'],
			[{ nome: 'X', cnpj: NEW_CNPJ, cep: '123' }, 'CEP'],
			[{ nome: 'X', cnpj: NEW_CNPJ, fone: '123' }, 'Telefone'],
			[{ nome: 'X', cnpj: NEW_CNPJ, whatsapp: 'abc' }, 'Telefone'],
			[{ nome: 'X', cnpj: NEW_CNPJ, email: 'não-é-email' }, 'E-mail'],
			[{ nome: 'X', cnpj: NEW_CNPJ, plink: 'javascript:alert(1)' }, 'Link'],
			[{ nome: 'X', cnpj: NEW_CNPJ, plink: 'pagar.exemplo.com' }, 'Link'],
			[{ nome: 'X', cnpj: NEW_CNPJ, ativar_api_asaas: 'sim' }, 'S ou N'],
			[{ nome: 'X', cnpj: NEW_CNPJ, evo_instancia: 'i'.repeat(101) }, '100'],
			[{ nome: 'X', cnpj: NEW_CNPJ, gerente_id: 'abc' }, ''],
			[{ nome: 'X', cnpj: NEW_CNPJ, gerente_id: -1 }, 'Gerente'],
			[{ nome: 'X', cnpj: NEW_CNPJ, gerente_id: 1.5 }, 'Gerente']
		]
		for (const [body, text] of cases) {
			const res = await post(body)
			expect(res.status, JSON.stringify(body)).toBe(400)
			expect(res.json.message!.toLowerCase(), JSON.stringify(body)).toContain(text.toLowerCase())
		}
		const notAManager = await post({ nome: 'X', cnpj: NEW_CNPJ, gerente_id: 1 })
		expect(notAManager.status).toBe(400)
		expect(notAManager.json.message).toContain('Gerente inválido')
		const duplicate = await post({ nome: 'X', cnpj: CNPJ.rep2 })
		expect(duplicate.status).toBe(409)
		expect(duplicate.json.message).toBe('Já existe um representante com este CNPJ.')
		expect(await t.db.select().from(representatives)).toHaveLength(3)
		expect(await t.activityTitles()).not.toContain('Representante criado')
	})
})

describe('PUT /api/representatives/{id}', () => {
	it('lets an administrador edit any field, including the manager and clearing it', async () => {
		const { t, cookies, repC, gerente2 } = await setup()
		const res = await t.call('PUT', `/api/representatives/${repC.codigo}`, {
			cookie: cookies.administrador,
			body: { nome: 'Norte Sistemas', cidade: 'Manaus', uf: 'AM', gerente_id: gerente2.id }
		})
		expect(res.status).toBe(200)
		expect(res.json).toMatchObject({ nome: 'Norte Sistemas', cidade: 'Manaus', uf: 'AM', gerente: { nome: 'Beatriz Gerente' }, cnpj: REP3 })
		const cleared = await t.call('PUT', `/api/representatives/${repC.codigo}`, {
			cookie: cookies.administrador,
			body: { gerente_id: null }
		})
		expect(cleared.json.gerente).toBeNull()
		expect(cleared.json.nome).toBe('Norte Sistemas')
		expect((await t.activityTitles()).filter((x) => x === 'Representante atualizado')).toHaveLength(2)
	})

	it('lets a gerente edit their own representatives but not choose the manager nor reach others', async () => {
		const { t, cookies, repA, repB, gerente, gerente2 } = await setup()
		const ok = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.gerente,
			body: { nome: 'Rafael R.', gerente_id: gerente.id }
		})
		expect(ok.status).toBe(200)
		expect(ok.json.nome).toBe('Rafael R.')
		const move = await t.call('PUT', `/api/representatives/${repA.codigo}`, { cookie: cookies.gerente, body: { gerente_id: gerente2.id } })
		expect(move.status).toBe(403)
		const drop = await t.call('PUT', `/api/representatives/${repA.codigo}`, { cookie: cookies.gerente, body: { gerente_id: null } })
		expect(drop.status).toBe(403)
		const others = await t.call('PUT', `/api/representatives/${repB.codigo}`, { cookie: cookies.gerente, body: { nome: 'Tomado' } })
		expect(others.status).toBe(404)
		const row = async (id: number) => (await t.db.select().from(representatives).where(eq(representatives.codigo, id)))[0]!
		expect((await row(repA.codigo)).gerente_id).toBe(gerente.id)
		expect((await row(repB.codigo)).nome).toBe('Sul Revendas')
	})

	it('lets a representante change only their API settings on their own record; other fields are ignored', async () => {
		const { t, cookies, repA, repB } = await setup()
		const res = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: {
				ativar_api_asaas: 'S',
				plink: 'https://pagar.exemplo.com/rafael',
				nome: 'Hackeado',
				gerente_id: null,
				cnpj: NEW_CNPJ
			}
		})
		expect(res.status).toBe(200)
		expect(res.json).toMatchObject({
			ativar_api_asaas: 'S',
			plink: 'https://pagar.exemplo.com/rafael',
			nome: 'Rafael Representações',
			cnpj: CNPJ.rep,
			gerente: { nome: 'Gabriel Gerente' }
		})
		expect(await t.activityTitles()).toContain('Configurações de API atualizadas')
		const other = await t.call('PUT', `/api/representatives/${repB.codigo}`, {
			cookie: cookies.representante,
			body: { ativar_api_asaas: 'S' }
		})
		expect(other.status).toBe(404)
		const badLink = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { plink: 'ftp://x.com' }
		})
		expect(badLink.status).toBe(400)
		const longInstance = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { evo_instancia: 'x'.repeat(101) }
		})
		expect(longInstance.status).toBe(400)
		const cleared = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { plink: '', evo_instancia: '' }
		})
		expect(cleared.json).toMatchObject({ plink: null, evo_instancia: null, ativar_api_asaas: 'S' })
		expect((await t.db.select().from(representatives).where(eq(representatives.codigo, repB.codigo)))[0]!.ativar_api_asaas).toBe('N')
	})

	it('refuses bad ids and bad fields with 400, unknown ids with 404, a duplicate CNPJ with 409', async () => {
		const { t, cookies, repA, repC } = await setup()
		const put = (id: string | number, body: unknown) => t.call('PUT', `/api/representatives/${id}`, { cookie: cookies.administrador, body })
		expect((await put('abc', { nome: 'X' })).status).toBe(400)
		expect((await put(0, { nome: 'X' })).status).toBe(400)
		expect((await put(9999, { nome: 'X' })).status).toBe(404)
		expect((await put(repA.codigo, { nome: '' })).status).toBe(400)
		expect((await put(repA.codigo, { cnpj: '123' })).status).toBe(400)
		expect((await put(repA.codigo, { email: 'x@' })).status).toBe(400)
		expect((await put(repA.codigo, { gerente_id: repA.codigo + 100 })).status).toBe(400)
		const dup = await put(repC.codigo, { cnpj: CNPJ.rep2 })
		expect(dup.status).toBe(409)
		expect((await t.db.select().from(representatives).where(eq(representatives.codigo, repC.codigo)))[0]!.cnpj).toBe(REP3)
		expect(await t.activityTitles()).not.toContain('Representante atualizado')
	})

	it('changes a CNPJ only while nothing points at it, and moves the login to the new CNPJ', async () => {
		const { t, cookies, repA, repC } = await setup()
		await addCompany(t, CNPJ.rep, 1)
		const inUse = await t.call('PUT', `/api/representatives/${repA.codigo}`, { cookie: cookies.administrador, body: { cnpj: NEW_CNPJ } })
		expect(inUse.status).toBe(409)
		expect(inUse.json.message).toContain('empresas ou créditos')
		await t.db.delete(companies)
		const moved = await t.call('PUT', `/api/representatives/${repA.codigo}`, { cookie: cookies.administrador, body: { cnpj: NEW_CNPJ } })
		expect(moved.status).toBe(200)
		expect(moved.json.cnpj).toBe(NEW_CNPJ)
		const login = (await t.db.select().from(users).where(eq(users.cnpj, NEW_CNPJ)))[0]
		expect(login?.tipo).toBe('representante')
		// the old sessions of that login end
		expect((await t.call('GET', '/api/auth/me', { cookie: cookies.representante })).status).toBe(401)
		// a record without login just changes
		const plain = await t.call('PUT', `/api/representatives/${repC.codigo}`, {
			cookie: cookies.administrador,
			body: { cnpj: completeCnpj('667778880002') }
		})
		expect(plain.status).toBe(200)
	})
})

describe('the WhatsApp instance a representative sends from (issue 33, point 5)', () => {
	const row = async (t: Awaited<ReturnType<typeof createTestApp>>, codigo: number) =>
		(await t.db.select().from(representatives).where(eq(representatives.codigo, codigo)))[0]!

	it('is bound by an administrador only: a representante or a gerente is refused with 403 and nothing changes', async () => {
		const { t, cookies, repA, repB } = await setup()
		const bound = await t.call('PUT', `/api/representatives/${repB.codigo}`, {
			cookie: cookies.administrador,
			body: { evo_instancia: 'sul-01' }
		})
		expect(bound.status).toBe(200)
		expect(bound.json.evo_instancia).toBe('sul-01')
		// Rafael takes Sara's number for his own, along with a change he may make: all refused.
		const taken = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { evo_instancia: 'sul-01', ativar_api_asaas: 'S' }
		})
		expect(taken.status).toBe(403)
		expect(taken.json.message).toContain('Apenas administradores vinculam uma instância')
		const fresh = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { evo_instancia: 'rafael-novo' }
		})
		expect(fresh.status).toBe(403)
		const byGerente = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.gerente,
			body: { evo_instancia: 'rafael-01' }
		})
		expect(byGerente.status).toBe(403)
		const created = await t.call('POST', '/api/representatives', {
			cookie: cookies.gerente,
			body: { nome: 'Nova', cnpj: NEW_CNPJ, evo_instancia: 'sul-01' }
		})
		expect(created.status).toBe(403)
		expect(await row(t, repA.codigo)).toMatchObject({ evo_instancia: null, ativar_api_asaas: 'N' })
		expect((await t.db.select().from(representatives).where(eq(representatives.cnpj, NEW_CNPJ)))[0]).toBeUndefined()
		// Sending back the instance one already has (the settings form does) is no change: the other fields save.
		await t.call('PUT', `/api/representatives/${repA.codigo}`, { cookie: cookies.administrador, body: { evo_instancia: 'rafael-01' } })
		const same = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { evo_instancia: 'rafael-01', ativar_api_asaas: 'S' }
		})
		expect(same.status).toBe(200)
		expect(await row(t, repA.codigo)).toMatchObject({ evo_instancia: 'rafael-01', ativar_api_asaas: 'S' })
		const cleared = await t.call('PUT', `/api/representatives/${repA.codigo}`, {
			cookie: cookies.representante,
			body: { evo_instancia: '' }
		})
		expect(cleared.status).toBe(403)
		expect((await row(t, repA.codigo)).evo_instancia).toBe('rafael-01')
	})

	it('belongs to one representative at most: binding another’s instance is 409, whatever its case', async () => {
		const { t, cookies, repA, repB } = await setup()
		const put = (codigo: number, evo_instancia: string | null) =>
			t.call('PUT', `/api/representatives/${codigo}`, { cookie: cookies.administrador, body: { evo_instancia } })
		expect((await put(repA.codigo, 'rafael-01')).status).toBe(200)
		for (const name of ['rafael-01', 'RAFAEL-01', '  rafael-01 ']) {
			const res = await put(repB.codigo, name)
			expect({ name, status: res.status }).toEqual({ name, status: 409 })
			expect(res.json.message).toBe('Esta instância do WhatsApp (Evolution) já está vinculada a outro representante.')
		}
		const created = await t.call('POST', '/api/representatives', {
			cookie: cookies.administrador,
			body: { nome: 'Nova', cnpj: NEW_CNPJ, evo_instancia: 'Rafael-01' }
		})
		expect(created.status).toBe(409)
		expect((await row(t, repB.codigo)).evo_instancia).toBeNull()
		// Once Rafael's is unbound, Sara may have it; his own record keeps accepting his own instance.
		expect((await put(repA.codigo, 'rafael-01')).status).toBe(200)
		expect((await put(repA.codigo, null)).status).toBe(200)
		expect((await put(repB.codigo, 'rafael-01')).status).toBe(200)
	})
})

describe('DELETE /api/representatives/{id}', () => {
	it('lets only an administrador delete a representative that owns nothing', async () => {
		const { t, cookies, repC } = await setup()
		expect((await t.call('DELETE', `/api/representatives/${repC.codigo}`, { cookie: cookies.gerente })).status).toBe(403)
		expect((await t.call('DELETE', `/api/representatives/${repC.codigo}`, { cookie: cookies.representante })).status).toBe(403)
		expect((await t.call('DELETE', `/api/representatives/${repC.codigo}`)).status).toBe(401)
		expect(await t.db.select().from(representatives)).toHaveLength(3)
		const res = await t.call('DELETE', `/api/representatives/${repC.codigo}`, { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect(res.json.message).toContain('excluído')
		expect(await t.db.select().from(representatives)).toHaveLength(2)
		expect((await t.db.select().from(activities).where(eq(activities.title, 'Representante excluído')))[0]?.icon).toBe('Users')
		expect((await t.call('DELETE', `/api/representatives/${repC.codigo}`, { cookie: cookies.administrador })).status).toBe(404)
		expect((await t.call('DELETE', '/api/representatives/abc', { cookie: cookies.administrador })).status).toBe(400)
	})

	it('refuses with 409 while companies, credits or a login point at it, leaving no orphans', async () => {
		const { t, cookies, repA, repB, repC } = await setup()
		await addCompany(t, REP3, 1)
		const withCompany = await t.call('DELETE', `/api/representatives/${repC.codigo}`, { cookie: cookies.administrador })
		expect(withCompany.status).toBe(409)
		expect(withCompany.json.message).toContain('1 empresa(s)')
		await t.db.insert(credits).values({ valor: 5, representante_id: CNPJ.rep2, data_compra: '2026-01-01' })
		const withCredits = await t.call('DELETE', `/api/representatives/${repB.codigo}`, { cookie: cookies.administrador })
		expect(withCredits.status).toBe(409)
		expect(withCredits.json.message).toContain('1 lote(s) de créditos')
		const withLogin = await t.call('DELETE', `/api/representatives/${repA.codigo}`, { cookie: cookies.administrador })
		expect(withLogin.status).toBe(409)
		expect(withLogin.json.message).toContain('usuário de acesso')
		expect(await t.db.select().from(representatives)).toHaveLength(3)
		expect(await t.activityTitles()).not.toContain('Representante excluído')
	})
	it('refuses with 409 while other records point at it (a PIX purchase without credits), changing nothing', async () => {
		const { t, cookies, repC } = await setup()
		await t.db.insert(creditPurchases).values({
			representante_id: REP3,
			quantidade: 1,
			valor_unitario_centavos: 5000,
			valor_total_centavos: 5000,
			status: 'expirada',
			vencimento: '2026-11-01',
			created_at: '2026-11-01T12:00:00.000Z',
			expires_at: '2026-11-02T03:00:00.000Z',
			updated_at: '2026-11-02T03:00:00.000Z'
		})
		const res = await t.call('DELETE', `/api/representatives/${repC.codigo}`, { cookie: cookies.administrador })
		expect(res.status).toBe(409)
		expect(res.json.message).toBe(
			'Não é possível excluir: o representante possui registros financeiros (compras de créditos, carnês ou configuração do Asaas).'
		)
		expect(await t.db.select().from(representatives)).toHaveLength(3)
		expect(await t.activityTitles()).not.toContain('Representante excluído')
	})
})

describe('managers and sessions', () => {
	it('a deleted gerente leaves their representatives without a manager', async () => {
		const { t, cookies, gerente2, repB } = await setup()
		const res = await t.call('DELETE', `/api/users/${gerente2.id}`, { cookie: cookies.administrador })
		expect(res.status).toBe(200)
		expect((await t.db.select().from(representatives).where(eq(representatives.codigo, repB.codigo)))[0]!.gerente_id).toBeNull()
		expect(await t.db.select().from(sessions).where(eq(sessions.user_id, gerente2.id))).toHaveLength(0)
	})
})
