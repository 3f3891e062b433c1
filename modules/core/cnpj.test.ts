import { describe, expect, it } from 'bun:test'
import { completeCnpj, formatCnpj, isValidCnpj, maskCnpj, normalizeCnpj } from './cnpj'

describe('isValidCnpj', () => {
	it.each([
		['11.222.333/0001-81', true, 'numeric, with the mask'],
		['11222333000181', true, 'numeric, without the mask'],
		['45997418000153', true, 'numeric, without the mask'],
		['12ABC34501DE35', true, 'alphanumeric'],
		['12.abc.345/01de-35', true, 'alphanumeric, lowercase and with the mask'],
		['11222333000182', false, 'a wrong check digit'],
		['11222333000191', false, 'wrong check digits'],
		['12ABC34501DE36', false, 'a wrong check digit'],
		['12ABC34501DF35', false, 'a changed letter'],
		['1122233300018', false, 'too short'],
		['112223330001811', false, 'too long'],
		['12ABC34501DEA5', false, 'a letter in the check digits'],
		['00000000000000', false, 'repeated digits'],
		['11111111111111', false, 'repeated digits'],
		['', false, 'empty']
	])('%p is %p (%s)', (cnpj, valid) => expect(isValidCnpj(cnpj)).toBe(valid))
})

describe('normalizeCnpj and the mask', () => {
	it('strips punctuation and uppercases', () => {
		expect(normalizeCnpj(' 12.abc.345/01de-35 ')).toBe('12ABC34501DE35')
	})

	it.each([
		['1122', '11.22'],
		['11222333', '11.222.333'],
		['112223330001', '11.222.333/0001'],
		['11222333000181999', '11.222.333/0001-81'],
		['12abc34501de35', '12.ABC.345/01DE-35'],
		['12ABC34501DEX3', '12.ABC.345/01DE-3']
	])('masks %p while typing as %p (at most 18 characters, no letters in the check digits)', (typed, masked) =>
		expect(maskCnpj(typed)).toBe(masked)
	)

	it('formats a whole CNPJ in 18 characters', () => {
		expect(formatCnpj('11222333000181').length).toBe(18)
	})
})

describe('completeCnpj', () => {
	it('computes the check digits of a base, numeric or alphanumeric', () => {
		expect(completeCnpj('112223330001')).toBe('11222333000181')
		expect(completeCnpj('12ABC34501DE')).toBe('12ABC34501DE35')
		expect(isValidCnpj(completeCnpj('ZZ9ABC000001'))).toBe(true)
	})
})
