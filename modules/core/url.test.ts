import { describe, expect, it } from 'bun:test'
import { isHttpUrl } from './url'

describe('isHttpUrl', () => {
	it.each([
		['https://exemplo.com.br/pagar', true],
		['http://10.0.0.1:8080', true],
		['ftp://exemplo.com.br', false],
		['javascript:alert(1)', false],
		['exemplo.com.br', false],
		['', false]
	])('%p is an absolute http(s) address: %p', (url, ok) => expect(isHttpUrl(url)).toBe(ok))
})
