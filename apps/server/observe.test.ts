import { describe, expect, it, spyOn } from 'bun:test'
import { sql } from 'drizzle-orm'
import { onPostgres } from '../../db/dialect'
import { sqlRun } from '../../db/query'
import { appJobs } from './app'
import { runJob } from '../../modules/jobs'
import { botInbox } from '../../modules/bot'
import { enterRequest, jsonLogger } from '../../modules/core/server'
import { testWorld } from './testing'

const TOKEN = 'metricas-do-teste-0123456789abcdefghij'

describe('request ids (issue 36)', () => {
	it('answers every request with its id: a well-formed one from the proxy as it came, otherwise a new one', async () => {
		const w = await testWorld()
		const given = await w.call('GET', '/api/health', { headers: { 'x-request-id': 'proxy-1234abcd' } })
		expect(given.headers.get('x-request-id')).toBe('proxy-1234abcd')
		for (const bad of ['curto', 'com espaço e acentuação', 'x'.repeat(129), '<script>alert(1)</script>']) {
			const answer = await w.call('GET', '/api/health', { headers: { 'x-request-id': bad } })
			expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
		}
		// Refusals and errors carry it too.
		const refused = await w.call('GET', '/api/companies')
		expect(refused.status).toBe(401)
		expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
	})

	it('writes one JSON object per line, with the id of the request being served', async () => {
		const lines: string[] = []
		const spy = spyOn(console, 'log').mockImplementation((line: string) => {
			lines.push(line)
		})
		try {
			// A request's work, started on its own (as the server starts each request's).
			await new Promise<void>((resolve) =>
				setTimeout(async () => {
					enterRequest('pedido-0001abcd')
					await Bun.sleep(1)
					jsonLogger('teste.evento', { campo: 'com\nquebra' })
					resolve()
				})
			)
			jsonLogger('fora.de.pedido')
		} finally {
			spy.mockRestore()
		}
		expect(lines).toHaveLength(2)
		expect(JSON.parse(lines[0])).toMatchObject({ event: 'teste.evento', requestId: 'pedido-0001abcd', campo: 'com\nquebra' })
		expect(JSON.parse(lines[1]).requestId).toBeUndefined()
	})
})

describe('GET /api/ready (issue 36)', () => {
	it('is ready at this code’s migration level, and says why not otherwise', async () => {
		const w = await testWorld()
		const ready = await w.call('GET', '/api/ready')
		expect(ready.status).toBe(200)
		expect(ready.json).toEqual({ status: 'pronto', migracao: expect.any(Number) })
		const table = onPostgres(w.db) ? sql.raw('drizzle.__drizzle_migrations') : sql.raw('__drizzle_migrations')
		// A database migrated by a newer portal: this instance must not serve it.
		await sqlRun(w.db, sql`insert into ${table} (hash, created_at) values ('futura', ${Date.now() + 10 ** 11})`)
		const newer = await w.call('GET', '/api/ready')
		expect([newer.status, newer.json.message]).toEqual([503, 'O banco é de uma versão mais nova do portal: atualize esta instância.'])
		// A database not migrated yet (another instance may be migrating it).
		await sqlRun(w.db, sql`delete from ${table}`)
		const behind = await w.call('GET', '/api/ready')
		expect(behind.status).toBe(503)
		expect(behind.json.message).toContain('ainda não tem as migrações')
		// Liveness is another question: the process and its database answer.
		expect((await w.call('GET', '/api/health')).status).toBe(200)
	})

	it('answers 503 while the instance shuts down, so the balancer stops sending it requests', async () => {
		const w = await testWorld()
		w.services.lifecycle.draining = true
		const draining = await w.call('GET', '/api/ready')
		expect([draining.status, draining.json.code]).toEqual([503, 'NOT_READY'])
		expect((await w.call('GET', '/api/health')).status).toBe(200)
	})
})

describe('GET /metrics (issue 36)', () => {
	it('is for an administrador’s session or the configured token only', async () => {
		const w = await testWorld({ config: { metricsToken: TOKEN } })
		expect((await w.call('GET', '/metrics')).status).toBe(401)
		expect((await w.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401)
		for (const cookie of [w.cookies.gerente, w.cookies.rep]) expect((await w.call('GET', '/metrics', { cookie })).status).toBe(403)
		const admin = await w.call('GET', '/metrics', { cookie: w.cookies.admin })
		expect(admin.status).toBe(200)
		expect(admin.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
		expect((await w.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
		// Without a configured token, no token opens it.
		const closed = await testWorld()
		expect((await closed.call('GET', '/metrics', { headers: { authorization: 'Bearer ' } })).status).toBe(401)
	})

	it('counts requests per route pattern with their latency, licence checks, job runs and the webhook inbox', async () => {
		const w = await testWorld({ config: { metricsToken: TOKEN } })
		const company = await w.companyVia({ validade_licenca: '2027-01-10' })
		for (let i = 0; i < 3; i++) await w.call('GET', `/api/companies/${company.codigo}`, { cookie: w.cookies.admin })
		expect((await w.call('GET', `/api/companies/${company.codigo}`, { cookie: w.cookies.rep2 })).status).toBe(404)
		const check = (chave: string) =>
			w.call('POST', '/api/licenca/verificar', {
				headers: { origin: '' },
				body: { cnpj: company.cnpj, chave, sistema: 'K-PDV', mac: 'AABBCC000001', nome_computador: 'CAIXA', versao: '1.0' }
			})
		expect((await check(company.serial)).status).toBe(200)
		expect((await check('errada')).status).toBe(200)
		const job = appJobs(w.ctx, w.services).find((j) => j.name === 'licensing.offline')!
		await runJob(w.ctx, 'teste', job)
		// A WhatsApp message the bot took and has not answered yet.
		const at = w.clock.now().toISOString()
		await w.db
			.insert(botInbox)
			.values({ message_id: 'M1', phone_key: '558599990001', phone: '558599990001', from_me: false, text: 'Oi', received_at: at })
		// Counted once each answer has gone (after the response: a moment later).
		await Bun.sleep(20)
		const text = (await w.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text
		const value = (series: string) => Number(text.match(new RegExp(`^${series.replace(/[{}()|[\]\\.+*?^$]/g, '\\$&')} (\\S+)$`, 'm'))?.[1])
		expect(value('portal_http_requests_total{method="GET",route="/api/companies/:id",status="200"}')).toBe(3)
		expect(value('portal_http_requests_total{method="GET",route="/api/companies/:id",status="404"}')).toBe(1)
		expect(value('portal_http_request_duration_seconds_count{method="GET",route="/api/companies/:id"}')).toBe(4)
		expect(value('portal_http_request_duration_seconds_bucket{method="GET",route="/api/companies/:id",le="+Inf"}')).toBe(4)
		expect(value('portal_licence_checks_total{status="ativa"}')).toBe(1)
		expect(value('portal_licence_checks_total{status="chave_invalida"}')).toBe(1)
		expect(value('portal_job_runs_total{job="licensing.offline",outcome="ok"}')).toBe(1)
		expect(value('portal_webhook_inbox_depth{inbox="asaas"}')).toBe(0)
		expect(value('portal_webhook_inbox_depth{inbox="whatsapp"}')).toBe(1)
		expect(value('portal_database_up')).toBe(1)
		// No raw path (an id) ever becomes a label.
		expect(text).not.toContain(`/api/companies/${company.codigo}`)
		expect(text).toContain('# TYPE portal_http_request_duration_seconds histogram')
	})
})
