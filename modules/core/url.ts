/** An absolute http(s) address (pure: the validators and the islands share it). */
export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value)
		return url.protocol === 'http:' || url.protocol === 'https:'
	} catch {
		return false
	}
}

/**
 * `/api/companies/:id` with `{ id: 5 }` → `/api/companies/5`; the query, when given, as a query string.
 * Here and not beside `contract` (contract.ts): every page's lib/api.ts needs it, and contract.ts brings zod with it.
 */
export function routeUrl(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
	const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
		const value = params?.[name]
		if (value === undefined || value === null || value === '') throw new Error(`Parâmetro ausente: ${name}`)
		return encodeURIComponent(String(value))
	})
	const search = new URLSearchParams()
	for (const [key, value] of Object.entries(query ?? {})) {
		if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
	}
	const qs = search.toString()
	return qs ? `${filled}?${qs}` : filled
}

/** The address of a route by its key ('GET /api/companies/:id', as the islands name routes). */
export function routeKeyUrl(key: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
	return routeUrl(key.slice(key.indexOf(' ') + 1), params, query)
}
