import { describe, expect, it } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { companies } from '../companies'
import { terminals } from './schema'
import { testWorld } from '../../apps/server/testing'

async function realCount(t: Awaited<ReturnType<typeof testWorld>>, codigo: number) {
	const stored = (await t.db.select({ n: companies.terminal_count }).from(companies).where(eq(companies.codigo, codigo)))[0]!.n
	const real = (await t.db.select({ n: count() }).from(terminals).where(eq(terminals.fk_empresa, codigo)))[0]!.n
	return { stored, real }
}

describe('terminals', () => {
	it('stores the MAC as 12 uppercase hex characters and keeps terminal_count equal to the real count', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ nterminais: 2 })
		const created = await t.call('POST', '/api/terminals', {
			cookie: t.cookies.rep,
			body: { fk_empresa: c.codigo, mac: '00:1a:2b:3c:4d:5e', nome_computador: 'CAIXA-01' }
		})
		expect(created.status).toBe(201)
		expect((await t.db.select().from(terminals))[0]!.mac).toBe('001A2B3C4D5E')
		expect(await realCount(t, c.codigo)).toEqual({ stored: 1, real: 1 })

		const list = await t.call('GET', '/api/terminals?page=1&limit=20&search=caixa', { cookie: t.cookies.rep })
		expect(list.json.terminals[0]).toMatchObject({
			nome_computador: 'CAIXA-01',
			mac: '001A2B3C4D5E',
			nome_empresa: c.razao,
			empresa: { codigo: c.codigo, nterminais: 2, terminal_count: 1 }
		})
		expect(list.json.stats).toEqual({ total: 1, empresasComTerminais: 1, totalEmpresas: 1, hoje: 1 })
		expect((await t.call('GET', '/api/terminals?search=1a2b', { cookie: t.cookies.rep })).json.terminals).toHaveLength(1)
		expect((await t.call('GET', '/api/terminals', { cookie: t.cookies.rep2 })).json.terminals).toHaveLength(0)
	})

	it('searches MACs only with text that could be one: a company name with a-f letters does not match a MAC', async () => {
		const t = await testWorld()
		const aurora = await t.companyVia({ razao: 'Mercadinho Aurora' })
		const other = await t.companyVia({ razao: 'Padaria Central' })
		await t.call('POST', '/api/terminals', {
			cookie: t.cookies.rep,
			body: { fk_empresa: aurora.codigo, mac: '001122334455', nome_computador: 'CAIXA-1' }
		})
		await t.call('POST', '/api/terminals', {
			cookie: t.cookies.rep,
			body: { fk_empresa: other.codigo, mac: 'AABBCCDDEEFF', nome_computador: 'PC X' }
		})
		const byName = await t.call('GET', '/api/terminals?search=Aurora', { cookie: t.cookies.rep })
		expect(byName.json.terminals.map((x) => x.nome_computador)).toEqual(['CAIXA-1'])
		const byMac = await t.call('GET', `/api/terminals?search=${encodeURIComponent('aa:bb')}`, { cookie: t.cookies.rep })
		expect(byMac.json.terminals.map((x) => x.nome_computador)).toEqual(['PC X'])
	})

	it('never lets a company hold more terminals than allowed, saying used/allowed', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ nterminais: 1 })
		await t.call('POST', '/api/terminals', { cookie: t.cookies.admin, body: { fk_empresa: c.codigo, mac: 'AABBCCDDEEFF' } })
		const over = await t.call('POST', '/api/terminals', { cookie: t.cookies.admin, body: { fk_empresa: c.codigo, mac: 'AABBCCDDEE00' } })
		expect(over.status).toBe(409)
		expect(over.json.message).toContain('1 de 1 em uso')
		expect(await realCount(t, c.codigo)).toEqual({ stored: 1, real: 1 })
		const shrink = await t.call('PUT', `/api/companies/${c.codigo}`, { cookie: t.cookies.admin, body: { ...c, nterminais: 1 } })
		expect(shrink.status).toBe(200)
	})

	it('refuses a duplicate MAC in one company, a bad MAC, and another representative’s company', async () => {
		const t = await testWorld()
		const c = await t.companyVia({ nterminais: 5 })
		const b = await t.companyVia({ cnpj_representante: t.cnpj.rep2 })
		await t.call('POST', '/api/terminals', { cookie: t.cookies.rep, body: { fk_empresa: c.codigo, mac: 'AABBCCDDEEFF' } })
		expect(
			(await t.call('POST', '/api/terminals', { cookie: t.cookies.rep, body: { fk_empresa: c.codigo, mac: 'aa-bb-cc-dd-ee-ff' } })).status
		).toBe(409)
		// Wrong characters make the address invalid; they are never stripped to leave 12 hex digits.
		for (const mac of ['XYZ', 'ghij-00-11-22-33-44-55', '00:11:22:33:44:5G', '00/11/22/33/44/55']) {
			const bad = await t.call('POST', '/api/terminals', { cookie: t.cookies.rep, body: { fk_empresa: c.codigo, mac } })
			expect([mac, bad.status]).toEqual([mac, 400])
			expect(bad.json.message).toContain('MAC inválido')
		}
		expect(
			(await t.call('POST', '/api/terminals', { cookie: t.cookies.rep, body: { fk_empresa: c.codigo, mac: '00.11.22.33.44.55' } })).status
		).toBe(201)
		expect(
			(await t.call('POST', '/api/terminals', { cookie: t.cookies.rep, body: { fk_empresa: b.codigo, mac: 'AABBCCDDEE01' } })).status
		).toBe(404)
		expect((await t.call('POST', '/api/terminals', { cookie: t.cookies.rep, body: { mac: 'AABBCCDDEE01' } })).status).toBe(400)
		expect(await t.db.select().from(terminals)).toHaveLength(2)
	})

	it('moves a terminal between companies, keeping both counts right, and deletes it', async () => {
		const t = await testWorld()
		const c1 = await t.companyVia({ nterminais: 2 })
		const c2 = await t.companyVia({ nterminais: 1 })
		const created = await t.call('POST', '/api/terminals', {
			cookie: t.cookies.rep,
			body: { fk_empresa: c1.codigo, mac: 'AABBCCDDEEFF', nome_computador: 'PC' }
		})
		const id = created.json.codigo
		expect(
			(
				await t.call('PUT', `/api/terminals/${id}`, {
					cookie: t.cookies.rep,
					body: { fk_empresa: c2.codigo, mac: 'AABBCCDDEEFF', nome_computador: 'PC 2' }
				})
			).status
		).toBe(200)
		expect(await realCount(t, c1.codigo)).toEqual({ stored: 0, real: 0 })
		expect(await realCount(t, c2.codigo)).toEqual({ stored: 1, real: 1 })
		// Another representative's terminal answers exactly like one that does not exist.
		const foreign = await t.call('DELETE', `/api/terminals/${id}`, { cookie: t.cookies.rep2 })
		const missing = await t.call('DELETE', '/api/terminals/99999', { cookie: t.cookies.rep2 })
		expect([foreign.status, foreign.json]).toEqual([404, missing.json])
		expect(
			(await t.call('PUT', `/api/terminals/${id}`, { cookie: t.cookies.rep2, body: { fk_empresa: c2.codigo, mac: 'AABBCCDDEEFF' } })).json
		).toEqual(missing.json)
		expect((await t.call('DELETE', `/api/terminals/${id}`, { cookie: t.cookies.rep })).status).toBe(200)
		expect(await realCount(t, c2.codigo)).toEqual({ stored: 0, real: 0 })
	})
})

