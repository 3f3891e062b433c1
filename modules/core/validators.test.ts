import { describe, expect, it } from 'bun:test'
import { readCalendarDate } from './index'

describe('readCalendarDate (issue 33, point 11: dates read back from Asaas)', () => {
	it('keeps a real calendar date written YYYY-MM-DD and nothing else', () => {
		const rows: [unknown, string | null][] = [
			['2026-12-10', '2026-12-10'],
			['2028-02-29', '2028-02-29'],
			['2026-02-29', null],
			['2026-02-30', null],
			['2026-13-01', null],
			['2026-2-3', null],
			['2026-02-03T00:00:00Z', null],
			['20260203', null],
			[' 2026-02-03', null],
			['+02026-02-03', null],
			['\u00002026-02-03', null],
			[null, null],
			[undefined, null],
			[20260203, null],
			[['2026-02-03'], null]
		]
		for (const [value, expected] of rows) expect({ value, read: readCalendarDate(value) }).toEqual({ value, read: expected })
	})
})
