import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp, testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { accessRefusals } from './schema'

describe('refused authorisations are kept for the administrador (issue 13, point 8)', () => {
	it('records who probed which route and records, grouped, and shows it to an administrador only', async () => {
		const w = await testWorld({ config: { trustProxy: true } })
		const foreign = []
		for (let i = 0; i < 12; i++) foreign.push(await w.company(w.cnpj.rep2, `Empresa da Sara ${i}`))
		const before = (await w.db.select().from(activities)).length
		// Rafael tries Sara's companies one by one (404: out of his scope), then a route for administradores (403).
		for (const c of foreign) {
			expect((await w.call('GET', `/api/companies/${c.codigo}`, { cookie: w.cookies.rep })).status).toBe(404)
		}
		const transfer = await w.transferVia(w.cookies.rep, foreign[0].codigo, 1)
		expect(transfer.status).toBe(404)
		expect((await w.call('POST', '/api/credits', { cookie: w.cookies.rep, body: {} })).status).toBe(403)
		// Someone without a session, and a login with a wrong password (a login failure, logged as such, not here).
		expect((await w.call('GET', '/api/companies', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(401)
		expect((await w.call('POST', '/api/auth/login', { body: { cnpj: w.cnpj.admin, senha: 'errada' } })).status).toBe(401)

		for (const cookie of [w.cookies.rep, w.cookies.gerente]) {
			expect((await w.call('GET', '/api/auth/refusals', { cookie })).status).toBe(403)
		}
		const res = await w.call('GET', '/api/auth/refusals', { cookie: w.cookies.admin })
		expect(res.status).toBe(200)
		const lines = res.json.refusals as {
			who: string
			route: string
			status: number
			count: number
			records: string[]
			distinctRecords: number
			ip: string
			method: string
		}[]
		const probe = lines.find((l) => l.route === '/api/companies/:id')!
		expect(probe).toMatchObject({ who: 'Rafael Rep (Representante)', method: 'GET', status: 404, count: 12, distinctRecords: 12 })
		expect(probe.records[0]).toBe(String(foreign[11].codigo))
		expect(lines.find((l) => l.route === '/api/credits/transfer-to-company')).toMatchObject({
			status: 404,
			records: [String(foreign[0].codigo)]
		})
		expect(lines.find((l) => l.route === '/api/credits')).toMatchObject({ who: 'Rafael Rep (Representante)', method: 'POST', status: 403 })
		// The guard's own refusals of the gerente and the representante reading this very list are there too.
		expect(lines.find((l) => l.route === '/api/companies')).toMatchObject({ who: 'Sem sessão', status: 401, ip: '203.0.113.9' })
		expect(lines.some((l) => l.route === '/api/auth/login')).toBe(false)

		// In the log: the 1st and the 10th refusal of the probe, not twelve lines.
		const logged = w.logs.filter((l) => l.event === 'access.refused' && l.fields?.route === '/api/companies/:id')
		expect(logged.map((l) => l.fields?.count)).toEqual([1, 10])
		expect(logged[0].fields).toMatchObject({ userId: expect.any(Number), status: 404, record: String(foreign[0].codigo) })
		// Nothing reaches the activity log for them, and the lines are written in batches, not once per refusal.
		expect((await w.db.select().from(activities)).length).toBe(before)
	})

	it('stays bounded under a flood from many addresses: at most 200 lines kept and 30 log lines per 10 minutes', async () => {
		const w = await testWorld({ config: { trustProxy: true } })
		for (let i = 0; i < 1_000; i++) {
			await w.call('GET', '/api/companies', { headers: { 'x-forwarded-for': `10.${Math.floor(i / 250)}.${i % 250}.1` } })
		}
		const res = await w.call('GET', '/api/auth/refusals', { cookie: w.cookies.admin })
		expect(res.json.refusals.length).toBeLessThanOrEqual(200)
		const logged = w.logs.filter((l) => l.event === 'access.refused')
		expect(logged.length).toBeLessThanOrEqual(30)
		w.clock.advance(10 * 60_000)
		await w.call('GET', '/api/companies', { headers: { 'x-forwarded-for': '192.0.2.1' } })
		const next = w.logs.filter((l) => l.event === 'access.refused').at(-1)
		expect(next?.fields?.unlogged).toBeGreaterThan(900)
	}, 30_000)

	it('adds the refusals every instance answered to the same lines, written in batches (issue 36)', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-refusals-')), 'portal.sqlite')
		const a = await createTestApp({ dbFile, config: { trustProxy: true } })
		const b = await createTestApp({ dbFile, config: { trustProxy: true } })
		const probe = (t: typeof a) => t.call('GET', '/api/companies', { headers: { 'x-forwarded-for': '203.0.113.50' } })
		for (let i = 0; i < 4; i++) expect((await probe(a)).status).toBe(401)
		for (let i = 0; i < 3; i++) expect((await probe(b)).status).toBe(401)
		// Nothing written yet: each instance keeps its count until its next write (every 5 s, or a read of the list).
		expect(await a.db.select().from(accessRefusals)).toEqual([])
		await a.services.refusals.flush()
		await b.services.refusals.flush()
		const lines = await b.services.refusals.list()
		expect(lines).toEqual([
			expect.objectContaining({ who: 'Sem sessão', ip: '203.0.113.50', route: '/api/companies', status: 401, count: 7 })
		])
		expect(await a.services.refusals.list()).toEqual(lines)
	})
})
