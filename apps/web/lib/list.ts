import type { CommonSettings } from '@nanostores/query'
import { type ReadableAtom, atom, computed } from 'nanostores'
import {
	type ListParams,
	type ListRead,
	type ListSpec,
	type PageInfo,
	changeParams,
	firstPageRead,
	pagination,
	readParams,
	writeParams
} from '../../../modules/core'
import { type ApiQuery, type ApiResponse, type GetRoute, call, routeRequest } from './api'
import { routeStore } from './query'

/** A list's read of one of the portal's routes (declared in the route's module): its query is the route's. */
export type RouteRead<K extends GetRoute> = ListRead<K, ApiQuery<K>>

/** What a list screen shows: the rows of the page, its paging, and whether it is loading or failed. */
export interface ListView<T> {
	rows: T[] | undefined
	page: PageInfo | undefined
	/** Nothing to show yet. */
	loading: boolean
	/** A new view is loading while the previous rows stay on screen. */
	refreshing: boolean
	error: unknown
}

/** The data behind one list screen (ListScreen): its view in the address, its rows, and how to export it. */
export interface ListSource<T> {
	spec: ListSpec
	$params: ReadableAtom<ListParams>
	$view: ReadableAtom<ListView<T>>
	/** A new search, filter, order or page size (back to page 1), or a page. */
	update(patch: Partial<Omit<ListParams, 'filters'>> & { filters?: Record<string, string> }): void
	retry(): void
	/** The address of the server's CSV export of the current view (large lists: streamed). */
	exportHref?: () => string
	/** Every row of the current view, for a CSV made in the browser (small lists held whole). */
	viewRows?: () => T[]
	/** A list that loads more as one scrolls (infiniteList) instead of showing pages. */
	more?: MoreSource
}

/** Where an infinite list stands: how many rows are on screen of how many, and whether the next page is coming. */
interface MoreState {
	loaded: number
	total: number
	hasNext: boolean
	loading: boolean
	error: unknown
}
export interface MoreSource {
	$state: ReadableAtom<MoreState>
	/** Reads the next page (nothing when one is already coming or there is none). */
	load(): void
}

/** The view's store: read from the address once, written back to it (replacing the entry) on every change. */
function paramsStore(spec: ListSpec) {
	const inBrowser = typeof window !== 'undefined'
	const $params = atom<ListParams>(readParams(spec, new URLSearchParams(inBrowser ? location.search : '')))
	if (inBrowser) {
		$params.listen((params) => {
			const url = new URL(location.href)
			writeParams(spec, params, url.searchParams)
			history.replaceState(history.state, '', url)
		})
	}
	return $params
}

/** Keeps the last rows on screen while the next page or view loads, instead of a skeleton flash. */
function withPrevious<V extends { loading: boolean; error?: unknown }, T>(
	$source: ReadableAtom<V>,
	read: (value: V) => { rows: T[]; page: PageInfo } | undefined
): ReadableAtom<ListView<T>> {
	let previous: { rows: T[]; page: PageInfo } | undefined
	return computed($source, (value) => {
		const current = read(value)
		if (current) previous = current
		const shown = current ?? (value.loading ? previous : undefined)
		const error = value.loading ? undefined : value.error
		return {
			rows: error ? undefined : shown?.rows,
			page: error ? undefined : shown?.page,
			loading: value.loading && !shown,
			// Dimmed while the previous rows stand in for another view, not while a live list reads its own again.
			refreshing: value.loading && !current && !!shown,
			error
		}
	})
}

/** The routes that answer a page of a list: every such answer carries its `pagination`. */
type PagedRoute = { [R in GetRoute]: ApiResponse<R> extends { pagination: PageInfo } ? R : never }[GetRoute]

/** The paging of a paged route's answer (PagedRoute holds that it has one). */
const pageOf = (data: unknown) => (data as { pagination: PageInfo }).pagination

/**
 * A list the server pages, filters and sorts (companies, terminals, credits, activities): the view goes to the
 * API as its query (the read's), and the CSV export is the API's streamed export of the same view.
 */
export function serverList<K extends PagedRoute, T>(
	read: RouteRead<K>,
	options: { rows: (data: ApiResponse<K>) => T[]; exportRoute?: GetRoute; settings?: CommonSettings<ApiResponse<K>> }
): ListSource<T> & { $data: ReturnType<typeof routeStore<K>> } {
	const { spec, query } = read
	const $params = paramsStore(spec)
	const $data = routeStore(
		read.route,
		computed($params, (p) => query(p)),
		options.settings
	)
	const exportRoute = options.exportRoute
	return {
		spec,
		$params,
		$data,
		$view: withPrevious($data, ({ data }) => (data === undefined ? undefined : { rows: options.rows(data), page: pageOf(data) })),
		update: (patch) => $params.set(changeParams($params.get(), patch)),
		retry: () => $data.revalidate(),
		exportHref: exportRoute
			? () => {
					const { page: _p, limit: _l, ...view } = query($params.get()) as Record<string, unknown>
					return routeRequest(exportRoute, { query: view }).url
				}
			: undefined
	}
}

/**
 * A list the browser holds whole (users, representatives: the server searches and sorts them; downloads and
 * notices: small, searched and sorted here) and pages itself. Its read names the view as the API's query when the
 * server searches and sorts (the same read the server answers into the page); without one, `match` and
 * `compare` do.
 */
