import { describe, expect, it } from 'bun:test'
import { parcelStatusLabel } from './labels'

describe('a parcel whose money went back says so (issue 34, point 9)', () => {
	it('is Estornado when refunded, in the monitor and in the carnê, never Indefinido or Pendente', () => {
		for (const where of ['monitor', 'carne'] as const) {
			expect(parcelStatusLabel('REFUNDED', where)).toBe('Estornado')
			expect(parcelStatusLabel('REFUND_REQUESTED', where)).toBe('Estorno em andamento')
			expect(parcelStatusLabel('REFUND_IN_PROGRESS', where)).toBe('Estorno em andamento')
			expect(parcelStatusLabel('CHARGEBACK_REQUESTED', where)).toBe('Em disputa')
			expect(parcelStatusLabel('CHARGEBACK_DISPUTE', where)).toBe('Em disputa')
		}
		// What the portal does not know stays as the spec words it.
		expect(parcelStatusLabel('AWAITING_RISK_ANALYSIS')).toBe('Indefinido')
		expect(parcelStatusLabel('AWAITING_RISK_ANALYSIS', 'carne')).toBe('Pendente')
	})
})
