import { DIALECT } from '../../db/dialect'
import { sqlRows, sqlRun } from '../../db/query'
import { sortedBy, writeTransaction } from '../core/server'
import { COMPANY_SORTS } from './reads'
import { searchCondition } from './service'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { companies } from './schema'

// The fixed clock stands at 2026-11-20 12:00 UTC: "today" is 2026-11-20.

async function world() {
	const t = await testWorld()
	await t.company(t.cnpj.rep, 'Bravo Ltda', {
		validade_licenca: '2027-05-01',
		validade_certificado: '2027-01-01',
		terminal_count: 2,
		valor_mensal_centavos: 14990
	})
	await t.company(t.cnpj.rep, 'Alfa Ltda', { validade_licenca: '2026-01-10', validade_certificado: null, terminal_count: 0 })
	await t.company(t.cnpj.rep2, 'Charlie Ltda', {
		validade_licenca: null,
		validade_certificado: '2028-03-03',
		terminal_count: 1,
		bloqueadopdv: 'S'
	})
	await t.company(t.cnpj.rep, 'Delta Ltda', {
		validade_licenca: '2030-12-31',
		validade_certificado: '2026-12-01',
		terminal_count: 3,
		exibir_aviso: 'S'
	})
	return t
}

const names = (res: { json: { companies: { razao: string }[] } }) => res.json.companies.map((c) => c.razao)

describe('GET /api/companies sorting (issue 14)', () => {
	it('sorts by each column in SQL, both ways, ties broken by code', async () => {
		const t = await world()
		const list = (q: string) => t.call('GET', `/api/companies?${q}`, { cookie: t.cookies.admin })
		expect(names(await list(''))).toEqual(['Alfa Ltda', 'Bravo Ltda', 'Charlie Ltda', 'Delta Ltda'])
		expect(names(await list('sort=razao&order=desc'))).toEqual(['Delta Ltda', 'Charlie Ltda', 'Bravo Ltda', 'Alfa Ltda'])
		// SQLite puts the company without a licence first going up, last going down.
		expect(names(await list('sort=validade_licenca'))).toEqual(['Charlie Ltda', 'Alfa Ltda', 'Bravo Ltda', 'Delta Ltda'])
		expect(names(await list('sort=validade_licenca&order=desc'))).toEqual(['Delta Ltda', 'Bravo Ltda', 'Alfa Ltda', 'Charlie Ltda'])
		expect(names(await list('sort=validade_certificado&order=desc'))).toEqual(['Charlie Ltda', 'Bravo Ltda', 'Delta Ltda', 'Alfa Ltda'])
		expect(names(await list('sort=terminal_count&order=desc'))).toEqual(['Delta Ltda', 'Bravo Ltda', 'Charlie Ltda', 'Alfa Ltda'])
		expect(names(await list('sort=cnpj'))).toHaveLength(4)
		// Paging follows the order.
		expect(names(await list('sort=validade_licenca&order=desc&limit=2&page=2'))).toEqual(['Alfa Ltda', 'Charlie Ltda'])
		// Within a search and a filter too.
		expect(names(await list('search=Ltda&status=ativas&sort=validade_licenca&order=desc'))).toEqual(['Delta Ltda', 'Bravo Ltda'])
	})

	it('refuses an unknown column or direction in words', async () => {
		const t = await world()
		const bad = await t.call('GET', '/api/companies?sort=senha', { cookie: t.cookies.admin })
		expect(bad.status).toBe(400)
		expect(bad.json.message).toContain('Ordenação inválida')
		const order = await t.call('GET', '/api/companies?order=sideways', { cookie: t.cookies.admin })
		expect(order.status).toBe(400)
		expect(order.json.message).toContain('Direção de ordenação inválida')
	})

	it('walks an index for every sort column instead of sorting the table', async () => {
		const t = await world()
		for (const column of COMPANY_SORTS) {
			for (const order of ['asc', 'desc'] as const) {
				const query = sql`select codigo from companies order by ${sortedBy(companies[column], order)}, ${sortedBy(companies.codigo, order)} limit 20`
				const plan =
					DIALECT === 'sqlite'
						? (await sqlRows<{ detail: string }>(t.db, sql`explain query plan ${query}`)).map((p) => p.detail)
						: // A table this small is cheaper to sort: the planner is told not to, to show the index serves the order.
							await writeTransaction(t.db, async (tx) => {
								await sqlRun(tx, sql`set local enable_sort = off`)
								return (await sqlRows<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`)).map((p) => p['QUERY PLAN'])
							})
				expect(plan.join(' | '), `${column} ${order}`).not.toMatch(/TEMP B-TREE|Sort/)
				expect(plan.join(' | '), `${column} ${order}`).toMatch(/INDEX|Index/)
			}
		}
	})
})

describe('GET /api/companies search plan', () => {
	it('finds a search’s companies through the trigram index, and the start of a CNPJ through the CNPJ index too', async () => {
		const t = await world()
		for (const [search, indexes] of [
			['Ltda', DIALECT === 'sqlite' ? [/companies_fts/] : [/companies_busca_trgm_idx/]],
			['11.222.333', DIALECT === 'sqlite' ? [/companies_fts/, /companies_cnpj_unique/] : [/companies_busca_trgm_idx/, /companies_cnpj/]]
		] as const) {
			const query = sql`select codigo from companies where ${searchCondition(search)}`
			const plan =
				DIALECT === 'sqlite'
					? (await sqlRows<{ detail: string }>(t.db, sql`explain query plan ${query}`)).map((p) => p.detail)
					: // A table this small is cheaper to read whole: the planner is told not to, to show the indexes serve the search.
						await writeTransaction(t.db, async (tx) => {
							await sqlRun(tx, sql`set local enable_seqscan = off`)
							return (await sqlRows<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`)).map((p) => p['QUERY PLAN'])
						})
			for (const index of indexes) expect(plan.join(' | '), search).toMatch(index)
		}
	})
})