export function localList<K extends GetRoute, T>(
	read: Omit<RouteRead<K>, 'query'> & Partial<Pick<RouteRead<K>, 'query'>>,
	options: {
		rows: (data: ApiResponse<K>) => T[]
		match?: (row: T, search: string, filters: Record<string, string>) => boolean
		compare?: Record<string, (a: T, b: T) => number>
		exportRoute?: GetRoute
	}
): ListSource<T> & { $data: ReturnType<typeof routeStore<K>> } {
	const { route, spec, query } = read
	const $params = paramsStore(spec)
	const $data = query
		? routeStore(
				route,
				computed($params, (p) => query(p))
			)
		: routeStore(route)
	const inView = (all: T[], params: ListParams) => {
		const search = params.search.trim().toLocaleLowerCase('pt-BR')
		let rows = options.match ? all.filter((row) => options.match!(row, search, params.filters)) : all
		const compare = options.compare?.[params.sort]
		if (compare) rows = [...rows].sort((a, b) => (params.order === 'desc' ? -compare(a, b) : compare(a, b)))
		return rows
	}
	const $shown = computed([$data, $params], (d, params) => ({ ...d, params }))
	return {
		spec,
		$params,
		$data,
		$view: withPrevious($shown, ({ data, params }) => {
			if (data === undefined) return undefined
			const rows = inView(options.rows(data), params)
			const page = pagination(params.page, params.limit, rows.length)
			return { rows: rows.slice((params.page - 1) * params.limit, params.page * params.limit), page }
		}),
		update: (patch) => $params.set(changeParams($params.get(), patch)),
		retry: () => $data.revalidate(),
		exportHref: options.exportRoute ? () => routeRequest(options.exportRoute!, { query: query?.($params.get()) ?? {} }).url : undefined,
		viewRows: () => {
			const data = $data.get().data
			return data === undefined ? [] : inView(options.rows(data), $params.get())
		}
	}
}

/**
 * A list the server pages that grows as one scrolls (/carnes, /pagamentos-parcelas): the first page is a cached
 * read like serverList's (its answer also carries the cards' totals, which count the whole view), the next pages
 * are read one at a time by `more.load()` (the LoadMore footer calls it when its sentinel comes into view). A new
 * filter starts again at the first page; a change elsewhere (the first page read again after a mutation) reads
 * the pages already shown again, so the rows stay where they were.
 */
export function infiniteList<K extends PagedRoute, T>(
	read: RouteRead<K>,
	options: {
		rows: (data: ApiResponse<K>) => T[]
		/** A row shifted by a change between two pages' reads is shown once. */
		rowKey: (row: T) => string | number
		/** The first page's read settings (a live list's polling): a change it brings reads the pages shown again. */
		settings?: CommonSettings<ApiResponse<K>>
	}
): ListSource<T> & { $data: ReturnType<typeof routeStore<K>>; more: MoreSource } {
	const { route, spec, query } = read
	const $params = paramsStore(spec)
	const $query = computed($params, firstPageRead(read).query)
	const $data = routeStore(route, $query, options.settings)
	const keyOf = (query: ApiQuery<K>) => routeRequest(route, { query }).url
	const readPage = (page: number) => call(route, { query: query({ ...$params.get(), page }) } as never) as Promise<ApiResponse<K>>
	/** The pages after the first, of the view (key) they were read for. */
	const $after = atom<{ key: string; pages: ApiResponse<K>[]; loading: boolean; error: unknown }>({
		key: '',
		pages: [],
		loading: false,
		error: undefined
	})
	const current = () => {
		const key = keyOf($query.get())
		const after = $after.get()
		return after.key === key ? after : { key, pages: [], loading: false, error: undefined }
	}
	let shownFirst: ApiResponse<K> | undefined
	$data.listen(({ data }) => {
		if (!data || data === shownFirst) return
		const again = shownFirst !== undefined
		shownFirst = data
		const after = current()
		if (!again || after.pages.length === 0) return
		Promise.all(after.pages.map((_, i) => readPage(i + 2)))
			.then((pages) => {
				if ($after.get().key === after.key) $after.set({ ...$after.get(), pages })
			})
			.catch(() => {})
	})
	const $shown = computed([$data, $after, $query], (first, after, query) => ({
		...first,
		after: after.key === keyOf(query) ? after : undefined
	}))
	const $view = withPrevious($shown, ({ data, after }) => {
		if (data === undefined) return undefined
		const seen = new Set<string | number>()
		const rows = [data, ...(after?.pages ?? [])]
			.flatMap(options.rows)
			.filter((row) => !seen.has(options.rowKey(row)) && !!seen.add(options.rowKey(row)))
		return { rows, page: pageOf(after?.pages.at(-1) ?? data) }
	})
	async function load() {
		const after = current()
		const first = $data.get().data
		if (!first || after.loading) return
		const last = pageOf(after.pages.at(-1) ?? first)
		if (!last.hasNext) return
		$after.set({ ...after, loading: true, error: undefined })
		try {
			const next = await readPage(last.page + 1)
			if ($after.get().key === after.key) $after.set({ ...after, pages: [...after.pages, next], loading: false, error: undefined })
		} catch (error) {
			if ($after.get().key === after.key) $after.set({ ...$after.get(), loading: false, error })
		}
	}
	return {
		spec,
		$params,
		$data,
		$view,
		update: (patch) => {
			// Another view starts again at its first page (coming back to this one too).
			$after.set({ key: '', pages: [], loading: false, error: undefined })
			$params.set(changeParams($params.get(), { ...patch, page: 1 }))
		},
		retry: () => $data.revalidate(),
		more: {
			$state: computed([$view, $shown], (view, shown) => ({
				loaded: view.rows?.length ?? 0,
				total: view.page?.total ?? 0,
				hasNext: view.page?.hasNext ?? false,
				loading: shown.after?.loading ?? false,
				error: shown.after?.error
			})),
			load: () => void load()
		}
	}
}
