import { describe, expect, it } from 'bun:test'
import { csvNumber, toCsv } from './csv'

describe('toCsv', () => {
	it('writes UTF-8 with BOM, semicolons, decimal commas and CRLF', () => {
		const csv = toCsv([
			['Mês', 'Créditos', 'Receita (R$)'],
			['2026-11', 12, csvNumber(591.5, 2)]
		])
		expect(csv.charCodeAt(0)).toBe(0xfeff)
		expect(csv.slice(1)).toBe('Mês;Créditos;Receita (R$)\r\n2026-11;12;591,50\r\n')
		expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]))
	})

	it('quotes separators, quotes and line breaks, and defuses formulas', () => {
		const csv = toCsv([['a;b', 'diz "oi"', 'linha\nnova', '=HYPERLINK("x")', -3.5, null]])
		expect(csv.slice(1)).toBe('"a;b";"diz ""oi""";"linha\nnova";"\'=HYPERLINK(""x"")";-3,5;\r\n')
	})
})
