import { describe, expect, it } from 'bun:test'
import { passwordChangeError } from './ChangePasswordDialog'

describe('Alterar Senha checks (2-administration §5.6)', () => {
	it('asks for every field, then a matching confirmation, then 6 characters', () => {
		expect(passwordChangeError('', 'abcdef', 'abcdef')).toBe('Todos os campos são obrigatórios')
		expect(passwordChangeError('atual', '', '')).toBe('Todos os campos são obrigatórios')
		expect(passwordChangeError('atual', 'abcdef', 'abcdeg')).toBe('A nova senha e confirmação não coincidem')
		expect(passwordChangeError('atual', 'abc', 'abc')).toBe('A nova senha deve ter pelo menos 6 caracteres')
		expect(passwordChangeError('atual', 'abcdef', 'abcdef')).toBeNull()
	})
})
