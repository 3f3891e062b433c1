import { describe, expect, it } from 'bun:test'
import { CNPJ, testWorld, type TestWorld } from '../../apps/server/testing'
import { activities } from '../activity'

/** A line of any type written straight into the log (the read side is what these tests are about). */
async function logLine(
	w: TestWorld,
	line: {
		type: 'success' | 'info' | 'warning' | 'error'
		icon: 'Building' | 'Terminal' | 'AlertTriangle'
		title: string
		subtitle?: string
		actor?: { id: number; nome: string }
	}
) {
	await w.db.insert(activities).values({
		created_at: w.clock.now().toISOString(),
		type: line.type,
		icon: line.icon,
		title: line.title,
		subtitle: line.subtitle ?? '',
		user_id: line.actor?.id ?? null,
		user_nome: line.actor?.nome ?? null
	})
}

describe('GET /api/dashboard/stats', () => {
	it('counts companies, active ones, credits, representatives and per-system blocks, scoped by role', async () => {
		const w = await testWorld()
		// rep: active, expires today (0 days left: expired), expired, blocked in K-CHEF only, no licence
		await w.company(CNPJ.rep, 'Ativa', { validade_licenca: '2027-01-01' })
		await w.company(CNPJ.rep, 'Vence Hoje', { validade_licenca: '2026-11-20' })
		await w.company(CNPJ.rep, 'Expirada', { validade_licenca: '2026-11-19' })
		await w.company(CNPJ.rep, 'Bloqueada Chef', { validade_licenca: '2027-01-01', bloqueado_kchef: 'S' })
		await w.company(CNPJ.rep, 'Sem Licença', { validade_licenca: null })
		// rep2: one active, one fully blocked
		await w.company(CNPJ.rep2, 'Ativa 2', { validade_licenca: '2027-01-01' })
		await w.company(CNPJ.rep2, 'Toda Bloqueada', {
			validade_licenca: '2027-01-01',
			bloqueado: 'S',
			bloqueadopdv: 'S',
			bloqueado_kchef: 'S',
			bloqueado_katelie: 'S',
			bloqueado_kprevenda: 'S'
		})
		await w.addCreditsVia(CNPJ.rep, 10)
		await w.addCreditsVia(CNPJ.rep2, 3)

		const admin = await w.call('GET', '/api/dashboard/stats', { cookie: w.cookies.admin })
		expect(admin.status).toBe(200)
		expect(admin.json).toEqual({
			totalCompanies: 7,
			activeCompanies: 2,
			availableCredits: 13,
			totalRepresentatives: 2,
			activeRepresentatives: 2,
			systemsStatus: {
				kreta: { active: 6, blocked: 1 },
				kpdv: { active: 6, blocked: 1 },
				kchef: { active: 5, blocked: 2 },
				katelie: { active: 6, blocked: 1 },
				kprevenda: { active: 6, blocked: 1 }
			}
		})
		const gerente = await w.call('GET', '/api/dashboard/stats', { cookie: w.cookies.gerente })
		expect(gerente.json).toMatchObject({
			totalCompanies: 5,
			activeCompanies: 1,
			availableCredits: 10,
			totalRepresentatives: 1,
			activeRepresentatives: 1
		})
		expect(gerente.json.systemsStatus.kchef).toEqual({ active: 4, blocked: 1 })
		const rep2 = await w.call('GET', '/api/dashboard/stats', { cookie: w.cookies.rep2 })
		expect(rep2.json).toMatchObject({ totalCompanies: 2, activeCompanies: 1, availableCredits: 3, totalRepresentatives: 1 })
		expect((await w.call('GET', '/api/dashboard/stats')).status).toBe(401)
	})

	it('changes after a transfer: fewer credits, and an expired company becomes active', async () => {
		const w = await testWorld()
		const c = await w.company(CNPJ.rep, 'Expirada', { validade_licenca: '2026-11-01' })
		await w.addCreditsVia(CNPJ.rep, 5)
		const before = (await w.call('GET', '/api/dashboard/stats', { cookie: w.cookies.rep })).json
		expect(before).toMatchObject({ activeCompanies: 0, availableCredits: 5 })
		expect((await w.transferVia(w.cookies.rep, c.codigo, 1)).status).toBe(200)
		const after = (await w.call('GET', '/api/dashboard/stats', { cookie: w.cookies.rep })).json
		expect(after).toMatchObject({ activeCompanies: 1, availableCredits: 4, activeRepresentatives: 1 })
	})
})

