import { describe, expect, it } from 'bun:test'
import { PIX_KEY_INVALID, PIX_KEY_REQUIRED, type PixKeyCheck, classifyPixKey, pixKeyHint } from './pix'

describe('classifyPixKey (3-billing-messaging §5)', () => {
	it.each<[string, PixKeyCheck]>([
		['', { valid: false, message: PIX_KEY_REQUIRED }],
		['   ', { valid: false, message: PIX_KEY_REQUIRED }],
		[' Financeiro@KSistemas.com.br ', { valid: true, type: 'email', label: 'E-mail', formatted: 'financeiro@ksistemas.com.br' }],
		['x', { valid: false, message: PIX_KEY_INVALID }]
	])('reads %p as exactly %p (a key is required; an e-mail is shown in lowercase)', (key, classified) =>
		expect(classifyPixKey(key)).toEqual(classified)
	)

	it.each([
		['529.982.247-25', { valid: true, type: 'cpf', formatted: '529.982.247-25' }],
		['11.222.333/0001-81', { valid: true, type: 'cnpj', formatted: '11.222.333/0001-81' }],
		['+55 85 99999-0001', { valid: true, type: 'telefone', formatted: '+55 (85) 99999-0001' }],
		[
			'123E4567-E89B-12D3-A456-426614174000',
			{ type: 'aleatoria', label: 'Chave aleatória', formatted: '123e4567-e89b-12d3-a456-426614174000' }
		]
	])('reads %p as %p, formatted', (key, classified) => expect(classifyPixKey(key)).toMatchObject(classified))

	// CPFs and CNPJs (numeric or alphanumeric) only with their check digits, never all-equal digits; Brazilian phones
	// with or without +55; a random key (EVP) only as a UUID or its 32 hex characters (issue 33, point 12: any string
	// of 8 or more was a key); nothing with a control or format character.
	it.each([
		['a@b', 'invalida'],
		['52998224725', 'cpf'],
		['529.982.247-26', 'invalida'],
		['111.111.111-11', 'invalida'],
		['11111111111', 'invalida'],
		['11222333000181', 'cnpj'],
		['11222333000182', 'invalida'],
		['00000000000000', 'invalida'],
		['12.ABC.345/01DE-35', 'cnpj'],
		['(85) 99999-0001', 'telefone'],
		['5585999990001', 'telefone'],
		['8533334444', 'telefone'],
		['85 1234', 'invalida'],
		['0123456789abcdef0123456789ABCDEF', 'aleatoria'],
		['chave-k-sistemas', 'invalida'],
		['abc1234', 'invalida'],
		['\u0000\u202e', 'invalida'],
		['123e4567-e89b-12d3-a456-426614174000\u202e', 'invalida'],
		['123e4567-e89b-12d3-a456-\u200b426614174000', 'invalida'],
		['financeiro\u0000@ksistemas.com.br', 'invalida'],
		['\u202efinanceiro@ksistemas.com.br', 'invalida'],
		['529.982.247-25\u2066', 'invalida']
	])('takes %p as a key of type %p', (key, type) => {
		const c = classifyPixKey(key)
		expect(c.valid ? c.type : 'invalida').toBe(type)
	})

	it('words the hints as the spec does', () => {
		expect(pixKeyHint(classifyPixKey('11222333000181'))).toBe('✓ Chave PIX válida (CNPJ): 11.222.333/0001-81')
		expect(pixKeyHint(classifyPixKey('x'))).toBe('✗ Formato inválido. Use CPF, CNPJ, email, telefone ou chave aleatória.')
	})
})