describe('GET /api/companies/export (issue 14)', () => {
	it('streams the filtered view, in its order, as a pt-BR CSV', async () => {
		const t = await world()
		const res = await t.csv('/api/companies/export?search=Ltda&sort=validade_licenca&order=desc', t.cookies.admin)
		expect(res.status).toBe(200)
		expect(res.bom).toBe(true)
		expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		expect(res.headers.get('content-disposition')).toBe('attachment; filename="empresas-2026-11-20.csv"')
		const lines = res.lines
		expect(lines[0]).toEqual([
			'Empresa',
			'CNPJ',
			'Representante',
			'Cidade',
			'UF',
			'Validade da licença',
			'Validade do certificado',
			'Status',
			'Sistemas bloqueados',
			'Terminais em uso',
			'Terminais permitidos',
			'Manutenção',
			'Avisos',
			'Valor mensal (R$)'
		])
		expect(lines.slice(1).map((l) => l[0])).toEqual(['Delta Ltda', 'Bravo Ltda', 'Alfa Ltda', 'Charlie Ltda'])
		const bravo = lines.find((l) => l[0] === 'Bravo Ltda')!
		expect(bravo[1]).toMatch(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/)
		expect(bravo.slice(5, 8)).toEqual(['01/05/2027', '01/01/2027', 'Ativa (162 dias)'])
		expect(bravo[13]).toBe('149,90')
		const charlie = lines.find((l) => l[0] === 'Charlie Ltda')!
		expect(charlie.slice(5, 9)).toEqual(['', '03/03/2028', 'Sem licença', 'K-PDV'])
		const filtered = (await t.csv('/api/companies/export?avisos=com', t.cookies.admin)).lines
		expect(filtered.slice(1).map((l) => l[0])).toEqual(['Delta Ltda'])
	})

	it('exports only the user’s scope, and only to who may read companies', async () => {
		const t = await world()
		const rep = (await t.csv('/api/companies/export', t.cookies.rep2)).lines
		expect(rep.slice(1).map((l) => l[0])).toEqual(['Charlie Ltda'])
		expect((await t.csv('/api/companies/export')).status).toBe(401)
	})

	it('reads a large list chunk by chunk, every row once', async () => {
		const t = await testWorld()
		for (let i = 0; i < 2500; i++) await t.company(t.cnpj.rep, `Empresa ${String(i).padStart(4, '0')}`)
		const res = await t.app.handle(new Request('http://localhost/api/companies/export', { headers: { cookie: t.cookies.admin } }))
		const reader = res.body!.getReader()
		let chunks = 0
		const parts: Uint8Array[] = []
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			chunks++
			parts.push(value)
		}
		expect(chunks).toBeGreaterThanOrEqual(4)
		const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.concat(parts))
		expect(text.charCodeAt(0)).toBe(0xfeff)
		const rows = text
			.slice(1)
			.split('\r\n')
			.filter((l) => l !== '')
			.slice(1)
			.map((l) => l.split(';'))
		expect(rows).toHaveLength(2500)
		expect(new Set(rows.map((r) => r[0])).size).toBe(2500)
		expect(rows[0][0]).toBe('Empresa 0000')
	})
})