describe('downloads', () => {
	it('lets the administrador write and everyone read', async () => {
		const t = await testWorld()
		const body = { titulo: 'K-PDV 5.2', link: 'https://downloads.example.com/kpdv-5.2.exe', ativo: 1 }
		expect((await t.call('POST', '/api/downloads', { cookie: t.cookies.rep, body })).status).toBe(403)
		expect((await t.call('POST', '/api/downloads', { cookie: t.cookies.gerente, body })).status).toBe(403)
		const created = await t.call('POST', '/api/downloads', { cookie: t.cookies.admin, body })
		expect(created.status).toBe(201)
		expect(created.json).toMatchObject({ titulo: 'K-PDV 5.2', ativo: 1, data: '2026-11-20T12:00:00.000Z' })
		expect((await t.call('GET', '/api/downloads', { cookie: t.cookies.rep })).json).toHaveLength(1)
		await t.call('POST', '/api/downloads', { cookie: t.cookies.admin, body: { ...body, titulo: 'Antigo', ativo: 0 } })
		expect((await t.call('GET', '/api/downloads', { cookie: t.cookies.rep })).json.map((d: { titulo: string }) => d.titulo)).toEqual([
			'K-PDV 5.2'
		])
		expect((await t.call('GET', '/api/downloads', { cookie: t.cookies.admin })).json).toHaveLength(2)
		await t.call(
			'DELETE',
			`/api/downloads/${(await t.call('GET', '/api/downloads', { cookie: t.cookies.admin })).json.find((d) => d.titulo === 'Antigo')!.id}`,
			{ cookie: t.cookies.admin }
		)
		const bad = await t.call('POST', '/api/downloads', { cookie: t.cookies.admin, body: { titulo: 'x', link: 'ftp://x' } })
		expect(bad.status).toBe(400)
		const spaced = await t.call('POST', '/api/downloads', {
			cookie: t.cookies.admin,
			body: { titulo: 'x', link: 'HTTPS://EXAMPLE.com/x y' }
		})
		expect(spaced.json.message).toContain('não pode ter espaços')
		const ativo = await t.call('POST', '/api/downloads', { cookie: t.cookies.admin, body: { ...body, ativo: '1' } })
		expect([ativo.status, ativo.json.message]).toEqual([400, 'Ativo: use 1 ou 0 (ou true/false).'])
		const updated = await t.call('PUT', `/api/downloads/${created.json.id}`, { cookie: t.cookies.admin, body: { ...body, ativo: false } })
		expect(updated.json.ativo).toBe(0)
		expect((await t.call('PUT', '/api/downloads/999', { cookie: t.cookies.admin, body })).status).toBe(404)
		expect((await t.call('DELETE', `/api/downloads/${created.json.id}`, { cookie: t.cookies.rep })).status).toBe(403)
		expect((await t.call('DELETE', `/api/downloads/${created.json.id}`, { cookie: t.cookies.admin })).status).toBe(200)
		expect((await t.call('GET', '/api/downloads', { cookie: t.cookies.admin })).json).toHaveLength(0)
	})
})
