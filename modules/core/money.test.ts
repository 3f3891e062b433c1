import { describe, expect, it } from 'bun:test'
import { moneyText, parseMoneyText } from './money'

describe('money inputs (issue 14, point 9)', () => {
	it('show reais with the decimal comma and two decimals', () => {
		expect(moneyText(149.9)).toBe('149,90')
		expect(moneyText('50.00')).toBe('50,00')
		expect(moneyText(0)).toBe('0,00')
		expect(moneyText(1234.5)).toBe('1234,50')
		expect(moneyText(null)).toBe('')
	})

	it('read what a person types, Brazilian or not', () => {
		expect(parseMoneyText('149,90')).toBe(149.9)
		expect(parseMoneyText('1.234,56')).toBe(1234.56)
		expect(parseMoneyText('R$ 10')).toBe(10)
		expect(parseMoneyText('149.9')).toBe(149.9)
		expect(parseMoneyText('')).toBeNull()
		expect(parseMoneyText('dez')).toBeNaN()
		expect(parseMoneyText('1,2,3')).toBeNaN()
	})
})
