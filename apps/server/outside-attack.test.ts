// Regressions of the outside attack on a running portal (issue 13): each test replays what got through.
import { describe, expect, it } from 'bun:test'
import { nestsDeeperThan } from './plugins/security'
import { createTestApp } from './testing'

/** Arrays nested `depth` deep: 2 bytes per level (the attack sent 100,000 levels in 200 KB). */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('one anonymous request must not stop the portal (point 1)', () => {
	it('answers /api/health in under 100 ms while 200 KB bodies nested 100,000 deep keep arriving', async () => {
		const t = createTestApp()
		const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
		const base = `http://127.0.0.1:${server.server!.port}`
		try {
			const hostile = nested(100_000)
			let stop = false
			const statuses: number[] = []
			// Four anonymous attackers, each sending one body after the other, at the login and the licence check.
			const attackers = Array.from({ length: 4 }, async (_, i) => {
				const path = i % 2 ? '/api/auth/login' : '/api/licenca/verificar'
				while (!stop) {
					const res = await fetch(base + path, {
						method: 'POST',
						headers: { 'content-type': 'application/json', origin: base },
						body: hostile,
						signal: AbortSignal.timeout(10_000)
					})
					statuses.push(res.status)
					expect(await res.text()).not.toContain('[[[')
				}
			})
			while (statuses.length < 8) await Bun.sleep(5)
			const latencies: number[] = []
			for (let i = 0; i < 20; i++) {
				const start = performance.now()
				const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) })
				expect(res.status).toBe(200)
				latencies.push(performance.now() - start)
			}
			stop = true
			await Promise.all(attackers)
			latencies.sort((a, b) => a - b)
			// The median is the target; one slow answer on a busy machine is the machine's, not the portal's.
			expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(100)
			expect(latencies.at(-1)!).toBeLessThan(1_000)
			expect(statuses.length).toBeGreaterThanOrEqual(8)
			expect(new Set(statuses)).toEqual(new Set([400]))
		} finally {
			server.stop(true)
		}
	}, 60_000)

	it('refuses nesting deeper than 32 levels with 400 and a pt-BR message, before parsing', async () => {
		const t = createTestApp()
		const res = await t.call('POST', '/api/auth/login', { body: `{"cnpj": ${nested(33)}, "senha": "x"}` })
		expect(res.status).toBe(400)
		expect(res.json).toEqual({ message: 'Corpo da requisição inválido: o JSON tem níveis demais (máximo 32).', code: 'PARSE' })
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
		const t = createTestApp()
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
		const t = createTestApp()
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
})
