import type { ApiQuery, ApiRoute } from './api'
import { routeRequest } from './api'
import { type ListParams, type ListSpec, readParams } from './list-state'

type GetRoute = Extract<ApiRoute, `GET ${string}`>

/**
 * A list's read as a plain description (no stores): the route, the view's spec, and how a view becomes the API's
 * query. The island builds its list from it (serverList/localList) and the server builds the same address from the
 * page's URL, so it can answer the read into the page before the island asks (issue 15).
 */
export interface ListRead<K extends GetRoute> {
	route: K
	spec: ListSpec
	query: (params: ListParams) => ApiQuery<K>
}

/** The address a list's first read goes to for a page opened at `search` (the key of the island's cache entry). */
export function listReadUrl<K extends GetRoute>(read: ListRead<K>, search: URLSearchParams): string {
	return routeRequest(read.route, { query: read.query(readParams(read.spec, search)) }).url
}

/** An infinite list's read of its first page, whatever page the address names: what the island and the server ask. */
export function firstPageRead<K extends GetRoute>(read: ListRead<K>): ListRead<K> {
	return { ...read, query: (p) => read.query({ ...p, page: 1 }) }
}

/** The address of a fixed read (a route and its query), as the island's routeStore keys it. */
export function readUrl<K extends GetRoute>(route: K, query?: ApiQuery<K>): string {
	return routeRequest(route, { query }).url
}
