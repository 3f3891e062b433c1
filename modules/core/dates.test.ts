import { describe, expect, it } from 'bun:test'
import { oneMonthBefore } from './dates'

describe('oneMonthBefore', () => {
	it('is the same day a month earlier, or the earlier month’s last day when it is shorter', () => {
		const cases: [string, string][] = [
			['2026-11-20', '2026-10-20'],
			['2026-03-31', '2026-02-28'],
			['2028-03-30', '2028-02-29'],
			['2026-05-31', '2026-04-30'],
			['2027-01-15', '2026-12-15'],
			['2027-01-31', '2026-12-31']
		]
		for (const [day, before] of cases) expect(oneMonthBefore(day), day).toBe(before)
	})
})
