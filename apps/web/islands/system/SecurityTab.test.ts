import { describe, expect, it } from 'bun:test'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { LOGIN_LIMITS } from '../../../../modules/core'
import { SecurityPolicyCard } from './SecurityTab'

describe('the Segurança tab says what the server enforces (issue 13, point 7)', () => {
	it('shows the real password rules and sign-in limits, not the display-only defaults it never applied', () => {
		const text = renderToStaticMarkup(createElement(SecurityPolicyCard)).replace(/<[^>]+>/g, ' ')
		expect(text).toContain('6 caracteres')
		expect(text).toContain('Senhas mais usadas e sequências')
		expect(text).toContain('O próprio CNPJ como senha')
		expect(text).toContain(`${LOGIN_LIMITS.perAccountAndAddress} falhas`)
		expect(text).toContain(`${LOGIN_LIMITS.perAddress} falhas`)
		expect(text).toContain('de 1 s a 5 min')
		for (const never of ['8 caracteres', 'a cada 90 dias', 'Exigir letra maiúscula', 'Tempo de bloqueio']) expect(text).not.toContain(never)
	})
})