describe('GET /api/activities/recent', () => {
	it('shows each role its own lines, newest first, in the shape of 1-core §3', async () => {
		const w = await testWorld()
		const c1 = await w.company(CNPJ.rep, 'Empresa Um', { validade_licenca: '2027-01-01' })
		const c2 = await w.company(CNPJ.rep2, 'Empresa Dois', { validade_licenca: '2027-01-01' })
		await w.addCreditsVia(CNPJ.rep, 5)
		await w.addCreditsVia(CNPJ.rep2, 5)
		await w.transferVia(w.cookies.rep, c1.codigo, 1)
		await w.transferVia(w.cookies.rep2, c2.codigo, 2, 'K-CHEF')
		await logLine(w, { type: 'warning', icon: 'AlertTriangle', title: 'Ação do gerente', actor: w.gerente })
		await logLine(w, { type: 'error', icon: 'Terminal', title: 'Falha geral' })

		const admin = await w.call('GET', '/api/activities/recent', { cookie: w.cookies.admin })
		expect(admin.status).toBe(200)
		expect(admin.json).toHaveLength(6)
		expect(Object.keys(admin.json[0]).sort()).toEqual(['icon', 'id', 'subtitle', 'time', 'title', 'type'])
		expect(admin.json[0]).toMatchObject({ type: 'error', icon: 'Terminal', title: 'Falha geral', time: '2026-11-20T12:00:00.000Z' })
		expect(admin.json.map((a: { id: number }) => a.id)).toEqual([6, 5, 4, 3, 2, 1])

		const rep = await w.call('GET', '/api/activities/recent', { cookie: w.cookies.rep })
		expect(rep.json.map((a: { title: string }) => a.title)).toEqual(['1 crédito transferido para Empresa Um', '5 créditos adicionados'])
		const ger = await w.call('GET', '/api/activities/recent', { cookie: w.cookies.gerente })
		expect(ger.json.map((a: { title: string }) => a.title)).toEqual([
			'Ação do gerente',
			'1 crédito transferido para Empresa Um',
			'5 créditos adicionados'
		])
		expect((await w.call('GET', '/api/activities/recent')).status).toBe(401)
	})

	it('filters by search text and type, limits, and refuses bad filters', async () => {
		const w = await testWorld()
		for (let i = 0; i < 15; i++)
			await logLine(w, {
				type: i % 2 ? 'info' : 'success',
				icon: 'Building',
				title: `Empresa ${i}`,
				subtitle: i === 7 ? 'cliente 50% off' : ''
			})
		const def = await w.call('GET', '/api/activities/recent', { cookie: w.cookies.admin })
		expect(def.json).toHaveLength(10)
		const many = await w.call('GET', '/api/activities/recent?limit=200', { cookie: w.cookies.admin })
		expect(many.json).toHaveLength(15)
		const info = await w.call('GET', '/api/activities/recent?limit=200&type=info', { cookie: w.cookies.admin })
		expect(info.json).toHaveLength(7)
		expect(info.json.every((a: { type: string }) => a.type === 'info')).toBe(true)
		const all = await w.call('GET', '/api/activities/recent?limit=200&type=all', { cookie: w.cookies.admin })
		expect(all.json).toHaveLength(15)
		const pct = await w.call('GET', '/api/activities/recent?limit=200&search=50%25', { cookie: w.cookies.admin })
		expect(pct.json.map((a: { title: string }) => a.title)).toEqual(['Empresa 7'])
		const search = await w.call('GET', '/api/activities/recent?limit=200&search=empresa%201', { cookie: w.cookies.admin })
		expect(search.json).toHaveLength(6) // 1, 10..14
		for (const bad of ['limit=0', 'limit=501', 'limit=abc', 'type=fatal', `search=${'x'.repeat(101)}`]) {
			expect((await w.call('GET', `/api/activities/recent?${bad}`, { cookie: w.cookies.admin })).status).toBe(400)
		}
	})
})

