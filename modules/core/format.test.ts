import { describe, expect, it } from 'bun:test'
import {
	CURRENCIES,
	TIME_ZONES,
	formatBrDate,
	formatBrl,
	formatDate,
	formatDateOf,
	formatDateTime,
	formatMoney,
	formatNumber,
	formatPercent,
	formatReais,
	formatRelative,
	initials,
	isoDateInSaoPaulo,
	timeInSaoPaulo
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

describe('the formats written without Intl say what Intl says (issue 15)', () => {
	const samples = [
		0,
		-0,
		1,
		-1,
		0.5,
		0.05,
		0.005,
		0.0005,
		1.005,
		1.0005,
		2.675,
		12.25,
		12.35,
		99.995,
		999.9995,
		1234.5678,
		-1234.565,
		0.1 + 0.2,
		1e-7,
		123456789.123,
		9007199254740991,
		1e21,
		1.5e300,
		Number.NaN,
		Number.POSITIVE_INFINITY,
		-Number.MAX_VALUE
	]
	// Amounts of every size and up to 5 decimals, from a fixed sequence (the same on every run).
	let seed = 1
	const next = () => {
		seed = (seed * 48_271) % 2_147_483_647
		return seed / 2_147_483_647
	}
	for (let i = 0; i < 2_000; i++) samples.push(Math.round(next() * 10 ** (i % 12)) / 10 ** (i % 5), -next() * 10 ** (i % 9))

	it('numbers, percentages and money, value by value', async () => {
		const { setDisplayFormats } = await import('./format')
		const number = new Intl.NumberFormat('pt-BR')
		const percent = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
		for (const value of samples) {
			expect(formatNumber(value), `${value}`).toBe(number.format(value))
			expect(formatPercent(value), `${value}`).toBe(`${percent.format(value)}%`)
		}
		try {
			for (const currency of CURRENCIES) {
				setDisplayFormats({ currency })
				const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency })
				for (const value of samples) expect(formatReais(value), `${currency} ${value}`).toBe(money.format(value))
				for (const centavos of [0, 1, -1, 99, 123456, -123456, 10 ** 15]) expect(formatMoney(centavos)).toBe(money.format(centavos / 100))
			}
		} finally {
			setDisplayFormats(null)
		}
	})

	it('date-times in each time zone offered, every few hours for years and at each change of the clocks', async () => {
		const { setDisplayFormats } = await import('./format')
		const instants: Date[] = []
		for (let ms = Date.UTC(2017, 0, 1); ms < Date.UTC(2037, 0, 1); ms += 7 * 3_600_000 + 13 * 60_000) instants.push(new Date(ms))
		// Around each change (US: March and November; EU: March and October; Brazil's last, February 2019), minute by minute.
		for (const year of [2018, 2019, 2026, 2027, 2036])
			for (const [month, from, to] of [
				[1, 14, 19],
				[2, 7, 15],
				[2, 24, 32],
				[9, 24, 32],
				[10, 0, 8]
			])
				for (let ms = Date.UTC(year, month, from); ms < Date.UTC(year, month, to); ms += 30 * 60_000) instants.push(new Date(ms))
		try {
			for (const timeZone of TIME_ZONES) {
				setDisplayFormats({ timeZone })
				const intl = new Intl.DateTimeFormat('en-GB', {
					timeZone,
					day: '2-digit',
					month: '2-digit',
					year: 'numeric',
					hour: '2-digit',
					minute: '2-digit',
					hourCycle: 'h23'
				})
				for (const instant of instants) {
					const p = Object.fromEntries(intl.formatToParts(instant).map((x) => [x.type, x.value]))
					expect(formatDateTime(instant), `${timeZone} ${instant.toISOString()}`).toBe(
						`${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`
					)
				}
			}
		} finally {
			setDisplayFormats(null)
		}
		const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' })
		const time = new Intl.DateTimeFormat('pt-BR', {
			timeZone: 'America/Sao_Paulo',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hour12: false
		})
		for (const instant of instants) {
			expect(isoDateInSaoPaulo(instant)).toBe(date.format(instant))
			expect(timeInSaoPaulo(new Date(instant.getTime() + 17_000))).toBe(time.format(new Date(instant.getTime() + 17_000)))
		}
	})
})

