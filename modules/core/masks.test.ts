import { describe, expect, it } from 'bun:test'
import { brDateToIso, formatPhone, maskCep, maskDate, maskMac, maskPhone } from './masks'

// What each mask makes of what is typed: CEP, phones (a leading 55 kept out, capped), MAC addresses, dd/mm/aaaa dates,
// and the dates read back (only real ones).
const CASES: [string, (typed: string) => string | null, [string, string | null][]][] = [
	[
		'maskCep',
		maskCep,
		[
			['60000', '60000'],
			['600001234567', '60000-123'],
			['60.000-0001', '60000-000']
		]
	],
	[
		'maskPhone',
		maskPhone,
		[
			['85', '(85'],
			['8533334444', '(85) 3333-4444'],
			['85999998888', '(85) 99999-8888'],
			['', ''],
			['853', '(85) 3'],
			['5585999990000', '(85) 99999-0000'],
			['(85) 99999-00001234', '(85) 99999-0000']
		]
	],
	['formatPhone', formatPhone, [['5585999998888', '(85) 99999-8888']]],
	[
		'maskMac',
		maskMac,
		[
			['001a2b3c4d5e77', '00:1A:2B:3C:4D:5E'],
			['00-1a', '00:1A']
		]
	],
	[
		'maskDate',
		maskDate,
		[
			['3', '3'],
			['311', '31/1'],
			['31122', '31/12/2'],
			['31122030', '31/12/2030'],
			['31/12/20301', '31/12/2030'],
			['a1b2', '12']
		]
	],
	[
		'brDateToIso',
		brDateToIso,
		[
			['31/12/2030', '2030-12-31'],
			['29/02/2028', '2028-02-29'],
			['29/02/2027', null],
			['31/04/2030', null],
			['31/12/203', null],
			['', null],
			['2030-12-31', null]
		]
	]
]

describe('input masks', () => {
	for (const [name, mask, rows] of CASES) {
		it.each(rows)(`${name}(%p) is %p`, (typed, expected) => expect(mask(typed)).toBe(expected))
	}
})
