import { describe, expect, it } from 'bun:test'
import { ChangePasswordBody } from '../../../../modules/users/model'
import { fieldErrors } from '../../lib/form'
import { confirmationError } from './ChangePasswordDialog'

describe('Alterar Senha checks (2-administration §5.6), every field at once', () => {
	it('asks for every field, a matching confirmation and 6 characters, each beside its field', () => {
		const errors = (current: string, next: string, confirm: string) => ({
			...fieldErrors(ChangePasswordBody, { currentPassword: current, newPassword: next || undefined }),
			...confirmationError(next, confirm)
		})
		expect(errors('', '', '')).toEqual({
			currentPassword: 'Todos os campos são obrigatórios',
			newPassword: 'Senha é obrigatória.',
			confirm: 'Todos os campos são obrigatórios'
		})
		expect(errors('atual', 'Ab3kz9q', 'Ab3kz9r')).toEqual({ confirm: 'A nova senha e confirmação não coincidem' })
		expect(errors('atual', 'abc', 'abc')).toEqual({ newPassword: 'A nova senha deve ter pelo menos 6 caracteres' })
		expect(errors('atual', 'Ab3kz9q', 'Ab3kz9q')).toEqual({})
	})
})
