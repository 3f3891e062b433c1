import { afterEach, describe, expect, it } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { fixedClock } from '../core'
import { AppError, silentLogger, testConfig } from '../core/server'
import { type CheckWorkerSetup, LicenceCheckPool, workerDatabase } from './check-pool'
import type { LicenceCheckBody } from './model'
import { companies } from '../companies'
import { terminals } from '../terminals'
import { type AnswerAt, testWorld } from '../../apps/server/testing'

// These tests run the checks in real worker threads, which need the database in a file (or on PostgreSQL).
const cleanups: (() => void)[] = []
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup()
})

async function fixture(workers: number) {
	const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-pool-')), 'portal.sqlite')
	const t = await testWorld({ dbFile, config: { licenceWorkers: workers } })
	cleanups.push(() => t.services.licence.close())
	return { ...t, database: workerDatabase(t.db)! }
}

function pool(
	database: CheckWorkerSetup['database'],
	workers: number,
	options: { log?: (event: string, fields?: Record<string, unknown>) => void; maxPending?: number } = {}
) {
	const p = new LicenceCheckPool(
		{ database, config: testConfig() },
		workers,
		options.log ?? silentLogger,
		fixedClock('2026-11-20T12:00:00.000Z'),
		options.maxPending
	)
	cleanups.push(() => p.close())
	return p
}

async function ask(t: { app: { handle(r: Request): Promise<Response> } }, body: Record<string, unknown>) {
	const res = await t.app.handle(
		new Request('http://localhost/api/licenca/verificar', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body)
		})
	)
	return { status: res.status, json: (await res.json()) as AnswerAt<'POST', '/api/licenca/verificar'>, headers: res.headers }
}

const machine = (c: { cnpj: string; serial: string }, n: number) => ({
	cnpj: c.cnpj,
	chave: c.serial,
	sistema: 'K-PDV' as const,
	mac: `AABBCC0001${String(n).padStart(2, '0')}`,
	nome_computador: `CAIXA-${n}`
})

describe('licence checks in worker threads', () => {
	it('answer and sign as in the main thread, on the app’s clock, with the API headers', async () => {
		const t = await fixture(2)
		const c = await t.companyVia({ validade_licenca: '2027-01-10', nterminais: 2 })
		const res = await ask(t, { ...machine(c, 1), nonce: 'n-123' })
		expect(res.status).toBe(200)
		expect(res.headers.get('content-type')).toContain('application/json')
		expect(res.headers.get('cache-control')).toBe('no-store')
		expect(res.headers.get('x-content-type-options')).toBe('nosniff')
		expect(res.json).toMatchObject({
			status: 'ativa',
			nonce: 'n-123',
			servidor_hora: '2026-11-20T12:00:00.000Z',
			licenca: { dias_restantes: 51 },
			terminal: { registrado: true, usados: 1, permitidos: 2 }
		})
		const key = (await t.call('GET', '/api/licenca/chave-publica')).json
		const [header, payload, signature] = res.json.token!.split('.')
		expect(verify(null, Buffer.from(`${header}.${payload}`), createPublicKey(key.pem), Buffer.from(signature, 'base64url'))).toBe(true)
		expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ sub: c.cnpj, mac: 'AABBCC000101', nonce: 'n-123' })
		const wrong = await ask(t, { ...machine(c, 1), chave: 'errada' })
		expect(wrong.json.status).toBe('chave_invalida')
		expect(wrong.json.token).toBeUndefined()
	})

	it('holds the company limit exactly under a burst, and a wrong key still gets chave_invalida', async () => {
		for (const workers of [0, 2]) {
			const t = await fixture(workers)
			const c = await t.companyVia({ validade_licenca: '2027-01-10', nterminais: 1 })
			const answers = await Promise.all(Array.from({ length: 130 }, () => ask(t, machine(c, 1))))
			expect(answers.filter((a) => a.status === 200)).toHaveLength(120)
			expect(answers.filter((a) => a.status === 429)).toHaveLength(10)
			// A busy company and an unknown CNPJ look the same to someone without the key.
			const wrong = await ask(t, { ...machine(c, 1), chave: 'errada' })
			expect(wrong.status).toBe(200)
			expect(wrong.json.status).toBe('chave_invalida')
		}
	})

	it('writes the batched last-use times when asked to flush', async () => {
		const t = await fixture(1)
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		await ask(t, machine(c, 1))
		const row = async () => (await t.db.select().from(companies).where(eq(companies.codigo, c.codigo)))[0]!
		expect((await row()).data_ultima_utilizacao).toBeNull()
		await t.services.licence.flushUsage()
		const deadline = performance.now() + 10_000
		while ((await row()).data_ultima_utilizacao === null && performance.now() < deadline) await Bun.sleep(20)
		expect(await row()).toMatchObject({ on_line: 'S', data_ultima_utilizacao: '2026-11-20', hora_ultima_utilizacao: '09:00:00' })
	})
})

