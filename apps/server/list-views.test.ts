import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { activities } from '../../modules/activity'
import { formatCnpj } from '../../modules/core'
import { representatives } from '../../modules/resellers'
import { terminals } from '../../modules/terminals'
import { CNPJ, TEST_ORIGIN, testWorld } from './testing'

// Issue 14: the terminals, users, representatives, credits and activity lists sort in SQL, keep their view in the
// query, and export it as a pt-BR CSV, with the same capability and scope as the list.

describe('terminals list: order and export', () => {
	async function world() {
		const t = await testWorld()
		const a = await t.company(CNPJ.rep, 'Zeta Ltda', { nterminais: 5 })
		const b = await t.company(CNPJ.rep2, 'Alfa Ltda', { nterminais: 5 })
		const add = async (fk_empresa: number, nome_computador: string, mac: string, data: string) =>
			await t.db.insert(terminals).values({ fk_empresa, nome_computador, mac, data })
		await add(a.codigo, 'CAIXA-2', 'AA0000000002', '2026-11-19T15:00:00.000Z')
		await add(a.codigo, 'BALCAO', 'AA0000000001', '2026-11-20T10:00:00.000Z')
		await add(b.codigo, 'CAIXA-1', 'BB0000000001', '2026-10-01T12:00:00.000Z')
		return t
	}
	const names = (r: { json: { terminals: { nome_computador: string | null }[] } }) => r.json.terminals.map((x) => x.nome_computador)

	it('sorts by company, computer, MAC and date, both ways', async () => {
		const t = await world()
		const list = (q: string) => t.call('GET', `/api/terminals?${q}`, { cookie: t.cookies.admin })
		expect(names(await list(''))).toEqual(['CAIXA-1', 'CAIXA-2', 'BALCAO'])
		expect(names(await list('sort=nome_computador'))).toEqual(['BALCAO', 'CAIXA-1', 'CAIXA-2'])
		expect(names(await list('sort=mac&order=desc'))).toEqual(['CAIXA-1', 'CAIXA-2', 'BALCAO'])
		expect(names(await list('sort=data&order=desc'))).toEqual(['BALCAO', 'CAIXA-2', 'CAIXA-1'])
		expect((await list('sort=fk_empresa')).status).toBe(400)
	})

	it('exports the filtered view in its scope as a pt-BR CSV', async () => {
		const t = await world()
		const res = await t.csv('/api/terminals/export?search=caixa&sort=data', t.cookies.admin)
		expect([res.status, res.bom, res.headers.get('content-disposition')]).toEqual([
			200,
			true,
			'attachment; filename="terminais-2026-11-20.csv"'
		])
		expect(res.lines).toEqual([
			['Computador', 'Empresa', 'CNPJ da empresa', 'Endereço MAC', 'Cadastro', 'Terminais em uso', 'Terminais permitidos'],
			['CAIXA-1', 'Alfa Ltda', expect.stringMatching(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/), 'BB:00:00:00:00:01', '01/10/2026', '0', '5'],
			['CAIXA-2', 'Zeta Ltda', expect.any(String), 'AA:00:00:00:00:02', '19/11/2026', '0', '5']
		])
		const rep = await t.csv('/api/terminals/export', t.cookies.rep2)
		expect(rep.lines.slice(1).map((l) => l[0])).toEqual(['CAIXA-1'])
		expect((await t.csv('/api/terminals/export')).status).toBe(401)
	})
})

describe('users list: order and export', () => {
	it('sorts by name, CNPJ, type, e-mail and creation, and exports for administradores only', async () => {
		const t = await testWorld()
		const list = async (q: string) =>
			(await t.call('GET', `/api/users?${q}`, { cookie: t.cookies.admin })).json.map((u: { nome: string }) => u.nome)
		expect(await list('')).toEqual(['Ana Admin', 'Gabriel Gerente', 'Rafael Rep', 'Sara Rep'])
		expect(await list('sort=nome&order=desc')).toEqual(['Sara Rep', 'Rafael Rep', 'Gabriel Gerente', 'Ana Admin'])
		expect(await list('sort=tipo')).toEqual(['Ana Admin', 'Gabriel Gerente', 'Rafael Rep', 'Sara Rep'])
		expect(await list('sort=cnpj')).toEqual(['Sara Rep', 'Ana Admin', 'Gabriel Gerente', 'Rafael Rep'])
		expect((await t.call('GET', '/api/users?sort=senha_hash', { cookie: t.cookies.admin })).status).toBe(400)
		const res = await t.csv('/api/users/export?search=rep&sort=nome&order=desc', t.cookies.admin)
		expect(res.bom).toBe(true)
		expect(res.lines).toEqual([
			['Nome', 'CNPJ', 'Tipo', 'E-mail', 'Ativo', 'Data de criação'],
			['Sara Rep', '04.252.011/0001-10', 'Representante', '', 'Sim', '20/11/2026'],
			['Rafael Rep', '45.997.418/0001-53', 'Representante', '', 'Sim', '20/11/2026']
		])
		expect((await t.csv('/api/users/export', t.cookies.gerente)).status).toBe(403)
	})
})

