import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type SortOrder } from './list'
import { routeKeyUrl } from './url'

/** A list's filter: the values it may take (a select) or a test (a date), and its default. */
export interface FilterSpec<V extends string = string> {
	values?: readonly V[]
	test?: (value: V) => boolean
	default?: V
}

/**
 * The view of a list as it lives in the page's address (issue 14): search, filters, sort column and direction,
 * page and page size, so a view can be bookmarked, shared and survives a reload. Only what differs from the
 * list's defaults is written; whatever the address holds is checked against what the list offers (a hand-edited
 * or old address falls back to the default, never to a refused request).
 */
export interface ListSpec<S extends string = string, F extends Record<string, string> = Record<string, string>> {
	/** Parameter prefix of a second list on the same page ('lotes.' → lotes.page=2). */
	prefix?: string
	limit?: number
	/** The sort columns the API offers, the default first; none: the list is not sortable. */
	sorts?: readonly S[]
	order?: SortOrder
	/** The list's filters, by name. */
	filters?: { [K in keyof F]: FilterSpec<F[K]> }
}

export interface ListParams<S extends string = string, F extends Record<string, string> = Record<string, string>> {
	page: number
	limit: number
	search: string
	sort: S
	order: SortOrder
	/** The filters, by name. */
	filters: F
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
	out.sort = get('sort') ?? out.sort
	const order = get('order')
	if (order === 'asc' || order === 'desc') out.order = order
	for (const key of Object.keys(spec.filters ?? {})) out.filters[key] = get(key) ?? out.filters[key]
	return offeredParams(spec, out)
}

/** The view with a sort column or a filter value the list does not offer put back to its default. */
export function offeredParams<S extends string, F extends Record<string, string>>(
	spec: ListSpec<S, F>,
	params: ListParams
): ListParams<S, F> {
	const plain = spec as ListSpec
	const defaults = defaultParams(plain)
	const offers = (values: readonly string[] | undefined, value: string) => values?.includes(value) ?? false
	const filters = { ...defaults.filters }
	for (const [key, filter] of Object.entries(plain.filters ?? {})) {
		const value = params.filters[key]
		if (value !== undefined && (filter.values ? offers(filter.values, value) : filter.test ? filter.test(value) : true))
			filters[key] = value
	}
	const sort = offers(plain.sorts, params.sort) ? params.sort : defaults.sort
	// What it checked above is what the two types say: the sort is one the spec lists, each filter one its spec takes.
	return { ...params, sort, filters } as ListParams<S, F>
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

/**
 * A list's read as a plain description (no stores): the route, the view's spec, and how a view becomes the API's
 * query. The island builds its list from it (serverList, localList, infiniteList) and the server the same address
 * from the page's URL, so it can answer the read into the page before the island asks (issue 15). Declared in the
 * module that owns the route (its reads.ts), where its model takes the sort columns from.
 */
export interface ListRead<R extends string = string, Q = unknown> {
	route: R
	spec: ListSpec
	query: (params: ListParams) => Q
}

/**
 * Declares a list's read: `query` sees the view typed by the spec (a sort column of `sorts`, a filter value of its
 * `values`), and is only ever handed such a view.
 */
export function listRead<const R extends string, const S extends string, const F extends Record<string, string>, Q>(
	route: R,
	spec: ListSpec<S, F>,
	query: (view: ListParams<S, F>) => Q
): ListRead<R, Q> {
	return { route, spec: spec as ListSpec, query: (params) => query(offeredParams(spec, params)) }
}

/** An infinite list's read of its first page, whatever page the address names: what the island and the server ask. */
export function firstPageRead<R extends string, Q>(read: ListRead<R, Q>): ListRead<R, Q> {
	return { ...read, query: (params) => read.query({ ...params, page: 1 }) }
}

/** The address a list's first read goes to for a page opened at `search` (the key of the island's cache entry). */
export function listReadUrl(read: ListRead<string, object | undefined>, search: URLSearchParams): string {
	return routeKeyUrl(read.route, undefined, read.query(readParams(read.spec, search)) as Record<string, unknown> | undefined)
}
