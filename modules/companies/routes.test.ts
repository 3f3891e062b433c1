import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { DAY, HOUR, completeCnpj } from '../core'
import { activities } from '../activity'
import { terminals } from '../terminals'
import { companies } from './schema'
import { type TestWorld, testWorld } from '../../apps/server/testing'

/** Each company's maintenance flag ('S' or 'N'), in the order they were created. */
const maintenanceFlags = async (t: TestWorld) =>
	(await t.db.select({ m: companies.manutencao }).from(companies).orderBy(companies.codigo)).map((r) => r.m)

// The fixed clock stands at 2026-11-20 12:00 UTC (09:00 in São Paulo): "today" is 2026-11-20.

describe('POST /api/companies', () => {
	it('creates a company with a random licence key and the spec fields, and logs it', async () => {
		const t = await testWorld()
		const res = await t.call('POST', '/api/companies', {
			cookie: t.cookies.admin,
			body: {
				razao: 'Padaria Pão Nosso Ltda',
				cnpj: '11.222.333/0001-81',
				cnpj_representante: t.cnpj.rep,
				cidade: 'Fortaleza',
				uf: 'ce',
				cep: '60000000',
				fone: '(85) 3333-4444',
				email: 'Contato@Padaria.com.br',
				nterminais: 3,
				valor_mensal: 129.9,
				dia_venc: 10,
				validade_licenca: '2027-01-15',
				bloqueadopdv: 'S'
			}
		})
		expect(res.status).toBe(201)
		const c = res.json.company
		expect(c).toMatchObject({
			razao: 'Padaria Pão Nosso Ltda',
			cnpj: '11222333000181',
			cnpj_representante: t.cnpj.rep,
			uf: 'CE',
			cep: '60000-000',
			fone: '8533334444',
			email: 'contato@padaria.com.br',
			nterminais: 3,
			terminal_count: 0,
			valor_mensal: 129.9,
			dia_venc: 10,
			validade_licenca: '2027-01-15',
			bloqueado: 'N',
			bloqueadopdv: 'S',
			data: '2026-11-20',
			representante: { nome: 'Rafael Rep' }
		})
		expect(c.serial).toMatch(/^[A-Za-z0-9_-]{32}$/)
		expect(c).not.toHaveProperty('valor_mensal_centavos')
		const log = await t.db.select().from(activities).where(eq(activities.title, 'Empresa criada'))
		expect(log).toHaveLength(1)
		expect(log[0].representante_cnpj).toBe(t.cnpj.rep)
		expect(log[0].event).toBe('companies.created')
	})

	it('refuses a duplicate CNPJ with 409, masked or not', async () => {
		const t = await testWorld()
		const first = await t.companyVia({ cnpj: '11222333000181' })
		const dup = await t.call('POST', '/api/companies', {
			cookie: t.cookies.admin,
			body: { razao: 'Outra', cnpj: '11.222.333/0001-81', cnpj_representante: t.cnpj.rep, nterminais: 1 }
		})
		expect(dup.status).toBe(409)
		expect(dup.json.message).toContain('CNPJ')
		const edit = await t.call('PUT', `/api/companies/${first.codigo}`, {
			cookie: t.cookies.admin,
			body: { ...first, cnpj: '11222333000181' }
		})
		expect(edit.status).toBe(200)
	})

	it('refuses each invalid field with 400 and a pt-BR message, creating nothing', async () => {
		const t = await testWorld()
		const valid = { razao: 'Empresa', cnpj: completeCnpj('300000000001'), cnpj_representante: t.cnpj.rep, nterminais: 1 }
		const cases: [Record<string, unknown>, string][] = [
			[{ razao: '' }, 'Razão social'],
			[{ cnpj: '11222333000182' }, 'CNPJ inválido'],
			[{ nterminais: 0 }, 'pelo menos 1 terminal'],
			[{ nterminais: 1.5 }, 'inteiro'],
			[{ dia_venc: 32 }, 'entre 1 e 31'],
			[{ valor_mensal: 10.123 }, '2 casas decimais'],
			[{ valor_mensal: -1 }, 'negativo'],
			[{ validade_licenca: '2026-02-30' }, 'Data inválida'],
			[{ bloqueado: 'X' }, 'S ou N'],
			[{ uf: 'XX' }, 'UF inválida'],
			[{ email: 'não-é-email' }, 'E-mail inválido'],
			[{ link: 'javascript:alert(1)' }, 'Link inválido']
		]
		for (const [change, message] of cases) {
			const res = await t.call('POST', '/api/companies', { cookie: t.cookies.admin, body: { ...valid, ...change } })
			expect(res.status, JSON.stringify(change)).toBe(400)
			expect(res.json.message, JSON.stringify(change)).toContain(message)
		}
		expect(await t.db.select().from(companies)).toHaveLength(0)
		// A partial update words wrong types too, field by field.
		const c = await t.companyVia()
		const patches: [Record<string, unknown>, string][] = [
			[{ validade_licenca: 12345 }, 'Data inválida: use o formato AAAA-MM-DD.'],
			[{ exibir_aviso: true }, 'Use S ou N.'],
			[{ razao: 'x' }, 'Dados inválidos: campo não permitido: razao.']
		]
		for (const [patch, message] of patches) {
			const res = await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin, body: patch })
			expect([res.status, res.json.message]).toEqual([400, message])
		}
		// A date left out stays; an empty one or null clears it.
		const dated = async (body: Record<string, unknown>) =>
			(await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin, body })).json.company
		expect(await dated({ validade_licenca: '2027-03-01', validade_certificado: '2027-02-01' })).toMatchObject({
			validade_licenca: '2027-03-01',
			validade_certificado: '2027-02-01'
		})
		expect(await dated({ validade_certificado: '' })).toMatchObject({ validade_licenca: '2027-03-01', validade_certificado: null })
		expect(await dated({ validade_licenca: null })).toMatchObject({ validade_licenca: null, validade_certificado: null })
	})

	it('makes a representative the owner of what they create, and refuses dates or another owner from them', async () => {
		const t = await testWorld()
		const base = { razao: 'Minha Empresa', cnpj: completeCnpj('300000000002'), nterminais: 1 }
		const own = await t.call('POST', '/api/companies', { cookie: t.cookies.rep, body: base })
		expect(own.status).toBe(201)
		expect(own.json.company.cnpj_representante).toBe(t.cnpj.rep)
		const other = await t.call('POST', '/api/companies', {
			cookie: t.cookies.rep,
			body: { ...base, cnpj: completeCnpj('300000000003'), cnpj_representante: t.cnpj.rep2 }
		})
		expect(other.status).toBe(403)
		expect(other.json.message).toBe('Representantes não podem alterar este campo')
		const dated = await t.call('POST', '/api/companies', {
			cookie: t.cookies.rep,
			body: { ...base, cnpj: completeCnpj('300000000004'), validade_licenca: '2030-01-01' }
		})
		expect(dated.status).toBe(403)
		expect(await t.db.select().from(companies)).toHaveLength(1)
	})

	it('lets a gerente create companies only for the representatives they manage', async () => {
		const t = await testWorld()
		const body = { razao: 'X', cnpj: completeCnpj('300000000005'), nterminais: 1 }
		expect(
			(await t.call('POST', '/api/companies', { cookie: t.cookies.gerente, body: { ...body, cnpj_representante: t.cnpj.rep } })).status
		).toBe(201)
		const refused = await t.call('POST', '/api/companies', {
			cookie: t.cookies.gerente,
			body: { ...body, cnpj: completeCnpj('300000000006'), cnpj_representante: t.cnpj.rep2 }
		})
		expect(refused.status).toBe(403)
	})
})