describe('GET /api/reports', () => {
	it('computes sales, revenue, usage per system and per representative from the ledger', async () => {
		const w = await testWorld({ now: '2026-11-20T12:00:00.000Z' })
		const relog = async () => {
			w.cookies.admin = await w.login(CNPJ.admin)
		}
		// October: 4 credits at R$ 40 to rep2
		w.clock.set('2026-10-15T12:00:00.000Z')
		await relog()
		await w.addCreditsVia(CNPJ.rep2, 4, 40)
		// November: 10 at R$ 50 and 2 at R$ 45,50 to rep
		w.clock.set('2026-11-20T12:00:00.000Z')
		await relog()
		await w.addCreditsVia(CNPJ.rep, 10, 50)
		await w.addCreditsVia(CNPJ.rep, 2, 45.5)
		const c1 = await w.company(CNPJ.rep, 'Um', { validade_licenca: '2027-01-01' })
		const c2 = await w.company(CNPJ.rep, 'Dois', { validade_licenca: '2027-01-01' })
		await w.transferVia(w.cookies.admin, c1.codigo, 3, 'K-PDV')
		await w.transferVia(w.cookies.admin, c2.codigo, 1, 'K-PDV')
		await w.transferVia(w.cookies.admin, c2.codigo, 4, 'K-CHEF')

		const res = await w.call('GET', '/api/reports?tipo=financeiro&inicio=2026-10-01&fim=2026-11-30', { cookie: w.cookies.admin })
		expect(res.status).toBe(200)
		expect(res.json).toMatchObject({
			tipo: 'financeiro',
			inicio: '2026-10-01',
			fim: '2026-11-30',
			totalCompanies: 2,
			activeCompanies: 2,
			totalRepresentatives: 2,
			totalCredits: 16,
			usedCredits: 8,
			revenue: 751,
			revenueThisMonth: 591,
			revenueLastMonth: 160,
			revenueChange: 269.4
		})
		expect(res.json.monthlyRevenue).toEqual([
			{ month: '2026-10', credits: 4, revenue: 160 },
			{ month: '2026-11', credits: 12, revenue: 591 }
		])
		expect(res.json.topRepresentatives).toEqual([
			{ nome: 'Rafael Rep', cnpj: CNPJ.rep, empresas: 2, creditos: 12, receita: 591 },
			{ nome: 'Sara Rep', cnpj: CNPJ.rep2, empresas: 0, creditos: 4, receita: 160 }
		])
		expect(res.json.systemUsage).toEqual([
			{ sistema: 'K-RETA', empresas: 0, creditos: 0, percentage: 0 },
			{ sistema: 'K-PDV', empresas: 2, creditos: 4, percentage: 50 },
			{ sistema: 'K-CHEF', empresas: 1, creditos: 4, percentage: 50 },
			{ sistema: 'K-ATELIE', empresas: 0, creditos: 0, percentage: 0 },
			{ sistema: 'K-PRE VENDA', empresas: 0, creditos: 0, percentage: 0 }
		])
		// November only: the October sale is out of the range
		const nov = await w.call('GET', '/api/reports?tipo=geral&inicio=2026-11-01&fim=2026-11-30', { cookie: w.cookies.admin })
		expect(nov.json).toMatchObject({ totalCredits: 12, revenue: 591, usedCredits: 8 })
	})

	it('defaults to one month ago until today, is for administradores only and refuses bad dates', async () => {
		const w = await testWorld()
		const def = await w.call('GET', '/api/reports', { cookie: w.cookies.admin })
		expect(def.status).toBe(200)
		expect(def.json).toMatchObject({
			tipo: 'geral',
			inicio: '2026-10-20',
			fim: '2026-11-20',
			totalCredits: 0,
			revenue: 0,
			revenueChange: null
		})
		expect(def.json.monthlyRevenue.map((m: { month: string }) => m.month)).toEqual(['2026-10', '2026-11'])
		expect((await w.call('GET', '/api/reports?tipo=financial', { cookie: w.cookies.admin })).json.tipo).toBe('financeiro')
		expect((await w.call('GET', '/api/reports?tipo=usage', { cookie: w.cookies.admin })).json.tipo).toBe('uso')
		expect((await w.call('GET', '/api/reports', { cookie: w.cookies.gerente })).status).toBe(403)
		expect((await w.call('GET', '/api/reports', { cookie: w.cookies.rep })).status).toBe(403)
		expect((await w.call('GET', '/api/reports')).status).toBe(401)
		for (const bad of ['tipo=outro', 'inicio=2026-13-01', 'fim=ontem', 'inicio=2026-11-10&fim=2026-11-01']) {
			const res = await w.call('GET', `/api/reports?${bad}`, { cookie: w.cookies.admin })
			expect({ bad, status: res.status }).toEqual({ bad, status: 400 })
		}
	})
})