describe('the fixed money of messages, logs and exports (issue 34, point 9)', () => {
	it('writes R$ 1.234,56 with the thousands dot and a plain space, whatever the display currency', async () => {
		const { setDisplayFormats } = await import('./format')
		expect(formatBrl(123456)).toBe('R$ 1.234,56')
		expect(formatBrl(100000000)).toBe('R$ 1.000.000,00')
		expect(formatBrl(14990)).toBe('R$ 149,90')
		expect(formatBrl(5)).toBe('R$ 0,05')
		expect(formatBrl(-123456)).toBe('-R$ 1.234,56')
		try {
			setDisplayFormats({ currency: 'USD' })
			expect(formatBrl(123456)).toBe('R$ 1.234,56')
		} finally {
			setDisplayFormats(null)
		}
	})
})

describe('one formatter per kind, at its edges (issue 38, point 5)', () => {
	it('money: the thousands dot at every size, the minus sign, centavos rounded half away from zero', () => {
		const plain = (text: string) => text.replace(/\u00a0/g, ' ')
		expect(formatBrl(99999)).toBe('R$ 999,99')
		expect(formatBrl(100000)).toBe('R$ 1.000,00')
		expect(formatBrl(123456789012)).toBe('R$ 1.234.567.890,12')
		expect(formatBrl(-100000)).toBe('-R$ 1.000,00')
		expect(formatBrl(-5)).toBe('-R$ 0,05')
		expect(formatBrl(-0)).toBe('R$ 0,00')
		expect(formatBrl(12345.5)).toBe('R$ 123,46')
		expect(formatBrl(12345.4)).toBe('R$ 123,45')
		expect(formatBrl(-12345.5)).toBe('-R$ 123,46')
		// Past the numbers JS writes without an exponent, Intl writes the digits: still Brazil's, with a plain space.
		expect(formatBrl(1e23)).toMatch(/^R\$ \d{3}(\.\d{3})+,00$/)
		expect(formatBrl(-1e23)).toMatch(/^-R\$ \d{3}(\.\d{3})+,00$/)
		expect(plain(formatMoney(-123456))).toBe('-R$ 1.234,56')
		expect(plain(formatReais(1.005))).toBe('R$ 1,01')
		expect(plain(formatReais(0.125))).toBe('R$ 0,13')
		expect(plain(formatReais(1234567.891))).toBe('R$ 1.234.567,89')
		// The screens keep the no-break space between symbol and digits, the texts a plain one.
		expect(formatMoney(100)).toBe('R$\u00a01,00')
		expect(formatBrl(100)).toBe('R$ 1,00')
	})

	it('dates: a time after the date is ignored, what is not a date is said (screens) or left empty (texts)', async () => {
		const { setDisplayFormats } = await import('./format')
		expect(formatDate('2026-03-09T23:59:59.000Z')).toBe('09/03/2026')
		expect(formatBrDate('2026-03-09T23:59:59.000Z')).toBe('09/03/2026')
		expect(formatBrDate('2026-03-09 10:00:00')).toBe('09/03/2026')
		expect(formatBrDate('2026-12-31')).toBe('31/12/2026')
		for (const none of [null, undefined, '', '09/03/2026', '2026-3-9']) {
			expect(formatBrDate(none)).toBe('')
			expect(formatDate(none)).toBe('Não definida')
		}
		try {
			setDisplayFormats({ dateFormat: 'YYYY-MM-DD' })
			expect(formatDate('2026-03-09')).toBe('2026-03-09')
			expect(formatBrDate('2026-03-09')).toBe('09/03/2026')
			setDisplayFormats({ dateFormat: 'MM/DD/YYYY' })
			expect(formatBrDate('2026-03-09T10:00:00Z')).toBe('09/03/2026')
		} finally {
			setDisplayFormats(null)
		}
	})

	it('date-times: the instant in Brazil time, midnight and the turn of the year included; none is empty', () => {
		expect(formatDateTime('2027-01-01T02:59:00.000Z')).toBe('31/12/2026 23:59')
		expect(formatDateTime('2027-01-01T03:00:00.000Z')).toBe('01/01/2027 00:00')
		expect(formatDateTime(new Date('2026-03-09T15:04:05.000Z'))).toBe('09/03/2026 12:04')
		expect(formatDateTime(null)).toBe('')
		expect(formatDateTime('')).toBe('')
	})
})
