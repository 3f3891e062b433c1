import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDb } from '../../db/testing'
import { SharedCounter, SlidingWindow } from './rate'
import { rateCounts } from './schema'

describe('SlidingWindow', () => {
	it('allows `limit` events per window and tells when the next one may come', () => {
		const w = new SlidingWindow(60_000, 3)
		expect([w.hit('a', 0), w.hit('a', 10_000), w.hit('a', 20_000)]).toEqual([false, false, false])
		expect(w.waitMs('a', 20_000)).toBeGreaterThan(0)
		expect(w.waitMs('b', 20_000)).toBe(0)
		expect(w.waitMs('a', 30_000)).toBe(30_000)
		expect(w.hit('a', 30_000)).toBe(true)
		// The first event leaves the window at 60 s; the refused one still counts.
		expect(w.count('a', 60_000)).toBe(3)
		expect(w.waitMs('a', 80_000)).toBe(0)
		expect(w.count('a', 200_000)).toBe(0)
	})

	it('keeps only what it needs of a flood, and still refuses it', () => {
		const w = new SlidingWindow(60_000, 5)
		for (let i = 0; i < 10_000; i++) w.hit('x', i)
		expect(w.count('x', 10_000)).toBe(6)
		expect(w.waitMs('x', 10_000)).toBeGreaterThan(0)
		// Allowed again once five of the newest leave the window.
		expect(w.waitMs('x', 10_000)).toBe(9_995 + 60_000 - 10_000)
	})

	it('undo and clear take events back', () => {
		const w = new SlidingWindow(60_000, 2)
		w.hit('k', 0)
		w.hit('k', 1)
		w.undo('k')
		expect(w.count('k', 2)).toBe(1)
		w.clear('k')
		expect(w.count('k', 2)).toBe(0)
	})

	it('never forgets a key over its limit to make room, however many junk keys arrive', () => {
		const w = new SlidingWindow(60_000, 3, 1_000)
		for (let i = 0; i < 4; i++) w.hit('victim', i)
		for (let i = 0; i < 50_000; i++) w.hit(`junk-${i}`, 10)
		expect(w.waitMs('victim', 20)).toBeGreaterThan(0)
		expect(w.waitMs('victim', 20)).toBe(60_000 + 1 - 20)
		expect(w.size).toBeLessThanOrEqual(1_000)
	})

	it('forgets quiet keys and caps how many keys it holds', () => {
		const w = new SlidingWindow(1_000, 2, 1_000)
		for (let i = 0; i < 5_000; i++) w.hit(`ip-${i}`, 0)
		expect(w.size).toBeLessThanOrEqual(1_000)
		expect(w.count('ip-4999', 0)).toBe(1)
		expect(w.count('ip-0', 0)).toBe(0)
		// A hit after the window sweeps every key whose last event expired.
		w.hit('new', 2_000)
		expect(w.size).toBe(1)
	})
})

describe('SharedCounter: a limit every portal process counts together (issue 36)', () => {
	it('is exact within a process, learns the other processes’ hits at each sync, and starts over with the window', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'kportal-counter-')), 'portal.sqlite')
		const start = Date.parse('2026-11-20T12:00:00Z')
		const a = new SharedCounter(await createTestDb(file), 'test', 60_000, 10, start)
		const b = new SharedCounter(await createTestDb(file), 'test', 60_000, 10, start)
		const hits = (counter: SharedCounter, n: number, at: number) => Array.from({ length: n }, () => counter.hit('empresa', at))
		// Within one process, the 11th hit of the window is refused, whatever the others did.
		expect(hits(a, 11, start).filter(Boolean)).toHaveLength(1)
		// B has not heard of A's hits yet; once both synced, B's next hit is over the limit.
		expect(b.hit('empresa', start + 1_000)).toBe(false)
		await a.sync(start + 1_000)
		await b.sync(start + 1_000)
		expect(b.hit('empresa', start + 1_500)).toBe(true)
		// Another key, and the next window, start from zero.
		expect(b.hit('outra', start + 1_500)).toBe(false)
		expect(b.hit('empresa', start + 60_000)).toBe(false)
	})

	it('syncs by itself on a hit once its interval has passed', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'kportal-counter-')), 'portal.sqlite')
		const start = Date.parse('2026-11-20T12:00:00Z')
		const a = new SharedCounter(await createTestDb(file), 'test', 60_000, 5, start, 1_000)
		const b = new SharedCounter(await createTestDb(file), 'test', 60_000, 5, start, 1_000)
		for (let i = 0; i < 5; i++) a.hit('ip', start + 1_000)
		await a.sync(start + 1_000)
		// B's first hit after its interval starts a sync; the hit after it knows A's five.
		expect(b.hit('ip', start + 1_100)).toBe(false)
		await b.sync(start + 1_100)
		expect(b.hit('ip', start + 1_200)).toBe(true)
	})

	it('shares a key only once this process counted a tenth of the limit for it: ordinary traffic writes nothing', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'kportal-counter-')), 'portal.sqlite')
		const start = Date.parse('2026-11-20T12:00:00Z')
		const db = await createTestDb(file)
		const a = new SharedCounter(db, 'test', 60_000, 120, start)
		const b = new SharedCounter(await createTestDb(file), 'test', 60_000, 120, start)
		// Eleven hits of one company here (under twelve, a tenth of 120), and a hundred and nine of it on B.
		for (let i = 0; i < 11; i++) a.hit('quieta', start)
		await a.sync(start + 2_000)
		expect(await db.select().from(rateCounts)).toEqual([])
		for (let i = 0; i < 109; i++) b.hit('quieta', start)
		await b.sync(start + 2_000)
		// The twelfth hit on A makes it share: its count and B's add up to 121, over the limit.
		expect(a.hit('quieta', start + 2_100)).toBe(false)
		await a.sync(start + 4_000)
		expect((await db.select().from(rateCounts)).map((r) => r.hits)).toEqual([121])
		expect(a.hit('quieta', start + 4_100)).toBe(true)
	})
})