describe('scoping', () => {
	it('shows each role only its companies, and hides others behind 404 without changing them', async () => {
		const t = await testWorld()
		const a = await t.companyVia({ razao: 'Da A', cnpj_representante: t.cnpj.rep })
		const b = await t.companyVia({ razao: 'Da B', cnpj_representante: t.cnpj.rep2 })
		const names = async (cookie: string) =>
			(await t.call('GET', '/api/companies?page=1&limit=50', { cookie })).json.companies.map((c: { razao: string }) => c.razao)
		expect(await names(t.cookies.admin)).toEqual(['Da A', 'Da B'])
		expect(await names(t.cookies.gerente)).toEqual(['Da A'])
		expect(await names(t.cookies.rep)).toEqual(['Da A'])
		expect(await names(t.cookies.rep2)).toEqual(['Da B'])
		expect(
			(await t.call('GET', '/api/companies/all', { cookie: t.cookies.rep2 })).json.companies.map((c: { codigo: number }) => c.codigo)
		).toEqual([b.codigo])

		const before = JSON.stringify((await t.db.select().from(companies).where(eq(companies.codigo, a.codigo)))[0])
		const attempts = [
			t.call('GET', `/api/companies/${a.codigo}`, { cookie: t.cookies.rep2 }),
			t.call('PUT', `/api/companies/${a.codigo}`, { cookie: t.cookies.rep2, body: { ...a, razao: 'Roubada' } }),
			t.call('PATCH', `/api/companies/${a.codigo}`, { cookie: t.cookies.rep2, body: { bloqueado: 'S' } }),
			t.call('DELETE', `/api/companies/${a.codigo}`, { cookie: t.cookies.rep2 }),
			t.call('POST', `/api/companies/${a.codigo}/liberar-confianca`, { cookie: t.cookies.rep2 })
		]
		for (const r of await Promise.all(attempts)) expect(r.status).toBe(404)
		expect(JSON.stringify((await t.db.select().from(companies).where(eq(companies.codigo, a.codigo)))[0])).toBe(before)
		// The gerente manages A's representative, so this one is allowed.
		expect((await t.call('PATCH', `/api/companies/${a.codigo}`, { cookie: t.cookies.gerente, body: { bloqueado: 'S' } })).status).toBe(200)
	})

	it('keeps a representative from changing the owner or the dates on edit', async () => {
		const t = await testWorld()
		const a = await t.companyVia({ validade_licenca: '2027-01-01' })
		const owner = await t.call('PUT', `/api/companies/${a.codigo}`, {
			cookie: t.cookies.rep,
			body: { ...a, cnpj_representante: t.cnpj.rep2 }
		})
		expect(owner.status).toBe(403)
		const dates = await t.call('PUT', `/api/companies/${a.codigo}`, {
			cookie: t.cookies.rep,
			body: { ...a, validade_licenca: '2030-01-01' }
		})
		expect(dates.status).toBe(403)
		const ok = await t.call('PUT', `/api/companies/${a.codigo}`, { cookie: t.cookies.rep, body: { ...a, razao: 'Nome Novo' } })
		expect(ok.status).toBe(200)
		expect(ok.json.company.validade_licenca).toBe('2027-01-01')
	})
})

