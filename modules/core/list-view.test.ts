import { describe, expect, it } from 'bun:test'
import {
	changeParams,
	defaultParams,
	firstPageRead,
	ISO_DATE,
	listRead,
	listReadUrl,
	readParams,
	toggleSort,
	writeParams
} from './list-view'

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

	it("hands a list's read only a view the list offers, and gives the server the address the island asks (issue 38)", () => {
		const read = listRead(
			'GET /api/companies',
			{ sorts: ['razao', 'cnpj'], filters: { status: { values: ['todas', 'ativas'], default: 'todas' }, inicio: { test: ISO_DATE } } },
			(view) => ({
				page: view.page,
				search: view.search,
				status: view.filters.status,
				inicio: view.filters.inicio || undefined,
				sort: view.sort
			})
		)
		// A view changed on screen to a column or a value the list does not offer reaches the query as the default.
		const offTheList = { ...defaultParams(read.spec), page: 2, sort: 'senha', filters: { status: 'todas-as-coisas', inicio: 'ontem' } }
		expect(read.query(offTheList)).toEqual({ page: 2, search: '', status: 'todas', inicio: undefined, sort: 'razao' })
		expect(listReadUrl(read, new URLSearchParams('page=3&search=Pad&status=ativas&sort=cnpj&inicio=2026-01-02&outra=1'))).toBe(
			'/api/companies?page=3&search=Pad&status=ativas&inicio=2026-01-02&sort=cnpj'
		)
		expect(listReadUrl(firstPageRead(read), new URLSearchParams('page=3&sort=senha'))).toBe('/api/companies?page=1&status=todas&sort=razao')
	})
})
