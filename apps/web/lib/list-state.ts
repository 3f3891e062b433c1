import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type SortOrder } from '../../../modules/core'

/**
 * The view of a list as it lives in the page's address (issue 14): search, filters, sort column and direction,
 * page and page size, so a view can be bookmarked, shared and survives a reload. Only what differs from the
 * list's defaults is written; whatever the address holds is checked against what the list offers (a hand-edited
 * or old address falls back to the default, never to a refused request).
 */
export interface ListSpec {
	/** Parameter prefix of a second list on the same page ('lotes.' → lotes.page=2). */
	prefix?: string
	limit?: number
	/** The sort columns the API offers, the default first; none: the list is not sortable. */
	sorts?: readonly string[]
	order?: SortOrder
	/** The list's filters: the values each may take (a select) or a test (a date), and its default. */
	filters?: Record<string, { values?: readonly string[]; test?: (value: string) => boolean; default?: string }>
}

export interface ListParams {
	page: number
	limit: number
	search: string
	sort: string
	order: SortOrder
	/** The filters, by name. */
	filters: Record<string, string>
}

export const ISO_DATE = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value)

export function defaultParams(spec: ListSpec): ListParams {
	return {
		page: 1,
		limit: spec.limit ?? DEFAULT_PAGE_SIZE,
		search: '',
		sort: spec.sorts?.[0] ?? '',
		order: spec.order ?? 'asc',
		filters: Object.fromEntries(Object.entries(spec.filters ?? {}).map(([key, f]) => [key, f.default ?? '']))
	}
}

/** The list's view from an address's query (anything it does not offer is left at the default). */
export function readParams(spec: ListSpec, query: URLSearchParams): ListParams {
	const p = spec.prefix ?? ''
	const out = defaultParams(spec)
	const get = (key: string) => query.get(p + key)
	const page = Number(get('page'))
	if (Number.isInteger(page) && page >= 1 && page <= 1_000_000) out.page = page
	const limit = Number(get('limit'))
	if ((PAGE_SIZES as readonly number[]).includes(limit)) out.limit = limit
	const search = get('search')
	if (search) out.search = search.slice(0, 100)
	const sort = get('sort')
	if (sort && spec.sorts?.includes(sort)) out.sort = sort
	const order = get('order')
	if (order === 'asc' || order === 'desc') out.order = order
	for (const [key, filter] of Object.entries(spec.filters ?? {})) {
		const value = get(key)
		if (value === null) continue
		if (filter.values ? filter.values.includes(value) : filter.test ? filter.test(value) : true) out.filters[key] = value
	}
	return out
}

/** Writes the view into an address's query: what differs from the defaults, under the list's prefix; the rest removed. */
export function writeParams(spec: ListSpec, params: ListParams, query: URLSearchParams): URLSearchParams {
	const p = spec.prefix ?? ''
	const defaults = defaultParams(spec)
	const put = (key: string, value: string, fallback: string) => {
		if (value === fallback || value === '') query.delete(p + key)
		else query.set(p + key, value)
	}
	put('search', params.search.trim(), '')
	for (const key of Object.keys(spec.filters ?? {})) put(key, params.filters[key] ?? '', defaults.filters[key])
	put('sort', params.sort, defaults.sort)
	put('order', params.order, defaults.order)
	put('limit', String(params.limit), String(defaults.limit))
	put('page', String(params.page), '1')
	return query
}

/** A change of view: a new search, filter, order or page size starts again at page 1. */
export function changeParams(
	current: ListParams,
	patch: Partial<Omit<ListParams, 'filters'>> & { filters?: Record<string, string> }
): ListParams {
	const next: ListParams = { ...current, ...patch, filters: { ...current.filters, ...patch.filters } }
	if (patch.page === undefined) next.page = 1
	return next
}

/** A click on a column: the same column flips its direction, another one sorts by it going up. */
export function toggleSort(current: ListParams, column: string): Pick<ListParams, 'sort' | 'order'> {
	if (current.sort === column) return { sort: column, order: current.order === 'asc' ? 'desc' : 'asc' }
	return { sort: column, order: 'asc' }
}
