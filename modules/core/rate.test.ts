import { describe, expect, it } from 'bun:test'
import { SlidingWindow } from './rate'

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
