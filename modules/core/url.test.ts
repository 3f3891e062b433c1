import { describe, expect, it } from 'bun:test'
import { isHttpUrl } from './url'

describe('isHttpUrl', () => {
	it('accepts absolute http and https addresses only', () => {
		expect(isHttpUrl('https://exemplo.com.br/pagar')).toBe(true)
		expect(isHttpUrl('http://10.0.0.1:8080')).toBe(true)
		expect(isHttpUrl('ftp://exemplo.com.br')).toBe(false)
		expect(isHttpUrl('javascript:alert(1)')).toBe(false)
		expect(isHttpUrl('exemplo.com.br')).toBe(false)
		expect(isHttpUrl('')).toBe(false)
	})
})
