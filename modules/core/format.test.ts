import { describe, expect, it } from 'bun:test'
import {
	formatDate,
	formatDateOf,
	formatDateTime,
	formatMoney,
	formatNumber,
	formatReais,
	formatRelative,
	initials,
	isoDateInSaoPaulo
} from './format'

describe('pt-BR formats', () => {
	it('formats money from centavos', () => {
		expect(formatMoney(123456).replace(/\s/g, ' ')).toBe('R$ 1.234,56')
		expect(formatMoney(0).replace(/\s/g, ' ')).toBe('R$ 0,00')
	})

	it('formats money from reais and plain numbers', () => {
		expect(formatReais(1234.5).replace(/\s/g, ' ')).toBe('R$ 1.234,50')
		expect(formatNumber(1234567.5)).toBe('1.234.567,5')
		expect(formatNumber(42)).toBe('42')
	})

	it('formats dates and falls back for empty ones', () => {
		expect(formatDate('2026-03-09')).toBe('09/03/2026')
		expect(formatDate(null)).toBe('Não definida')
	})

	it('shows instants in Brazil time', () => {
		expect(formatDateTime('2026-11-21T02:30:00.000Z')).toBe('20/11/2026 23:30')
		expect(isoDateInSaoPaulo(new Date('2026-11-21T02:30:00.000Z'))).toBe('2026-11-20')
		expect(formatDateOf('2026-11-21T02:30:00.000Z')).toBe('20/11/2026')
	})

	it('words relative times as the notifications do', () => {
		const now = new Date('2026-11-20T12:00:00Z')
		expect(formatRelative('2026-11-20T11:59:30Z', now)).toBe('agora')
		expect(formatRelative('2026-11-20T11:45:00Z', now)).toBe('há 15 min')
		expect(formatRelative('2026-11-20T09:00:00Z', now)).toBe('há 3h')
		expect(formatRelative('2026-11-17T12:00:00Z', now)).toBe('há 3 dias')
	})

	it('takes initials from the first and last names', () => {
		expect(initials('Maria da Silva')).toBe('MS')
		expect(initials('admin')).toBe('A')
	})
})

describe('the formats of the settings (issue 14, point 6)', () => {
	it('shows dates in the configured order and money in the configured currency, then returns to Brazil’s', async () => {
		const { setDisplayFormats } = await import('./format')
		try {
			setDisplayFormats({ dateFormat: 'MM/DD/YYYY', currency: 'USD', timeZone: 'America/New_York' })
			expect(formatDate('2026-03-09')).toBe('03/09/2026')
			expect(formatMoney(123456).replace(/\s/g, ' ')).toBe('US$ 1.234,56')
			expect(formatDateTime('2026-11-21T02:30:00.000Z')).toBe('11/20/2026 21:30')
			expect(formatDateOf('2026-11-21T02:30:00.000Z')).toBe('11/20/2026')
			setDisplayFormats({ dateFormat: 'YYYY-MM-DD', currency: 'EUR', timeZone: 'Europe/London' })
			expect(formatDate('2026-03-09')).toBe('2026-03-09')
			expect(formatReais(10).replace(/\s/g, ' ')).toBe('€ 10,00')
			expect(formatDateTime('2026-11-21T02:30:00.000Z')).toBe('2026-11-21 02:30')
			// Unknown values keep Brazil's.
			setDisplayFormats({ dateFormat: 'DD.MM.YY', currency: 'BTC', timeZone: 'Mars/Olympus' })
			expect(formatDate('2026-03-09')).toBe('09/03/2026')
			expect(formatMoney(100).replace(/\s/g, ' ')).toBe('R$ 1,00')
		} finally {
			setDisplayFormats(null)
		}
		expect(formatDateTime('2026-11-21T02:30:00.000Z')).toBe('20/11/2026 23:30')
		// Business dates stay Brazil's whatever the display.
		expect(isoDateInSaoPaulo(new Date('2026-11-21T02:30:00.000Z'))).toBe('2026-11-20')
	})
})
