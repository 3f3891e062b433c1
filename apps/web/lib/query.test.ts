import { describe, expect, it } from 'bun:test'
import { nanoquery } from '@nanostores/query'
import { LIVE_PACE, polling } from './query'

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
