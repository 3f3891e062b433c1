import { describe, expect, it } from 'bun:test'
import { brDateToIso, formatPhone, maskCep, maskDate, maskMac, maskPhone } from './masks'

describe('input masks', () => {
	it('masks CEP, phones and MAC addresses as typed', () => {
		expect(maskCep('60000')).toBe('60000')
		expect(maskCep('600001234567')).toBe('60000-123')
		expect(maskPhone('85')).toBe('(85')
		expect(maskPhone('8533334444')).toBe('(85) 3333-4444')
		expect(maskPhone('85999998888')).toBe('(85) 99999-8888')
		expect(maskMac('001a2b3c4d5e77')).toBe('00:1A:2B:3C:4D:5E')
		expect(maskMac('00-1a')).toBe('00:1A')
		expect(formatPhone('5585999998888')).toBe('(85) 99999-8888')
	})

	it('keeps a leading 55 out of the phone mask and caps what is typed', () => {
		expect(maskPhone('')).toBe('')
		expect(maskPhone('853')).toBe('(85) 3')
		expect(maskPhone('5585999990000')).toBe('(85) 99999-0000')
		expect(maskPhone('(85) 99999-00001234')).toBe('(85) 99999-0000')
		expect(maskCep('60.000-0001')).toBe('60000-000')
	})

	it('masks dates as dd/mm/aaaa and reads back only real ones', () => {
		expect(['3', '311', '31122', '31122030', '31/12/20301', 'a1b2'].map(maskDate)).toEqual([
			'3',
			'31/1',
			'31/12/2',
			'31/12/2030',
			'31/12/2030',
			'12'
		])
		expect(brDateToIso('31/12/2030')).toBe('2030-12-31')
		expect(brDateToIso('29/02/2028')).toBe('2028-02-29')
		expect(['29/02/2027', '31/04/2030', '31/12/203', '', '2030-12-31'].map(brDateToIso)).toEqual([null, null, null, null, null])
	})
})
