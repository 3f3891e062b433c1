import { afterEach, describe, expect, it, mock } from 'bun:test'
import { nanoquery } from '@nanostores/query'
import { LIVE_PACE, invalidateReads, isReadOf, polling, routeStore } from './query'

/** A store of the portal's shared settings (30 s dedupe) with `settings`, counting its fetches over `ms`. */
async function fetchesOver(settings: object, ms: number) {
	let fetches = 0
	const [createFetcherStore] = nanoquery({
		fetcher: async () => ++fetches,
		dedupeTime: 30_000,
		cacheLifetime: 120_000,
		revalidateOnFocus: false
	})
	const store = createFetcherStore<number>(['/api/lista'], settings)
	const stop = store.listen(() => {})
	await Bun.sleep(ms)
	stop()
	return fetches
}

describe('live screens (issue 34, points 1 and 3)', () => {
	it('refetch at their pace despite the shared 30 s dedupe', async () => {
		// Every 40 ms over 230 ms: the first read and about five ticks.
		expect(await fetchesOver(polling(40), 230)).toBeGreaterThanOrEqual(4)
		// A bare revalidateInterval is swallowed by the dedupe: one read, however often it ticks.
		expect(await fetchesOver({ revalidateInterval: 40 }, 230)).toBe(1)
	})

	it('are the bot’s paces of the specification, and a carnê’s change shows within 10 s', () => {
		expect(LIVE_PACE).toMatchObject({ botMonitor: 30_000, botStatus: 5_000, botSessions: 10_000, botPaused: 5_000 })
		expect(LIVE_PACE.billing).toBeLessThanOrEqual(10_000)
		expect(LIVE_PACE.notifications).toBeLessThanOrEqual(10_000)
		for (const ms of Object.values(LIVE_PACE)) expect(polling(ms).dedupeTime).toBeLessThan(ms)
	})
})

describe('invalidation named by routes (issue 38, point 3)', () => {
	const realFetch = globalThis.fetch
	afterEach(() => {
		globalThis.fetch = realFetch
	})

	it('reaches every query of the route, and only the route', () => {
		expect(isReadOf('GET /api/credits', '/api/credits')).toBe(true)
		expect(isReadOf('GET /api/credits', '/api/credits?kind=pool&page=2')).toBe(true)
		// A longer path is another read, not a query of this one.
		expect(isReadOf('GET /api/credits', '/api/credits/summary?limit=1000')).toBe(false)
		expect(isReadOf('GET /api/credits/summary', '/api/credits')).toBe(false)
		expect(isReadOf('GET /api/notices/general', '/api/notices/generally')).toBe(false)
		// A path parameter stands for one segment.
		expect(isReadOf('GET /api/carnes/:id/parcelas', '/api/carnes/7/parcelas')).toBe(true)
		expect(isReadOf('GET /api/carnes/:id/parcelas', '/api/carnes/7/8/parcelas')).toBe(false)
		expect(isReadOf('GET /api/carnes/:id/parcelas', '/api/carnes//parcelas')).toBe(false)
	})

	it('refetches the stores of the named reads after a write, and leaves the others alone', async () => {
		const asked: string[] = []
		globalThis.fetch = mock(async (url: string) => {
			asked.push(url)
			return new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } })
		}) as unknown as typeof fetch
		const summary = routeStore('GET /api/credits/summary', { limit: 1000, sort: 'nome', order: 'asc' })
		const companies = routeStore('GET /api/companies', { page: 1, limit: 1000 })
		const stops = [summary.listen(() => {}), companies.listen(() => {})]
		await Bun.sleep(20)
		expect(asked.sort()).toEqual(['/api/companies?page=1&limit=1000', '/api/credits/summary?limit=1000&sort=nome&order=asc'])

		asked.length = 0
		invalidateReads(['GET /api/credits/summary'])
		await Bun.sleep(20)
		expect(asked).toEqual(['/api/credits/summary?limit=1000&sort=nome&order=asc'])
		for (const stop of stops) stop()
	})
})