describe('representatives list: order and export', () => {
	it('sorts by name, CNPJ, city, company count and date, and exports the scope', async () => {
		const t = await testWorld()
		await t.company(CNPJ.rep2, 'Um Ltda')
		await t.company(CNPJ.rep2, 'Dois Ltda')
		const list = async (q: string, cookie = t.cookies.admin) =>
			(await t.call('GET', `/api/representatives?${q}`, { cookie })).json.map((r: { nome: string }) => r.nome)
		expect(await list('')).toEqual(['Rafael Rep', 'Sara Rep'])
		expect(await list('sort=nempresas&order=desc')).toEqual(['Sara Rep', 'Rafael Rep'])
		expect(await list('sort=nempresas')).toEqual(['Rafael Rep', 'Sara Rep'])
		expect(await list('sort=cnpj')).toEqual(['Sara Rep', 'Rafael Rep'])
		expect((await t.call('GET', '/api/representatives?sort=plink', { cookie: t.cookies.admin })).status).toBe(400)
		const res = await t.csv('/api/representatives/export?sort=nempresas&order=desc', t.cookies.admin)
		expect(res.lines[0]).toEqual([
			'Nome',
			'CNPJ',
			'E-mail',
			'Telefone',
			'WhatsApp',
			'Cidade',
			'UF',
			'Gerente',
			'Empresas',
			'API Asaas',
			'Cadastro'
		])
		expect(res.lines.slice(1).map((l) => [l[0], l[8], l[10]])).toEqual([
			['Sara Rep', '2', '01/01/2026'],
			['Rafael Rep', '0', '01/01/2026']
		])
		const gerente = await t.csv('/api/representatives/export', t.cookies.gerente)
		expect(gerente.lines.slice(1).map((l) => l[0])).toEqual(['Rafael Rep'])
	})
})

describe('credits lists: order, pages and export', () => {
	it('pages and sorts the administrator’s summary and exports it', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 10)
		await w.addCreditsVia(CNPJ.rep2, 4)
		const summary = async (q: string) => (await w.call('GET', `/api/credits/summary?${q}`, { cookie: w.cookies.admin })).json
		expect((await summary('')).representatives.map((r: { nome: string }) => r.nome)).toEqual(['Rafael Rep', 'Sara Rep'])
		expect((await summary('sort=disponivel&order=asc')).representatives.map((r: { nome: string }) => r.nome)).toEqual([
			'Sara Rep',
			'Rafael Rep'
		])
		const second = await summary('sort=nome&order=asc&limit=1&page=2')
		expect(second.representatives.map((r: { nome: string }) => r.nome)).toEqual(['Sara Rep'])
		expect(second.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2, hasPrev: true, hasNext: false })
		const res = await w.csv('/api/credits/summary/export?sort=nome&order=asc', w.cookies.admin)
		expect(res.lines).toEqual([
			['Representante', 'CNPJ', 'Disponível', 'Utilizado', 'Total'],
			['Rafael Rep', '45.997.418/0001-53', '10', '0', '10'],
			['Sara Rep', '04.252.011/0001-10', '4', '0', '4']
		])
		expect((await w.csv('/api/credits/summary/export', w.cookies.rep)).status).toBe(403)
	})

	it('sorts a representative’s batches and exports them and the transfers, in scope', async () => {
		const w = await testWorld()
		await w.addCreditsVia(CNPJ.rep, 3, 40)
		await w.addCreditsVia(CNPJ.rep, 8, 49.9)
		await w.addCreditsVia(CNPJ.rep2, 5)
		const c = await w.company(CNPJ.rep, 'Cliente Ltda', { validade_licenca: '2026-12-01' })
		await w.call('POST', '/api/credits/transfer-to-company', {
			cookie: w.cookies.rep,
			body: { empresaCodigo: c.codigo, sistema: 'K-PDV', creditos: 2 }
		})
		const pool = async (q: string) =>
			(await w.call('GET', `/api/credits?kind=pool&${q}`, { cookie: w.cookies.rep })).json.credits.map((x: { valor: number }) => x.valor)
		expect(await pool('')).toEqual([8, 1])
		expect(await pool('sort=valor&order=asc')).toEqual([1, 8])
		const list = await w.call('GET', '/api/credits?kind=pool', { cookie: w.cookies.rep })
		expect(list.json.pagination).toMatchObject({ page: 1, total: 2 })
		const batches = await w.csv('/api/credits/export?kind=pool&sort=id&order=asc', w.cookies.rep)
		expect(batches.lines).toEqual([
			[
				'ID',
				'Representante',
				'CNPJ do representante',
				'Créditos restantes',
				'Créditos comprados',
				'Valor unitário (R$)',
				'Data da compra',
				'Status'
			],
			[expect.any(String), 'Rafael Rep', '45.997.418/0001-53', '1', '3', '40,00', '20/11/2026', 'Disponível'],
			[expect.any(String), 'Rafael Rep', '45.997.418/0001-53', '8', '8', '49,90', '20/11/2026', 'Disponível']
		])
		const transfers = await w.csv('/api/credits/export?kind=transfer', w.cookies.rep)
		expect(transfers.lines.slice(1).map((l) => l.slice(3))).toEqual([['Cliente Ltda', 'K-PDV', '2', '20/11/2026']])
		expect((await w.csv('/api/credits/export?kind=pool', w.cookies.rep2)).lines).toHaveLength(2)
	})
})

