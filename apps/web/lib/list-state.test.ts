import { describe, expect, it } from 'bun:test'
import { changeParams, defaultParams, ISO_DATE, readParams, toggleSort, writeParams } from './list-state'

const spec = {
	sorts: ['razao', 'cnpj', 'validade_licenca'],
	filters: { status: { values: ['todas', 'ativas', 'expiradas'], default: 'todas' }, inicio: { test: ISO_DATE } }
}

describe('the list view in the address (issue 14)', () => {
	it('reads what the list offers and keeps the default for anything else', () => {
		const read = (q: string) => readParams(spec, new URLSearchParams(q))
		expect(read('')).toEqual(defaultParams(spec))
		expect(read('search=Pad&status=ativas&sort=cnpj&order=desc&page=3&limit=50&inicio=2026-01-02')).toEqual({
			page: 3,
			limit: 50,
			search: 'Pad',
			sort: 'cnpj',
			order: 'desc',
			filters: { status: 'ativas', inicio: '2026-01-02' }
		})
		expect(read('status=todas-as-coisas&sort=senha&order=up&page=-1&limit=5000&inicio=ontem')).toEqual(defaultParams(spec))
		expect(read('page=1.5&limit=abc').page).toBe(1)
	})

	it('writes only what differs from the defaults, and leaves other parameters alone', () => {
		const query = new URLSearchParams('outra=1&page=9')
		writeParams(spec, { ...defaultParams(spec), search: ' Pad ', sort: 'cnpj', filters: { status: 'todas', inicio: '' } }, query)
		expect(query.toString()).toBe('outra=1&search=Pad&sort=cnpj')
		const round = readParams(spec, writeParams(spec, { ...defaultParams(spec), page: 2, limit: 10, order: 'desc' }, new URLSearchParams()))
		expect(round).toMatchObject({ page: 2, limit: 10, order: 'desc' })
	})

	it('keeps two lists of one page apart by a prefix', () => {
		const lotes = { prefix: 'lotes.', sorts: ['id', 'valor'], order: 'desc' as const }
		const query = new URLSearchParams('page=4')
		writeParams(lotes, { ...defaultParams(lotes), page: 2, sort: 'valor' }, query)
		expect(query.toString()).toBe('page=4&lotes.sort=valor&lotes.page=2')
		expect(readParams(lotes, query)).toMatchObject({ page: 2, sort: 'valor', order: 'desc' })
	})

	it('starts a new view at page 1, and flips the direction of the same column', () => {
		const at3 = { ...defaultParams(spec), page: 3 }
		expect(changeParams(at3, { search: 'x' }).page).toBe(1)
		expect(changeParams(at3, { filters: { status: 'ativas' } })).toMatchObject({ page: 1, filters: { status: 'ativas', inicio: '' } })
		expect(changeParams(at3, { page: 4 }).page).toBe(4)
		expect(toggleSort(at3, 'razao')).toEqual({ sort: 'razao', order: 'desc' })
		expect(toggleSort({ ...at3, order: 'desc' }, 'razao')).toEqual({ sort: 'razao', order: 'asc' })
		expect(toggleSort({ ...at3, order: 'desc' }, 'cnpj')).toEqual({ sort: 'cnpj', order: 'asc' })
	})
})