describe('LicenceCheckPool', () => {
	it('never registers more machines than allowed when two connections race', async () => {
		const t = await fixture(0)
		const c = await t.companyVia({ validade_licenca: '2027-01-10', nterminais: 3 })
		const [a, b] = [pool(t.database, 1), pool(t.database, 1)]
		const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).run(machine(c, i + 1) as LicenceCheckBody)))
		const statuses = answers.map((r) => r!.status)
		expect(statuses.filter((s) => s === 'ativa')).toHaveLength(3)
		expect(statuses.filter((s) => s === 'terminal_excedido')).toHaveLength(17)
		expect(await t.db.select().from(terminals).where(eq(terminals.fk_empresa, c.codigo))).toHaveLength(3)
		expect((await t.db.select({ n: companies.terminal_count }).from(companies).where(eq(companies.codigo, c.codigo)))[0]!.n).toBe(3)
	})

	it('fails the checks of a worker that dies with 503, answers null while it is replaced, then uses the new one', async () => {
		const t = await fixture(0)
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		const p = pool(t.database, 1)
		const input = machine(c, 1) as LicenceCheckBody
		expect((await p.run(input))?.status).toBe('ativa')

		const held = p.run(input)
		// The test kills a worker from outside, as a crash would: its slots are private to the pool.
		// biome-ignore lint/complexity/useLiteralKeys: bracket access reaches the private field on purpose
		p['slots'][0]!.worker.terminate()
		const error = await held.then(
			() => null,
			(e: unknown) => e as AppError
		)
		expect(error).toBeInstanceOf(AppError)
		expect(error!.status).toBe(503)
		expect(await p.run(input)).toBeNull()

		// However slow the machine is at starting a thread again: wait for the answer, up to a deadline.
		let answer = null
		const deadline = performance.now() + 15_000
		while (!answer && performance.now() < deadline) {
			answer = await p.run(input)
			if (!answer) await Bun.sleep(20)
		}
		expect(answer?.status).toBe('ativa')
		p.close()
		await expect(p.run(input)).rejects.toBeInstanceOf(AppError)
	}, 30_000)

	it('answers null when a worker cannot start, and retries it ever more slowly', async () => {
		const retries: unknown[] = []
		const p = pool({ file: '/nonexistent/folder/portal.sqlite' }, 1, {
			log: (event, fields) => {
				if (event === 'licence.worker_failed') retries.push(fields?.retryInMs)
			}
		})
		// However slow the machine is at starting threads: wait for three failed starts, not for a fixed time.
		const deadline = performance.now() + 25_000
		while (retries.length < 3 && performance.now() < deadline) await Bun.sleep(20)
		expect(await p.run({ cnpj: '11222333000181' } as LicenceCheckBody)).toBeNull()
		// Each new attempt waits twice as long as the one before: 0.5 s, 1 s, 2 s… (up to 30 s), never a busy loop.
		expect(retries.slice(0, 3)).toEqual([500, 1_000, 2_000])
		const seen = retries.length
		await Bun.sleep(1_000)
		expect(retries.length).toBe(seen)
	}, 30_000)

	it('refuses at once with 503 what would queue beyond its limit', async () => {
		const t = await fixture(0)
		const c = await t.companyVia({ validade_licenca: '2027-01-10' })
		const p = pool(t.database, 1, { maxPending: 2 })
		const results = await Promise.allSettled(Array.from({ length: 5 }, () => p.run(machine(c, 1) as LicenceCheckBody)))
		expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
		for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason.status).toBe(503)
	})
})
