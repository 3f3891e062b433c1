import { describe, expect, it } from 'bun:test'
import { oneMonthBefore } from './dates'

describe('oneMonthBefore', () => {
	it('keeps the day, or takes the shorter month’s last day', () => {
		expect(oneMonthBefore('2026-05-15')).toBe('2026-04-15')
		expect(oneMonthBefore('2026-03-31')).toBe('2026-02-28')
		expect(oneMonthBefore('2024-03-30')).toBe('2024-02-29')
		expect(oneMonthBefore('2026-07-31')).toBe('2026-06-30')
	})
	it('crosses into the year before', () => {
		expect(oneMonthBefore('2026-01-10')).toBe('2025-12-10')
	})
})
