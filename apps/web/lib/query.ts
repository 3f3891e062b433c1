import { type CommonSettings, nanoquery } from '@nanostores/query'
import { type ReadableAtom, computed } from 'nanostores'
import { pageData } from './page-data'
import { type ApiQuery, type ApiResponse, type GetRoute, api, isRetryable, retryDelay, routeRequest } from './api'

const MAX_RETRIES = 2
const DEDUPE_MS = 30_000
const CACHE_LIFETIME_MS = 120_000

/**
 * The cache starts with the answers the server wrote into the page (its first reads), as if just fetched: the
 * islands' first render has their data and no store asks for it again while it is fresh (issue 15).
 */
const seeded = new Map<string, { data: unknown; created: number; expires: number }>()
{
	const now = Date.now()
	for (const [key, data] of Object.entries(pageData().reads)) seeded.set(key, { data, created: now, expires: now + CACHE_LIFETIME_MS })
}
const seededKeys = new Set(seeded.keys())

/**
 * Shared data settings of 1-core §7: fresh for 30 s, dropped after 2 min unused, no refetch on focus,
 * at most 2 retries of retryable errors, 1 s doubling to 5 s. The cache is refreshed by the routes a write names
 * (`invalidateReads`, `revalidateReads`), never by hand-written keys.
 */
const [createFetcherStore, , { invalidateKeys, revalidateKeys }] = nanoquery({
	cache: seeded as Map<string, never>,
	fetcher: (...keys) => api(keys.join('')),
	dedupeTime: DEDUPE_MS,
	cacheLifetime: CACHE_LIFETIME_MS,
	revalidateOnFocus: false,
	onErrorRetry: ({ error, retryCount }) => (retryCount < MAX_RETRIES && isRetryable(error) ? retryDelay(retryCount + 1) : undefined)
})
export { createFetcherStore }

/**
 * The screens that follow what happens elsewhere, and how often each refetches while its page is visible (nanoquery
 * skips a hidden page): the bot’s paces of 3-billing-messaging §9; the carnês' lists (a parcel paid, removed or
 * cancelled at Asaas shows within 10 s, at the 5 s of the spec's payment polling); the top-bar notifications.
 * Polling the API, not a push from one process, so it holds when the portal runs as several instances.
 */
export const LIVE_PACE = {
	botMonitor: 30_000,
	botStatus: 5_000,
	botSessions: 10_000,
	botPaused: 5_000,
	billing: 5_000,
	notifications: 10_000
} as const

/**
 * Settings of a store refetched every `ms` while its page is visible. Its answer counts as fresh for half that: with
 * the shared 30 s dedupe a tick inside it would answer the cache, and a 5 s status would refresh every 30 s.
 */
export function polling(ms: number) {
	return { revalidateInterval: ms, dedupeTime: Math.min(DEDUPE_MS, ms / 2) }
}

/** The credits lists retry more patiently (1-core §7): 3 retries, 1 s doubling to 10 s. */
export const patientRetry = {
	onErrorRetry: ({ error, retryCount }: { error: unknown; retryCount: number }) =>
		retryCount < 3 && isRetryable(error) ? retryDelay(retryCount + 1, 10_000) : undefined
}

/** Runs a mutation with the same retry rule as queries (never retrying a 4xx). */
export async function withRetry<T>(work: () => Promise<T>, retries = MAX_RETRIES): Promise<T> {
	for (let attempt = 0; ; attempt++) {
		try {
			return await work()
		} catch (error) {
			if (attempt >= retries || !isRetryable(error)) throw error
			await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt + 1)))
		}
	}
}

/**
 * A cached GET of a route, typed by its contract. The query may be fixed or a store (the list refetches when it
 * changes); the cache key is the route's path and query, so `invalidateReads` of the route reaches every query of it.
 */
export function routeStore<K extends GetRoute>(
	route: K,
	query?: ApiQuery<K> | ReadableAtom<ApiQuery<K>>,
	settings?: CommonSettings<ApiResponse<K>>
) {
	const keyOf = (q?: ApiQuery<K>) => routeRequest(route, { query: q }).url
	const key =
		query && 'subscribe' in query ? [computed(query as ReadableAtom<ApiQuery<K>>, keyOf)] : [keyOf(query as ApiQuery<K> | undefined)]
	const store = createFetcherStore<ApiResponse<K>>(key, settings)
	// A store the server answered for stays started: a store without listeners forgets its value (nanoquery resets it
	// when the last listener leaves), so the island's first render would read nothing, draw a skeleton, then the rows.
	const first = query && 'subscribe' in query ? (query as ReadableAtom<ApiQuery<K>>).get() : (query as ApiQuery<K> | undefined)
	if (seededKeys.has(keyOf(first))) store.listen(() => {})
	return store
}

/**
 * Whether a cache key (the address a store reads) is an answer of `route`: the route's path, whatever its query, each
 * `:param` of the path standing for one segment.
 */
export function isReadOf(route: GetRoute, key: string): boolean {
	const pattern = route.slice('GET '.length).split('/')
	const path = key.split('?', 1)[0].split('/')
	return path.length === pattern.length && pattern.every((part, i) => (part.startsWith(':') ? path[i] !== '' : part === path[i]))
}

/**
 * After a write: the cached answers of the reads it changed are dropped, and the stores showing them read again.
 * The reads are named by their routes, so a renamed or mistyped one fails `tsc` instead of silently refreshing nothing.
 */
export function invalidateReads(routes: readonly GetRoute[]) {
	if (routes.length) invalidateKeys((key) => routes.some((route) => isReadOf(route, key)))
}

/** The stores showing these reads read them again, keeping what they show meanwhile (a change seen elsewhere). */
export function revalidateReads(routes: readonly GetRoute[]) {
	if (routes.length) revalidateKeys((key) => routes.some((route) => isReadOf(route, key)))
}