describe('POST /api/companies/bulk (issue 14)', () => {
	it('blocks the chosen companies in one transaction with one activity line and says what changed', async () => {
		const t = await world()
		const [alfa, bravo, charlie] = await Promise.all(
			['Alfa Ltda', 'Bravo Ltda', 'Charlie Ltda'].map(
				async (razao) => (await t.db.select().from(companies).where(eq(companies.razao, razao)))[0]!
			)
		)
		const res = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.admin,
			body: { acao: 'bloquear', ids: [alfa.codigo, bravo.codigo, charlie.codigo] }
		})
		expect(res.status).toBe(200)
		expect(res.json).toEqual({ message: 'Sistemas bloqueados: 3 empresas alteradas.', total: 3, alteradas: 3, inalteradas: 0 })
		for (const c of await t.db.select().from(companies)) {
			const blocked = [c.bloqueado, c.bloqueadopdv, c.bloqueado_kchef, c.bloqueado_katelie, c.bloqueado_kprevenda]
			expect(blocked).toEqual(c.razao === 'Delta Ltda' ? ['N', 'N', 'N', 'N', 'N'] : ['S', 'S', 'S', 'S', 'S'])
		}
		const again = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.admin,
			body: { acao: 'bloquear', ids: [alfa.codigo, bravo.codigo] }
		})
		expect(again.json.message).toBe('Sistemas bloqueados: 0 empresas alteradas; 2 já estavam assim.')
		const log = await t.db.select().from(activities)
		expect(log.map((l) => [l.event, l.title, l.subtitle])).toEqual([
			['companies.bulk-blocked', 'Sistemas bloqueados em lote', '3 empresas alteradas de 3 escolhidas'],
			['companies.bulk-blocked', 'Sistemas bloqueados em lote', '0 empresas alteradas de 2 escolhidas']
		])
	})

	it('acts on every company matching the filter, within the scope only', async () => {
		const t = await world()
		const res = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.rep,
			body: { acao: 'avisos-on', filtro: { search: 'Ltda' } }
		})
		expect(res.json).toMatchObject({ total: 3, alteradas: 2, inalteradas: 1 })
		expect(res.json.message).toBe('Avisos ativados: 2 empresas alteradas; 1 já estava assim.')
		const shown = (await t.db.select({ razao: companies.razao, aviso: companies.exibir_aviso }).from(companies))
			.filter((c) => c.aviso === 'S')
			.map((c) => c.razao)
			.sort()
		// Charlie belongs to another representative and stays as it was.
		expect(shown).toEqual(['Alfa Ltda', 'Bravo Ltda', 'Delta Ltda'])
		const log = await t.db.select().from(activities)
		expect(log).toHaveLength(1)
		expect(log[0].representante_cnpj).toBe(t.cnpj.rep)
		// The filter's status applies too: only the expired one.
		const expired = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.admin,
			body: { acao: 'desbloquear', filtro: { search: '', status: 'expiradas' } }
		})
		expect(expired.json).toMatchObject({ total: 1, alteradas: 0 })
	})

	it('answers chosen companies outside the scope as missing and changes nothing', async () => {
		const t = await world()
		const charlie = (await t.db.select().from(companies).where(eq(companies.razao, 'Charlie Ltda')))[0]!
		const alfa = (await t.db.select().from(companies).where(eq(companies.razao, 'Alfa Ltda')))[0]!
		const res = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.rep,
			body: { acao: 'bloquear', ids: [alfa.codigo, charlie.codigo] }
		})
		expect(res.status).toBe(404)
		expect(await t.db.select().from(companies).where(eq(companies.bloqueado, 'S'))).toHaveLength(0)
		expect(await t.db.select().from(activities)).toHaveLength(0)
	})

	it('leaves maintenance to who may switch it, and asks for one target', async () => {
		const t = await world()
		const alfa = (await t.db.select().from(companies).where(eq(companies.razao, 'Alfa Ltda')))[0]!
		const rep = await t.call('POST', '/api/companies/bulk', { cookie: t.cookies.rep, body: { acao: 'manutencao-on', ids: [alfa.codigo] } })
		expect(rep.status).toBe(403)
		const gerente = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.gerente,
			body: { acao: 'manutencao-on', filtro: { search: '' } }
		})
		expect(gerente.status).toBe(403)
		const admin = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.admin,
			body: { acao: 'manutencao-on', filtro: { search: '', avisos: 'com' } }
		})
		expect(admin.json).toMatchObject({ total: 1, alteradas: 1, message: 'Manutenção ativada: 1 empresa alterada.' })
		for (const body of [
			{ acao: 'bloquear' },
			{ acao: 'bloquear', ids: [alfa.codigo], filtro: { search: '' } },
			{ acao: 'apagar', ids: [1] }
		]) {
			const res = await t.call('POST', '/api/companies/bulk', { cookie: t.cookies.admin, body })
			expect(res.status, JSON.stringify(body)).toBe(400)
		}
		const none = await t.call('POST', '/api/companies/bulk', {
			cookie: t.cookies.admin,
			body: { acao: 'bloquear', filtro: { search: 'Zulu' } }
		})
		expect([none.status, none.json.message]).toEqual([422, 'Nenhuma empresa corresponde ao filtro.'])
	})
})
