import { describe, expect, it } from 'bun:test'
import { completeCnpj, formatCnpj, isValidCnpj, maskCnpj, normalizeCnpj } from './cnpj'

describe('isValidCnpj', () => {
	it('accepts numeric CNPJs with or without the mask', () => {
		expect(isValidCnpj('11.222.333/0001-81')).toBe(true)
		expect(isValidCnpj('11222333000181')).toBe(true)
		expect(isValidCnpj('45997418000153')).toBe(true)
	})

	it('accepts the alphanumeric CNPJ, in any case and with the mask', () => {
		expect(isValidCnpj('12ABC34501DE35')).toBe(true)
		expect(isValidCnpj('12.abc.345/01de-35')).toBe(true)
	})

	it('rejects wrong check digits', () => {
		expect(isValidCnpj('11222333000182')).toBe(false)
		expect(isValidCnpj('11222333000191')).toBe(false)
		expect(isValidCnpj('12ABC34501DE36')).toBe(false)
		expect(isValidCnpj('12ABC34501DF35')).toBe(false)
	})

	it('rejects wrong lengths, letters in the check digits and repeated digits', () => {
		expect(isValidCnpj('1122233300018')).toBe(false)
		expect(isValidCnpj('112223330001811')).toBe(false)
		expect(isValidCnpj('12ABC34501DEA5')).toBe(false)
		expect(isValidCnpj('00000000000000')).toBe(false)
		expect(isValidCnpj('11111111111111')).toBe(false)
		expect(isValidCnpj('')).toBe(false)
	})
})

describe('normalizeCnpj and the mask', () => {
	it('strips punctuation and uppercases', () => {
		expect(normalizeCnpj(' 12.abc.345/01de-35 ')).toBe('12ABC34501DE35')
	})

	it('masks while typing and caps at 18 characters', () => {
		expect(maskCnpj('1122')).toBe('11.22')
		expect(maskCnpj('11222333')).toBe('11.222.333')
		expect(maskCnpj('112223330001')).toBe('11.222.333/0001')
		expect(maskCnpj('11222333000181999')).toBe('11.222.333/0001-81')
		expect(maskCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35')
		expect(formatCnpj('11222333000181').length).toBe(18)
	})

	it('keeps letters out of the check-digit positions', () => {
		expect(maskCnpj('12ABC34501DEX3')).toBe('12.ABC.345/01DE-3')
	})
})

describe('completeCnpj', () => {
	it('computes the check digits of a base, numeric or alphanumeric', () => {
		expect(completeCnpj('112223330001')).toBe('11222333000181')
		expect(completeCnpj('12ABC34501DE')).toBe('12ABC34501DE35')
		expect(isValidCnpj(completeCnpj('ZZ9ABC000001'))).toBe(true)
	})
})
