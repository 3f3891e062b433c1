// Regressions of the outside attack on a running portal (issue 13): each test replays what got through.
import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies } from '../../modules/companies'
import { credits } from '../../modules/credits'
import { nestsDeeperThan } from './plugins/security'
import { createTestApp, hostileClients, refusalOf, testWorld } from './testing'

/** Arrays nested `depth` deep: 2 bytes per level (the attack sent 100,000 levels in 200 KB). */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('one anonymous request must not stop the portal (point 1)', () => {
	it('keeps answering /api/health while 200 KB bodies nested 100,000 deep keep arriving', async () => {
		const t = await createTestApp()
		const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
		const base = `http://127.0.0.1:${server.server!.port}`
		try {
			const hostile = nested(100_000)
			const attack = hostileClients(base, hostile)
			const { statuses } = attack
			while (statuses.length < 8) await Bun.sleep(5)
			const latencies: number[] = []
			for (let i = 0; i < 20; i++) {
				const start = performance.now()
				const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) })
				expect(res.status).toBe(200)
				latencies.push(performance.now() - start)
			}
			await attack.stop()
			latencies.sort((a, b) => a - b)
			// Before the depth scan one such body blocked the main thread for seconds. The figure (p50 ≤ 100 ms) is
			// bench:hostile's; here a bound that only a blocked portal misses, even on a loaded machine.
			expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(1_000)
			expect(statuses.length).toBeGreaterThanOrEqual(8)
			expect(new Set(statuses)).toEqual(new Set([400]))
			expect(attack.echoed()).toBe(0)
		} finally {
			server.stop(true)
		}
	}, 60_000)

	it('refuses nesting deeper than 32 levels with 400 and a pt-BR message, before parsing', async () => {
		const t = await createTestApp()
		const res = await t.call('POST', '/api/auth/login', { body: `{"cnpj": ${nested(33)}, "senha": "x"}` })
		expect(res.status).toBe(400)
		expect(refusalOf(res)).toEqual({ message: 'Corpo da requisição inválido: o JSON tem níveis demais (máximo 32).', code: 'PARSE' })
		// 32 levels are still an ordinary (if invalid) body: the validator answers it.
		const ok = await t.call('POST', '/api/auth/login', { body: `{"cnpj": ${nested(31)}, "senha": "x"}` })
		expect(ok.status).toBe(400)
		expect(ok.json.code).toBe('VALIDATION')
	})

	it('counts depth only outside strings', () => {
		const bytes = (text: string) => new TextEncoder().encode(text)
		expect(nestsDeeperThan(bytes(nested(3)), 3)).toBe(false)
		expect(nestsDeeperThan(bytes(nested(4)), 3)).toBe(true)
		expect(nestsDeeperThan(bytes(`{"a": "${'['.repeat(50)}", "b": [{"c": "\\"[[[["}]]}`), 3)).toBe(false)
		expect(nestsDeeperThan(bytes(`[{"a": "x\\\\"}, [[[1]]]]`), 3)).toBe(true)
	})

	it('never serialises a rejected body into an error', async () => {
		const t = await createTestApp()
		// 250 KB within the depth limit: the validator refuses it (an array where an object goes).
		const body = `${'['.repeat(30)}${Array(120_000).fill(0).join(',')}${']'.repeat(30)}`
		const stringify = JSON.stringify
		let longest = 0
		JSON.stringify = ((...args: Parameters<typeof stringify>) => {
			const out = stringify(...args)
			longest = Math.max(longest, out?.length ?? 0)
			return out
		}) as typeof JSON.stringify
		let res: Awaited<ReturnType<typeof t.call>>
		try {
			res = await t.call('POST', '/api/auth/login', { body })
		} finally {
			JSON.stringify = stringify
		}
		expect(res.status).toBe(400)
		expect(res.json.code).toBe('VALIDATION')
		expect(longest).toBeLessThan(1_000)
	})
})

