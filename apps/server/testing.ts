import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDb } from '../../db/testing'
import { hashPassword, users } from '../../modules/auth'
import { type Role, fixedClock } from '../../modules/core'
import { type AppConfig, silentLogger, testConfig } from '../../modules/core/server'
import { createApp } from './app'

export const TEST_ORIGIN = 'http://localhost'

/** An isolated portal on an in-memory database (or `dbFile`) with a clock that only moves when told. */
export function createTestApp(options: { config?: Partial<AppConfig>; now?: string; dbFile?: string } = {}) {
	const db = createTestDb(options.dbFile)
	const clock = fixedClock(options.now ?? '2026-11-20T12:00:00.000Z')
	const logs: { event: string; fields?: Record<string, unknown> }[] = []
	// Each app gets its own data folder, so backups and uploads of one test never meet another's.
	const dataDir = mkdtempSync(join(tmpdir(), 'kportal-test-'))
	const ctx = { db, clock, config: testConfig({ dataDir, ...options.config }), log: (event: string, fields?: Record<string, unknown>) => logs.push({ event, fields }) }
	const app = createApp(ctx)

	/** A same-origin request, as the portal's own pages make it. */
	async function call(method: string, path: string, init: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {}) {
		const headers: Record<string, string> = { origin: TEST_ORIGIN, ...init.headers }
		if (init.cookie) headers.cookie = init.cookie
		let body: string | undefined
		if (init.body !== undefined) {
			body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
			headers['content-type'] ??= 'application/json'
		}
		const response = await app.handle(new Request(TEST_ORIGIN + path, { method, headers, body }))
		const text = await response.text()
		let json: any = null
		try {
			json = text ? JSON.parse(text) : null
		} catch {}
		return { status: response.status, headers: response.headers, json, text }
	}

	async function createUser(input: { cnpj: string; tipo: Role; senha?: string; nome?: string; email?: string; ativo?: boolean }) {
		const now = clock.now().toISOString()
		return db
			.insert(users)
			.values({
				cnpj: input.cnpj,
				nome: input.nome ?? `Usuário ${input.tipo}`,
				email: input.email ?? null,
				tipo: input.tipo,
				senha_hash: await hashPassword(input.senha ?? 'senha-forte-123'),
				ativo: input.ativo ?? true,
				created_at: now,
				updated_at: now
			})
			.returning()
			.get()
	}

	/** Signs in and returns the cookie header to send with later calls. */
	async function login(cnpj: string, senha = 'senha-forte-123') {
		const res = await call('POST', '/api/auth/login', { body: { cnpj, senha } })
		if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`)
		const setCookie = res.headers.get('set-cookie') ?? ''
		return setCookie.split(';')[0]
	}

	return { app, ctx, db, clock, logs, call, createUser, login }
}

/** Valid CNPJs for tests, one per role. */
export const CNPJ = {
	admin: '11222333000181',
	gerente: '11444777000161',
	rep: '45997418000153',
	rep2: '04252011000110',
	alnum: '12ABC34501DE35'
}
