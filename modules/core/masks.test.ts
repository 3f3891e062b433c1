import { describe, expect, it } from 'bun:test'
import { formatPhone, maskCep, maskMac, maskPhone } from './masks'

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
})

