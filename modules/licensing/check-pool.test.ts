import { afterEach, describe, expect, it } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { AppError, silentLogger, testConfig } from '../core'
import { LicenceCheckPool } from './check-pool'
import type { LicenceCheckBody } from './model'
import { companies, terminals } from './schema'
import { peopleFixture } from './testing'

// These tests run the checks in real worker threads, which need the database in a file.
const cleanups: (() => void)[] = []
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup()
})

async function pooledFixture(workers: number) {
	const dir = mkdtempSync(join(tmpdir(), 'kportal-pool-'))
	const t = await peopleFixture({ dbFile: join(dir, 'portal.sqlite'), config: { licenceWorkers: workers } })
	cleanups.push(() => t.app.decorator.licence.close())
	return t
}

async function ask(t: Awaited<ReturnType<typeof pooledFixture>>, body: Record<string, unknown>) {
	const res = await t.app.handle(
		new Request('http://localhost/api/licenca/verificar', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
	)
	return { status: res.status, json: (await res.json()) as any, headers: res.headers }
}

const machine = (c: { cnpj: string; serial: string }, n: number) => ({
	cnpj: c.cnpj,
	chave: c.serial,
	sistema: 'K-PDV',
	mac: `AA:BB:CC:00:01:${String(n).padStart(2, '0')}`,
	nome_computador: `CAIXA-${n}`
})

describe('licence checks in worker threads', () => {
	it('answer and sign as in the main thread, with the API headers', async () => {
		const t = await pooledFixture(2)
		const c = await t.company({ validade_licenca: '2030-01-10', nterminais: 2 })
		const res = await ask(t, { ...machine(c, 1), nonce: 'n-123' })
		expect(res.status).toBe(200)
		expect(res.headers.get('content-type')).toContain('application/json')
		expect(res.headers.get('cache-control')).toBe('no-store')
		expect(res.headers.get('x-content-type-options')).toBe('nosniff')
		expect(res.json).toMatchObject({ status: 'ativa', permitido: true, nonce: 'n-123', terminal: { registrado: true, usados: 1, permitidos: 2 } })
		const key = (await t.call('GET', '/api/licenca/chave-publica')).json
		const [header, payload, signature] = res.json.token.split('.')
		expect(verify(null, Buffer.from(`${header}.${payload}`), createPublicKey(key.pem), Buffer.from(signature, 'base64url'))).toBe(true)
		expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ sub: c.cnpj, mac: 'AABBCC000101', nonce: 'n-123' })
		// A wrong key gets the same answer as an unknown CNPJ, from the worker too.
		const wrong = await ask(t, { ...machine(c, 1), chave: 'errada' })
		expect(wrong.json.status).toBe('chave_invalida')
		expect(wrong.json.token).toBeUndefined()
	})

	it('never registers more machines than the licence allows, 20 at once', async () => {
		const t = await pooledFixture(2)
		const c = await t.company({ validade_licenca: '2030-01-10', nterminais: 3 })
		const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(t, machine(c, i + 1))))
		const statuses = answers.map((a) => a.json.status)
		expect(statuses.filter((s) => s === 'ativa')).toHaveLength(3)
		expect(statuses.filter((s) => s === 'terminal_excedido')).toHaveLength(17)
		expect(t.db.select().from(terminals).where(eq(terminals.fk_empresa, c.codigo)).all()).toHaveLength(3)
		expect(t.db.select({ n: companies.terminal_count }).from(companies).where(eq(companies.codigo, c.codigo)).get()!.n).toBe(3)
	})

	it('writes the batched last-use times when asked to flush', async () => {
		const t = await pooledFixture(1)
		const c = await t.company({ validade_licenca: '2030-01-10' })
		await ask(t, machine(c, 1))
		const row = () => t.db.select().from(companies).where(eq(companies.codigo, c.codigo)).get()!
		expect(row().data_ultima_utilizacao).toBeNull()
		t.app.decorator.licence.flushUsage()
		for (let i = 0; i < 100 && row().data_ultima_utilizacao === null; i++) await Bun.sleep(20)
		expect(row()).toMatchObject({ on_line: 'S' })
		expect(row().data_ultima_utilizacao).toMatch(/^\d{4}-\d{2}-\d{2}$/)
	})
})

describe('LicenceCheckPool', () => {
	it('fails the checks of a worker that dies with 503, then answers with its replacement', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'kportal-pool-'))
		const t = await peopleFixture({ dbFile: join(dir, 'portal.sqlite') })
		const c = await t.company({ validade_licenca: '2030-01-10' })
		const pool = new LicenceCheckPool({ dbFile: join(dir, 'portal.sqlite'), config: testConfig({ dataDir: dir }) }, 1, silentLogger)
		cleanups.push(() => pool.close())
		const input = { ...machine(c, 1), mac: 'AABBCC000101', nome_computador: 'CAIXA-1' } as LicenceCheckBody
		expect((await pool.run(input)).status).toBe('ativa')

		const held = pool.run(input)
		pool['slots'][0].worker.terminate()
		const error = await held.then(
			() => null,
			(e: unknown) => e
		)
		expect(error).toBeInstanceOf(AppError)
		expect((error as AppError).status).toBe(503)
		expect((error as AppError).message).toContain('indisponível')

		let answer = null
		for (let i = 0; i < 50 && !answer; i++) {
			answer = await pool.run(input).catch(() => null)
			if (!answer) await Bun.sleep(20)
		}
		expect(answer?.status).toBe('ativa')
		pool.close()
		await expect(pool.run(input)).rejects.toBeInstanceOf(AppError)
	})
})
