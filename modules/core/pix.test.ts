import { describe, expect, it } from 'bun:test'
import { PIX_KEY_INVALID, PIX_KEY_REQUIRED, classifyPixKey, pixKeyHint } from './pix'

const type = (key: string) => {
	const c = classifyPixKey(key)
	return c.valid ? c.type : 'invalida'
}

describe('classifyPixKey (3-billing-messaging §5)', () => {
	it('requires a key', () => {
		expect(classifyPixKey('')).toEqual({ valid: false, message: PIX_KEY_REQUIRED })
		expect(classifyPixKey('   ')).toEqual({ valid: false, message: PIX_KEY_REQUIRED })
	})

	it('reads an e-mail and shows it in lowercase', () => {
		expect(classifyPixKey(' Financeiro@KSistemas.com.br ')).toEqual({
			valid: true,
			type: 'email',
			label: 'E-mail',
			formatted: 'financeiro@ksistemas.com.br'
		})
		expect(type('a@b')).toBe('invalida')
	})

	it('accepts a CPF only with its check digits, refusing all-equal digits', () => {
		expect(classifyPixKey('529.982.247-25')).toMatchObject({ valid: true, type: 'cpf', formatted: '529.982.247-25' })
		expect(type('52998224725')).toBe('cpf')
		expect(type('529.982.247-26')).toBe('invalida')
		expect(type('111.111.111-11')).toBe('invalida')
		expect(type('11111111111')).toBe('invalida')
	})

	it('accepts a CNPJ (numeric or alphanumeric) only with its check digits, refusing all-equal digits', () => {
		expect(classifyPixKey('11.222.333/0001-81')).toMatchObject({ valid: true, type: 'cnpj', formatted: '11.222.333/0001-81' })
		expect(type('11222333000181')).toBe('cnpj')
		expect(type('11222333000182')).toBe('invalida')
		expect(type('00000000000000')).toBe('invalida')
		expect(type('12.ABC.345/01DE-35')).toBe('cnpj')
	})

	it('reads Brazilian phones with or without +55 and formats them', () => {
		expect(classifyPixKey('+55 85 99999-0001')).toMatchObject({ valid: true, type: 'telefone', formatted: '+55 (85) 99999-0001' })
		expect(type('(85) 99999-0001')).toBe('telefone')
		expect(type('5585999990001')).toBe('telefone')
		expect(type('8533334444')).toBe('telefone')
		expect(type('85 1234')).toBe('invalida')
	})

	it('takes UUIDs, 32 hex characters and any string of 8 or more characters as a random key', () => {
		expect(classifyPixKey('123E4567-E89B-12D3-A456-426614174000')).toMatchObject({
			type: 'aleatoria',
			label: 'Chave aleatória',
			formatted: '123e4567-e89b-12d3-a456-426614174000'
		})
		expect(type('0123456789abcdef0123456789ABCDEF')).toBe('aleatoria')
		expect(type('chave-k-sistemas')).toBe('aleatoria')
		expect(type('abc1234')).toBe('invalida')
	})

	it('words the hints as the spec does', () => {
		expect(pixKeyHint(classifyPixKey('11222333000181'))).toBe('✓ Chave PIX válida (CNPJ): 11.222.333/0001-81')
		expect(pixKeyHint(classifyPixKey('x'))).toBe('✗ Formato inválido. Use CPF, CNPJ, email, telefone ou chave aleatória.')
		expect(classifyPixKey('x')).toEqual({ valid: false, message: PIX_KEY_INVALID })
	})
})