describe('GET /api/activities: the history with pages, a period and an export', () => {
	it('pages newest first, filters by a period of Brazil days, and exports with date and time', async () => {
		const w = await testWorld()
		const line = async (created_at: string, title: string) =>
			await w.db.insert(activities).values({ created_at, type: 'info', icon: 'Building', title, subtitle: 'detalhe' })
		await line('2026-11-18T02:59:00.000Z', 'Noite do dia 17')
		await line('2026-11-18T03:00:00.000Z', 'Início do dia 18')
		await line('2026-11-19T02:59:59.000Z', 'Fim do dia 18')
		await line('2026-11-20T12:00:00.000Z', 'Hoje')
		const list = async (q: string) => (await w.call('GET', `/api/activities?${q}`, { cookie: w.cookies.admin })).json
		const all = await list('limit=2')
		expect(all.activities.map((a: { title: string }) => a.title)).toEqual(['Hoje', 'Fim do dia 18'])
		expect(all.pagination).toMatchObject({ page: 1, limit: 2, total: 4, totalPages: 2 })
		expect((await list('inicio=2026-11-18&fim=2026-11-18')).activities.map((a: { title: string }) => a.title)).toEqual([
			'Fim do dia 18',
			'Início do dia 18'
		])
		expect((await list('inicio=2026-11-19')).activities.map((a: { title: string }) => a.title)).toEqual(['Hoje'])
		const bad = await w.call('GET', '/api/activities?inicio=2026-11-20&fim=2026-11-01', { cookie: w.cookies.admin })
		expect([bad.status, bad.json.message]).toEqual([400, expect.stringContaining('A data inicial deve ser anterior')])
		const res = await w.csv('/api/activities/export?fim=2026-11-18', w.cookies.admin)
		expect(res.lines).toEqual([
			['Data e hora', 'Tipo', 'Atividade', 'Detalhe', 'Usuário'],
			['18/11/2026 23:59', 'Info', 'Fim do dia 18', 'detalhe', ''],
			['18/11/2026 00:00', 'Info', 'Início do dia 18', 'detalhe', ''],
			['17/11/2026 23:59', 'Info', 'Noite do dia 17', 'detalhe', '']
		])
		// A representante reads only the lines about their data.
		expect((await w.call('GET', '/api/activities', { cookie: w.cookies.rep })).json.pagination.total).toBe(0)
		expect((await w.csv('/api/activities/export', w.cookies.rep)).lines).toHaveLength(1)
	})
})