describe('GET /api/companies search, filters and paging', () => {
	it('searches razão social (accents ignored), city and CNPJ with or without mask', async () => {
		const t = await testWorld()
		await t.companyVia({ razao: 'Padaria Pão Nosso', cidade: 'Fortaleza', cnpj: '11222333000181' })
		await t.companyVia({ razao: 'Restaurante Sabor', cidade: 'Recife', cnpj: '45997418000153' })
		const find = async (search: string) =>
			(
				await t.call('GET', `/api/companies?page=1&limit=20&search=${encodeURIComponent(search)}`, { cookie: t.cookies.admin })
			).json.companies.map((c: { razao: string }) => c.razao)
		expect(await find('pao nos')).toEqual(['Padaria Pão Nosso'])
		const counted = await t.call('GET', '/api/companies?search=recife', { cookie: t.cookies.admin })
		expect(counted.json.pagination.total).toBe(1)
		const repScoped = await t.call('GET', '/api/companies?search=recife', { cookie: t.cookies.rep2 })
		expect(repScoped.json.pagination.total).toBe(0)
		const searches: [string, string[]][] = [
			['SABOR', ['Restaurante Sabor']],
			['recif', ['Restaurante Sabor']],
			['11.222.333/0001-81', ['Padaria Pão Nosso']],
			['459974', ['Restaurante Sabor']],
			['Pa', ['Padaria Pão Nosso']],
			["' or 1=1 --", []],
			['%', []],
			['"', []]
		]
		for (const [search, found] of searches) expect(await find(search), search).toEqual(found)
	})

	it('pages through a search in the list order with the total of its matches, whatever the scope, filter or sort', async () => {
		const t = await testWorld()
		// Companies that do not match, before the ones that do in the name order.
		for (let i = 0; i < 10; i++) await t.company(t.cnpj.rep, `Açougue ${i}`, { cidade: 'Recife', validade_licenca: '2027-04-01' })
		await t.company(t.cnpj.rep2, 'Padaria A', { validade_licenca: '2027-03-01' })
		await t.company(t.cnpj.rep, 'Padaria B', { validade_licenca: null })
		await t.company(t.cnpj.rep2, 'Padaria C', { validade_licenca: '2027-01-01' })
		await t.company(t.cnpj.rep, 'Padaria D', { validade_licenca: '2027-03-01' })
		await t.company(t.cnpj.rep2, 'Padaria E', { validade_licenca: '2027-02-01' })
		// Found by its city.
		await t.company(t.cnpj.rep, 'Loja Central', { cidade: 'Padaria Velha', validade_licenca: '2027-05-01' })
		const page = async (query: string, cookie = t.cookies.admin) => {
			const res = await t.call('GET', `/api/companies?${query}`, { cookie })
			return { names: res.json.companies.map((c: { razao: string }) => c.razao), total: res.json.pagination.total }
		}
		expect(await page('search=padaria')).toEqual({
			names: ['Loja Central', 'Padaria A', 'Padaria B', 'Padaria C', 'Padaria D', 'Padaria E'],
			total: 6
		})
		// Ties (A and D) broken by code; no licence first going up, last going down.
		const down = 'search=padaria&sort=validade_licenca&order=desc&limit=2'
		expect(await page(`${down}&page=1`)).toEqual({ names: ['Loja Central', 'Padaria D'], total: 6 })
		expect(await page(`${down}&page=2`)).toEqual({ names: ['Padaria A', 'Padaria E'], total: 6 })
		expect(await page(`${down}&page=3`)).toEqual({ names: ['Padaria C', 'Padaria B'], total: 6 })
		expect(await page(`${down}&page=4`)).toEqual({ names: [], total: 6 })
		expect(await page('search=padaria&sort=validade_licenca&limit=3')).toEqual({ names: ['Padaria B', 'Padaria C', 'Padaria E'], total: 6 })
		expect(await page('search=padaria', t.cookies.rep2)).toEqual({ names: ['Padaria A', 'Padaria C', 'Padaria E'], total: 3 })
		expect(await page('search=padaria&status=no-license')).toEqual({ names: ['Padaria B'], total: 1 })
		// A match lies within one of razão social, city and CNPJ, never across two.
		expect(await page('search=central padaria')).toEqual({ names: [], total: 0 })
		expect(await page('search=ral')).toEqual({ names: ['Loja Central'], total: 1 })
	})

	it('classifies licence status as 1-core §4 says and filters by it and by notices', async () => {
		const t = await testWorld()
		await t.companyVia({ razao: 'Ativa', validade_licenca: '2026-12-31' })
		await t.companyVia({ razao: 'Expira Breve', validade_licenca: '2026-11-24' })
		await t.companyVia({ razao: 'Vence Hoje', validade_licenca: '2026-11-20' })
		await t.companyVia({ razao: 'Expirada', validade_licenca: '2026-10-01', exibir_aviso: 'S' })
		await t.companyVia({ razao: 'Bloqueada', validade_licenca: '2026-12-31', bloqueado_kchef: 'S' })
		await t.companyVia({ razao: 'Sem Licença' })
		const list = async (filter: string) =>
			(await t.call('GET', `/api/companies?page=1&limit=50&${filter}`, { cookie: t.cookies.admin })).json.companies.map(
				(c: { razao: string }) => c.razao
			)
		expect(await list('status=ativas')).toEqual(['Ativa', 'Expira Breve'])
		expect(await list('status=expiradas')).toEqual(['Expirada', 'Vence Hoje'])
		expect(await list('status=bloqueadas')).toEqual(['Bloqueada'])
		expect(await list('status=expiring_soon')).toEqual(['Expira Breve'])
		expect(await list('status=no-license')).toEqual(['Sem Licença'])
		expect(await list('avisos=com')).toEqual(['Expirada'])
		expect((await list('avisos=sem')).length).toBe(5)
		expect((await t.call('GET', '/api/companies?status=qualquer', { cookie: t.cookies.admin })).status).toBe(400)
	})

	it('pages in SQL and answers the spec pagination shape', async () => {
		const t = await testWorld()
		for (let i = 0; i < 25; i++) await t.companyVia({ razao: `Empresa ${String(i).padStart(2, '0')}` })
		const res = await t.call('GET', '/api/companies?page=3&limit=10', { cookie: t.cookies.admin })
		expect(res.json.companies).toHaveLength(5)
		expect(res.json.pagination).toEqual({ page: 3, limit: 10, total: 25, totalPages: 3, hasPrev: true, hasNext: false })
		expect((await t.call('GET', '/api/companies?page=0', { cookie: t.cookies.admin })).status).toBe(400)
		expect((await t.call('GET', '/api/companies?limit=5000', { cookie: t.cookies.admin })).status).toBe(400)
	})
})

