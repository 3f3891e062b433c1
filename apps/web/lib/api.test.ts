import { afterEach, describe, expect, it, mock } from 'bun:test'
import { ApiError, api, errorText, isRetryable, retryDelay } from './api'
import { patientRetry, withRetry } from './query'

const realFetch = globalThis.fetch
afterEach(() => {
	globalThis.fetch = realFetch
})

function answer(status: number, body: string, type = 'application/json') {
	return new Response(body, { status, headers: { 'content-type': type } })
}

describe('api', () => {
	it('sends credentials and a JSON body only when one is given', async () => {
		const calls: RequestInit[] = []
		globalThis.fetch = mock(async (_: unknown, init: RequestInit) => {
			calls.push(init)
			return answer(200, '{"ok":true}')
		}) as unknown as typeof fetch
		expect(await api('/api/x')).toEqual({ ok: true })
		await api('/api/y', { method: 'POST', body: { a: 1 } })
		expect(calls[0].credentials).toBe('include')
		expect(calls[0].body).toBeUndefined()
		expect(calls[0].headers).toBeUndefined()
		expect(calls[1].body).toBe('{"a":1}')
		expect(calls[1].headers).toEqual({ 'content-type': 'application/json' })
	})

	it('raises "status: body" and exposes the server message', async () => {
		globalThis.fetch = mock(async () => answer(409, '{"message":"CNPJ já cadastrado."}')) as unknown as typeof fetch
		const error = (await api('/api/x').catch((e) => e)) as ApiError
		expect(error).toBeInstanceOf(ApiError)
		expect(error.message).toBe('409: {"message":"CNPJ já cadastrado."}')
		expect(errorText(error)).toBe('CNPJ já cadastrado.')
	})

	it('uses the status text when the body is empty', async () => {
		globalThis.fetch = mock(async () => new Response('', { status: 502, statusText: 'Bad Gateway' })) as unknown as typeof fetch
		const error = (await api('/api/x').catch((e) => e)) as ApiError
		expect(error.message).toBe('502: Bad Gateway')
		expect(errorText(error, 'Falhou')).toBe('Falhou')
	})
})

describe('retry rules', () => {
	it('never retries a client error and retries server and network errors', () => {
		expect(isRetryable(new ApiError(400, ''))).toBe(false)
		expect(isRetryable(new ApiError(404, ''))).toBe(false)
		expect(isRetryable(new ApiError(429, ''))).toBe(false)
		expect(isRetryable(new ApiError(500, ''))).toBe(true)
		expect(isRetryable(new ApiError(503, ''))).toBe(true)
		expect(isRetryable(new ApiError(408, 'timeout'))).toBe(true)
		expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true)
	})

	it('waits 1 s, then 2 s, doubling up to the cap', () => {
		expect([1, 2, 3, 4, 5].map((n) => retryDelay(n))).toEqual([1000, 2000, 4000, 5000, 5000])
		expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, 10_000))).toEqual([1000, 2000, 4000, 8000, 10000])
	})

	it('makes at most 2 retries, and none for a 4xx', async () => {
		let attempts = 0
		const failing = withRetry(async () => {
			attempts++
			throw new ApiError(500, 'x')
		})
		await expect(failing).rejects.toThrow('500: x')
		expect(attempts).toBe(3)

		attempts = 0
		await expect(
			withRetry(async () => {
				attempts++
				throw new ApiError(422, 'x')
			})
		).rejects.toThrow()
		expect(attempts).toBe(1)
	}, 10_000)
})

describe('the credits lists retry rule', () => {
	it('retries 3 times, 1 s doubling up to 10 s, and never a 4xx', () => {
		const delays = [0, 1, 2, 3].map((retryCount) => patientRetry.onErrorRetry({ error: new ApiError(503, ''), retryCount }))
		expect(delays).toEqual([1000, 2000, 4000, undefined])
		expect(patientRetry.onErrorRetry({ error: new ApiError(404, ''), retryCount: 0 })).toBeUndefined()
	})
})