// The exports' exact bytes (BOM, ';', quoting, formula guard, CRLF, headers): they must not change when the code
// that writes them does.
describe('the exports, byte for byte', () => {
	/** A download as it leaves the app: its status, its headers and its bytes as text (the BOM kept). */
	async function download(t: Awaited<ReturnType<typeof testWorld>>, path: string) {
		const response = await t.app.handle(new Request(TEST_ORIGIN + path, { headers: { cookie: t.cookies.admin } }))
		const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer())
		const headers = ['content-type', 'content-disposition', 'cache-control', 'x-content-type-options']
		return { status: response.status, headers: headers.map((h) => response.headers.get(h)), text }
	}
	/** What a download of `filename` answers: 200, the CSV headers, the BOM, then each line with its CRLF. */
	const csvFile = (filename: string, lines: string[]) => ({
		status: 200,
		headers: ['text/csv; charset=utf-8', `attachment; filename="${filename}"`, 'no-store', 'nosniff'],
		text: `\uFEFF${lines.map((line) => `${line}\r\n`).join('')}`
	})

	it('users and representatives', async () => {
		const t = await testWorld()
		await t.createUser({ cnpj: '11222333000262', tipo: 'gerente', nome: 'Zé "Gê"; Lima', email: '=x@ex.com', ativo: false })
		await t.db
			.update(representatives)
			.set({ fone: '8532210000', whatsapp: '85999990001', cidade: 'Fortaleza', uf: 'CE', ativar_api_asaas: 'S', email: 'r@ex.com' })
			.where(eq(representatives.cnpj, CNPJ.rep))
		await t.company(CNPJ.rep2, 'Um Ltda')
		expect(await download(t, '/api/users/export?sort=nome&order=desc')).toEqual(
			csvFile('usuarios-2026-11-20.csv', [
				'Nome;CNPJ;Tipo;E-mail;Ativo;Data de criação',
				'"Zé ""Gê""; Lima";11.222.333/0002-62;Gerente;\'=x@ex.com;Não;20/11/2026',
				'Sara Rep;04.252.011/0001-10;Representante;;Sim;20/11/2026',
				'Rafael Rep;45.997.418/0001-53;Representante;;Sim;20/11/2026',
				'Gabriel Gerente;11.444.777/0001-61;Gerente;;Sim;20/11/2026',
				'Ana Admin;11.222.333/0001-81;Administrador;ana.admin@example.com;Sim;20/11/2026'
			])
		)
		expect(await download(t, '/api/representatives/export')).toEqual(
			csvFile('representantes-2026-11-20.csv', [
				'Nome;CNPJ;E-mail;Telefone;WhatsApp;Cidade;UF;Gerente;Empresas;API Asaas;Cadastro',
				'Rafael Rep;45.997.418/0001-53;r@ex.com;(85) 3221-0000;(85) 99999-0001;Fortaleza;CE;Gabriel Gerente;0;Ativa;01/01/2026',
				'Sara Rep;04.252.011/0001-10;;;;;;;1;Inativa;01/01/2026'
			])
		)
	})

	it('terminals, the credits summary and the activity log', async () => {
		const t = await testWorld()
		const c = await t.company(CNPJ.rep, 'Bar; "do Zé"', { nterminais: 3 })
		await t.db
			.insert(terminals)
			.values({ fk_empresa: c.codigo, nome_computador: '-CAIXA', mac: 'AA0000000001', data: '2026-11-19T15:00:00.000Z' })
		await t.addCreditsVia(CNPJ.rep, 7)
		await t.db.insert(activities).values({
			created_at: '2026-11-20T12:00:00.000Z',
			type: 'warning',
			icon: 'Building',
			title: 'Linha\r\nnova',
			subtitle: '@x',
			user_nome: 'Ana'
		})
		expect(await download(t, '/api/terminals/export')).toEqual(
			csvFile('terminais-2026-11-20.csv', [
				'Computador;Empresa;CNPJ da empresa;Endereço MAC;Cadastro;Terminais em uso;Terminais permitidos',
				`'-CAIXA;"Bar; ""do Zé""";${formatCnpj(c.cnpj)};AA:00:00:00:00:01;19/11/2026;0;3`
			])
		)
		expect(await download(t, '/api/credits/summary/export')).toEqual(
			csvFile('creditos-por-representante-2026-11-20.csv', [
				'Representante;CNPJ;Disponível;Utilizado;Total',
				'Rafael Rep;45.997.418/0001-53;7;0;7',
				'Sara Rep;04.252.011/0001-10;0;0;0'
			])
		)
		expect(await download(t, '/api/activities/export')).toEqual(
			csvFile('atividades-2026-11-20.csv', [
				'Data e hora;Tipo;Atividade;Detalhe;Usuário',
				'20/11/2026 09:00;Aviso;"Linha\r\nnova";\'@x;Ana',
				'20/11/2026 09:00;Sucesso;7 créditos adicionados;Rafael Rep · R$ 50,00 por crédito;Ana Admin'
			])
		)
	})
})
