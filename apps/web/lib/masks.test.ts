import { describe, expect, it } from 'bun:test'
import { passwordChangeError } from '../islands/auth/ChangePasswordDialog'
import { maskCep, maskPhone } from './masks'

describe('input masks', () => {
	it('masks landlines, mobiles and a leading 55 while typing', () => {
		expect(maskPhone('')).toBe('')
		expect(maskPhone('8')).toBe('(8')
		expect(maskPhone('853')).toBe('(85) 3')
		expect(maskPhone('8532221100')).toBe('(85) 3222-1100')
		expect(maskPhone('85999990000')).toBe('(85) 99999-0000')
		expect(maskPhone('5585999990000')).toBe('(85) 99999-0000')
		expect(maskPhone('(85) 99999-00001234')).toBe('(85) 99999-0000')
	})

	it('masks a CEP', () => {
		expect(maskCep('60000')).toBe('60000')
		expect(maskCep('60000000')).toBe('60000-000')
		expect(maskCep('60.000-0001')).toBe('60000-000')
	})
})

describe('Alterar Senha checks (2-administration §5.6)', () => {
	it('asks for every field, then a matching confirmation, then 6 characters', () => {
		expect(passwordChangeError('', 'abcdef', 'abcdef')).toBe('Todos os campos são obrigatórios')
		expect(passwordChangeError('atual', '', '')).toBe('Todos os campos são obrigatórios')
		expect(passwordChangeError('atual', 'abcdef', 'abcdeg')).toBe('A nova senha e confirmação não coincidem')
		expect(passwordChangeError('atual', 'abc', 'abc')).toBe('A nova senha deve ter pelo menos 6 caracteres')
		expect(passwordChangeError('atual', 'abcdef', 'abcdef')).toBeNull()
	})
})
