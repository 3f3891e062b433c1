/** The page sizes every list offers (1-core §9: 10/20/50/100) and the default. Browser-safe, no schema. */
export const PAGE_SIZES = [10, 20, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 20

export type SortOrder = 'asc' | 'desc'

/** The paging block of a list answer (1-core §3); the Pagination schema in pagination.ts describes it for the API. */
export interface PageInfo {
	page: number
	limit: number
	total: number
	totalPages: number
	hasPrev: boolean
	hasNext: boolean
}

export function pagination(page: number, limit: number, total: number): PageInfo {
	const totalPages = Math.max(1, Math.ceil(total / limit))
	return { page, limit, total, totalPages, hasPrev: page > 1, hasNext: page < totalPages }
}

/**
 * A page's rows in the order of its ids: the ids are ordered and cut in the index first, then only their rows are
 * read with what they join.
 */
export async function inOrderOf<R>(ids: number[], read: (ids: number[]) => Promise<R[]>, idOf: (row: R) => number): Promise<R[]> {
	if (ids.length === 0) return []
	const byId = new Map((await read(ids)).map((row) => [idOf(row), row]))
	return ids.flatMap((id) => byId.get(id) ?? [])
}