describe('PATCH, trust release, maintenance, delete', () => {
	it('lets only the administrador edit the dates, and anyone in scope block systems and notices', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ validade_licenca: '2027-01-01' })
		const dates = { validade_licenca: '2027-06-30', validade_certificado: '2027-03-01' }
		expect((await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.rep, body: dates })).status).toBe(403)
		expect((await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.gerente, body: dates })).status).toBe(403)
		const ok = await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin, body: dates })
		expect(ok.json.company).toMatchObject(dates)
		const all = { bloqueado: 'S', bloqueadopdv: 'S', bloqueado_kchef: 'S', bloqueado_katelie: 'S', bloqueado_kprevenda: 'S' }
		const blocked = await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.rep, body: all })
		expect(blocked.json.company).toMatchObject(all)
		expect(
			(await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.rep, body: { exibir_aviso: 'S' } })).json.company
				.exibir_aviso
		).toBe('S')
		const extra = await t.call('PATCH', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin, body: { razao: 'Outra' } })
		expect(extra.status).toBe(400)
		expect((await t.db.select({ razao: companies.razao }).from(companies))[0]!.razao).toBe(c.razao)
	})

	it('grants a trust release only when the licence has passed, for 24 hours, once per expiry', async () => {
		const t = await testWorld()
		const active = await t.companyVia({ validade_licenca: '2026-12-01' })
		const notYet = await t.call('POST', `/api/companies/${active.codigo}/liberar-confianca`, { cookie: t.cookies.rep })
		expect(notYet.status).toBe(422)
		expect(notYet.json.message).toBe('A licença não está vencida ou empresa não encontrada.')

		const expired = await t.companyVia({ validade_licenca: '2026-11-19' })
		const first = await t.call('POST', `/api/companies/${expired.codigo}/liberar-confianca`, { cookie: t.cookies.rep })
		expect(first.status).toBe(200)
		expect(first.json.liberacao_confianca_expira).toBe('2026-11-21T12:00:00.000Z')
		t.clock.advance(2 * HOUR)
		const admin = await t.login(t.cnpj.admin)
		const second = await t.call('POST', `/api/companies/${expired.codigo}/liberar-confianca`, { cookie: admin })
		expect(second.status).toBe(409)
		expect(second.json.message).toContain('já está liberada')
		t.clock.advance(23 * HOUR)
		const rep = await t.login(t.cnpj.rep)
		const afterExpiry = await t.call('POST', `/api/companies/${expired.codigo}/liberar-confianca`, { cookie: rep })
		expect(afterExpiry.status).toBe(409)
		expect((await t.db.select().from(companies).where(eq(companies.codigo, expired.codigo)))[0]!.liberacao_confianca_expira).toBe(
			'2026-11-21T12:00:00.000Z'
		)

		// Renewed and expired again: a new expiry earns a new release.
		await t.call('PATCH', `/api/companies/${expired.codigo}`, {
			cookie: await t.login(t.cnpj.admin),
			body: { validade_licenca: '2026-11-25' }
		})
		t.clock.advance(5 * DAY)
		expect((await t.call('POST', `/api/companies/${expired.codigo}/liberar-confianca`, { cookie: await t.login(t.cnpj.rep) })).status).toBe(
			200
		)
	})

	it('switches maintenance per company and in bulk, administrador only', async () => {
		const t = await testWorld()
		const a = await t.companyVia()
		await t.companyVia()
		expect(
			(await t.call('PUT', `/api/companies/${a.codigo}/maintenance`, { cookie: t.cookies.rep, body: { manutencao: 'S' } })).status
		).toBe(403)
		expect((await t.call('PUT', '/api/companies/maintenance/bulk', { cookie: t.cookies.gerente, body: { manutencao: 'S' } })).status).toBe(
			403
		)
		expect(
			(await t.call('PUT', `/api/companies/${a.codigo}/maintenance`, { cookie: t.cookies.admin, body: { manutencao: 'X' } })).status
		).toBe(400)
		expect(
			(await t.call('PUT', `/api/companies/${a.codigo}/maintenance`, { cookie: t.cookies.admin, body: { manutencao: 'S' } })).status
		).toBe(200)
		expect(await maintenanceFlags(t)).toEqual(['S', 'N'])
		const bulk = await t.call('PUT', '/api/companies/maintenance/bulk', { cookie: t.cookies.admin, body: { manutencao: 'S' } })
		expect(bulk.json.changed).toBe(2)
		expect(await maintenanceFlags(t)).toEqual(['S', 'S'])
	})

	it('deletes a company with its terminals', async () => {
		const t = await testWorld()
		const c = await t.companyVia()
		await t.call('POST', '/api/terminals', {
			cookie: t.cookies.rep,
			body: { fk_empresa: c.codigo, mac: '00:1a:2b:3c:4d:5e', nome_computador: 'CAIXA-01' }
		})
		expect((await t.call('DELETE', `/api/companies/${c.codigo}`, { cookie: t.cookies.rep })).status).toBe(200)
		expect(await t.db.select().from(companies)).toHaveLength(0)
		expect(await t.db.select().from(terminals)).toHaveLength(0)
	})

	it('lets only the administrador regenerate the licence key', async () => {
		const t = await testWorld()
		const c = await t.companyVia()
		expect((await t.call('POST', `/api/companies/${c.codigo}/regenerar-chave`, { cookie: t.cookies.rep })).status).toBe(403)
		const res = await t.call('POST', `/api/companies/${c.codigo}/regenerar-chave`, { cookie: t.cookies.admin })
		expect(res.json.serial).not.toBe(c.serial)
		expect((await t.db.select({ s: companies.serial }).from(companies))[0]!.s).toBe(res.json.serial)
	})
})