describe('bad input that got through (point 6)', () => {
	it('stops reading a chunked body at the route limit instead of buffering it whole', async () => {
		const t = await createTestApp()
		const chunk = new Uint8Array(16 * 1024).fill(0x20)
		let pulled = 0
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (pulled >= 8 * 1024 * 1024) return controller.close()
				pulled += chunk.byteLength
				controller.enqueue(chunk)
			}
		})
		const res = await t.app.handle(
			new Request('http://localhost/api/auth/login', {
				method: 'POST',
				headers: { origin: 'http://localhost', 'content-type': 'application/json' },
				body: stream,
				duplex: 'half'
			} as RequestInit)
		)
		expect(res.status).toBe(413)
		expect((await res.json()).message).toBe('O corpo da requisição excede o limite de 256 KB.')
		expect(pulled).toBeLessThanOrEqual(256 * 1024 + 4 * chunk.byteLength)
	})

	it('refuses a body longer than the length it declared when that passes the route limit', async () => {
		const t = await createTestApp()
		const body = JSON.stringify({ cnpj: '11222333000181', senha: 'x'.repeat(300 * 1024) })
		const res = await t.app.handle(
			new Request('http://localhost/api/auth/login', {
				method: 'POST',
				headers: { origin: 'http://localhost', 'content-type': 'application/json', 'content-length': '40' },
				body
			})
		)
		expect(res.status).toBe(413)
		expect((await res.json()).message).toBe('O corpo da requisição excede o limite de 256 KB.')
	})
})

describe('licence dates stay within 20 years (point 6)', () => {
	const tooFar = '2046-11-21'
	const lastDay = '2046-11-20'

	it('refuses a licence date more than 20 years ahead wherever one is written, with 422', async () => {
		const w = await testWorld()
		const c = await w.companyVia({ validade_licenca: '2027-01-01' })
		const patch = await w.call('PATCH', `/api/companies/${c.codigo}`, { cookie: w.cookies.admin, body: { validade_licenca: tooFar } })
		expect(patch.status).toBe(422)
		expect(refusalOf(patch)).toEqual({
			message: 'A validade da licença não pode passar de 20/11/2046 (20 anos à frente).',
			code: 'LICENCE_HORIZON'
		})
		const put = await w.call('PUT', `/api/companies/${c.codigo}`, { cookie: w.cookies.admin, body: { ...c, validade_licenca: tooFar } })
		expect(put.status).toBe(422)
		const created = await w.postCompany(w.cookies.admin, { validade_licenca: tooFar })
		expect(created.status).toBe(422)
		expect(await w.licence(c.codigo)).toBe('2027-01-01')
		const ok = await w.call('PATCH', `/api/companies/${c.codigo}`, { cookie: w.cookies.admin, body: { validade_licenca: lastDay } })
		expect(ok.status).toBe(200)
	})

	it('refuses a transfer that would take the licence past year 9999 or 20 years ahead, spending nothing', async () => {
		const w = await testWorld()
		const c = await w.companyVia({ validade_licenca: '2026-12-01' })
		await w.addCreditsVia(w.cnpj.rep, 100_000)
		const ledger = async () => JSON.stringify(await w.db.select().from(credits))
		const before = await ledger()
		for (const creditos of [100_000, 222]) {
			const res = await w.call('POST', '/api/credits/transfer-to-company', {
				cookie: w.cookies.rep,
				body: { empresaCodigo: c.codigo, sistema: 'K-PDV', creditos }
			})
			expect(res.status, String(creditos)).toBe(422)
			expect(res.json.code).toBe('LICENCE_HORIZON')
		}
		expect(await ledger()).toBe(before)
		expect(await w.licence(c.codigo)).toBe('2026-12-01')
		expect((await w.call('GET', `/api/companies/${c.codigo}`, { cookie: w.cookies.rep })).status).toBe(200)
		const fits = await w.call('POST', '/api/credits/transfer-to-company', {
			cookie: w.cookies.rep,
			body: { empresaCodigo: c.codigo, sistema: 'K-PDV', creditos: 221 }
		})
		expect(fits.status).toBe(200)
	})
})

