import { describe, expect, it } from 'bun:test'
import { activePercent, daysRemaining, systemBar } from './figures'
import { formatPercent } from '../../../../modules/core'

describe('dashboard figures (1-core §4)', () => {
	it('computes the active percentage with one decimal, 0 without companies', () => {
		expect(formatPercent(activePercent(2, 3))).toBe('66,7%')
		expect(formatPercent(activePercent(0, 0))).toBe('0,0%')
		expect(formatPercent(activePercent(42, 42))).toBe('100,0%')
	})
	it('gives 33 days per available credit, rounded down', () => {
		expect(daysRemaining(10)).toBe(330)
		expect(daysRemaining(0)).toBe(0)
	})
	it('draws each system bar as active / (active + blocked), 0 when both are 0', () => {
		expect(systemBar({ active: 3, blocked: 1 })).toBe(75)
		expect(systemBar({ active: 0, blocked: 0 })).toBe(0)
		expect(systemBar({ active: 0, blocked: 5 })).toBe(0)
	})
})