describe('representative notices', () => {
	it('sends a notice to the representative’s own companies and removes it', async () => {
		const t = await testWorld()
		const a1 = await t.companyVia()
		const a2 = await t.companyVia()
		const b = await t.companyVia({ cnpj_representante: t.cnpj.rep2 })
		const send = await t.call('POST', '/api/representantes/avisos', {
			cookie: t.cookies.rep,
			body: { titulo: 'Atualização', texto: 'Nova versão disponível.', empresas: [a1.codigo, a2.codigo] }
		})
		expect(send.status).toBe(200)
		const rows = await t.db.select().from(companies).orderBy(companies.codigo)
		expect(rows.filter((r) => r.exibir_aviso === 'S').map((r) => r.codigo)).toEqual([a1.codigo, a2.codigo])
		expect(rows[0].aviso_titulo).toBe('Atualização')

		const mixed = await t.call('POST', '/api/representantes/avisos', {
			cookie: t.cookies.rep,
			body: { titulo: 'X', texto: 'Y', empresas: [a1.codigo, b.codigo] }
		})
		expect(mixed.status).toBe(404)
		expect((await t.db.select().from(companies).where(eq(companies.codigo, b.codigo)))[0]!.exibir_aviso).toBe('N')

		for (const [body, message] of [
			[{ titulo: '', texto: 'x', empresas: [a1.codigo] }, 'Título é obrigatório'],
			[{ titulo: 'x'.repeat(101), texto: 'x', empresas: [a1.codigo] }, '100'],
			[{ titulo: 'x', texto: '', empresas: [a1.codigo] }, 'Texto do aviso é obrigatório'],
			[{ titulo: 'x', texto: 'x'.repeat(1001), empresas: [a1.codigo] }, '1000'],
			[{ titulo: 'x', texto: 'x', empresas: [] }, 'Selecione pelo menos uma empresa']
		] as const) {
			const res = await t.call('POST', '/api/representantes/avisos', { cookie: t.cookies.rep, body })
			expect(res.status).toBe(400)
			expect(res.json.message).toContain(message)
		}
		expect(
			(
				await t.call('POST', '/api/representantes/avisos', {
					cookie: t.cookies.admin,
					body: { titulo: 'x', texto: 'y', empresas: [a1.codigo] }
				})
			).status
		).toBe(403)
		const removed = await t.call('DELETE', '/api/representantes/avisos', { cookie: t.cookies.rep, body: { empresas: [a1.codigo] } })
		expect(removed.status).toBe(200)
		expect((await t.db.select().from(companies).where(eq(companies.codigo, a1.codigo)))[0]!.exibir_aviso).toBe('N')
	})
})

describe('CNPJ search', () => {
	it('finds companies by the start of a CNPJ, numeric or alphanumeric, masked or bare, without mistaking names for CNPJs', async () => {
		const t = await testWorld()
		await t.companyVia({ razao: 'Numérica', cnpj: '11222333000181' })
		await t.companyVia({ razao: 'Alfanumérica', cnpj: '12ABC34501DE35' })
		await t.companyVia({ razao: 'Loja 20242025', cnpj: '45997418000153' })
		const find = async (search: string) =>
			(await t.call('GET', `/api/companies?search=${encodeURIComponent(search)}`, { cookie: t.cookies.admin })).json.companies.map(
				(c: { razao: string }) => c.razao
			)
		expect(await find('11.222.333')).toEqual(['Numérica'])
		expect(await find('11222333000181')).toEqual(['Numérica'])
		expect(await find('12.ABC.345')).toEqual(['Alfanumérica'])
		expect(await find('12.abc.345/01de-35')).toEqual(['Alfanumérica'])
		expect(await find('20242025')).toEqual(['Loja 20242025'])
		expect(await find('3330001')).toEqual(['Numérica'])
		// Eight digits or more are the start of a CNPJ, not a part of one.
		expect(await find('22333000')).toEqual([])
	})
})