describe('strict fields (point 6)', () => {
	it('refuses a date with trailing text or a time instead of cutting it', async () => {
		const w = await testWorld()
		const c = await w.companyVia()
		for (const date of ['2026-02-28qualquer', '2026-02-28T00:00:00Z', '2026-02-28 ', ' 2026-02-28']) {
			const res = await w.call('PATCH', `/api/companies/${c.codigo}`, { cookie: w.cookies.admin, body: { validade_licenca: date } })
			expect(res.status, date).toBe(400)
			expect(res.json.message, date).toContain('Data inválida')
		}
		expect(await w.licence(c.codigo)).toBeNull()
		const report = await w.call('GET', '/api/reports?inicio=2026-01-01x&fim=2026-02-01', { cookie: w.cookies.admin })
		expect(report.status).toBe(400)
	})

	it('refuses a unit value that rounds to R$ 0,00', async () => {
		const w = await testWorld()
		for (const unitValue of [1e-9, 0.001, 0.004]) {
			const res = await w.call('POST', '/api/credits', {
				cookie: w.cookies.admin,
				body: { representanteId: w.cnpj.rep, amount: 1, unitValue }
			})
			expect(res.status, String(unitValue)).toBe(400)
		}
		expect(await w.db.select().from(credits)).toHaveLength(0)
	})

	it('takes empresaCodigo only as a positive whole number', async () => {
		const w = await testWorld()
		const c = await w.companyVia({ validade_licenca: '2026-12-01' })
		await w.addCreditsVia(w.cnpj.rep, 5)
		for (const empresaCodigo of [String(c.codigo), [c.codigo], true, c.codigo + 0.5, 0]) {
			const res = await w.call('POST', '/api/credits/transfer-to-company', {
				cookie: w.cookies.rep,
				body: { empresaCodigo, sistema: 'K-PDV', creditos: 1 }
			})
			expect(res.status, JSON.stringify(empresaCodigo)).toBe(400)
		}
		expect(await w.licence(c.codigo)).toBe('2026-12-01')
	})

	it('refuses NUL, control characters and bidi overrides in free text, and keeps line breaks', async () => {
		const w = await testWorld()
		const c = await w.companyVia()
		for (const razao of ['Padaria\u0000Central', 'Padaria\u0007', 'Padaria \u202Eetnerac', 'Mercado \u2066x\u2069', 'Loja\u009b']) {
			const res = await w.call('PUT', `/api/companies/${c.codigo}`, { cookie: w.cookies.admin, body: { ...c, razao } })
			expect(res.status, JSON.stringify(razao)).toBe(400)
			expect(res.json.message).toContain('caracteres não permitidos')
		}
		const notice = await w.call('POST', '/api/notices/general', {
			cookie: w.cookies.admin,
			body: { titulo: 'Aviso', texto: 'linha 1\u202E', urgente: 0, ativo: 1 }
		})
		expect(notice.status).toBe(400)
		const multiLine = await w.call('PUT', `/api/companies/${c.codigo}`, {
			cookie: w.cookies.admin,
			body: { ...c, obs: 'primeira linha\nsegunda\tlinha' }
		})
		expect(multiLine.status).toBe(200)
		const stored = (await w.db.select().from(companies).where(eq(companies.codigo, c.codigo)))[0]!
		expect(stored.razao).toBe(c.razao)
		expect(stored.obs).toBe('primeira linha\nsegunda\tlinha')
	})

	it('strips control and bidi characters from what a desktop system reports about itself', async () => {
		const w = await testWorld()
		const c = await w.companyVia({ validade_licenca: '2027-01-01' })
		const res = await w.call('POST', '/api/licenca/verificar', {
			body: {
				cnpj: c.cnpj,
				chave: c.serial,
				sistema: 'K-PDV',
				mac: 'AA:BB:CC:00:11:22',
				nome_computador: 'CAIXA\u202E10\u0000',
				versao: '5.2\u0007'
			}
		})
		expect(res.status).toBe(200)
		const terminals = await w.call('GET', '/api/terminals', { cookie: w.cookies.admin })
		expect(JSON.stringify(terminals.json)).toContain('"CAIXA10"')
	})
})
