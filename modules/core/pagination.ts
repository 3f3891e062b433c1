import { z } from './validators'

/** ?page&limit&search of every paged list; limit up to 1000 (the spec's selection lists ask for 1000). */
export const PageQuery = z.object({
	page: z.coerce
		.number({ error: 'page deve ser um número.' })
		.int('page deve ser inteiro.')
		.min(1, 'page deve ser no mínimo 1.')
		.max(1_000_000, 'page deve ser no máximo 1000000.')
		.default(1),
	limit: z.coerce
		.number({ error: 'limit deve ser um número.' })
		.int('limit deve ser inteiro.')
		.min(1, 'limit deve ser no mínimo 1.')
		.max(1000, 'limit deve ser no máximo 1000.')
		.default(20),
	search: z
		.string()
		.max(100, 'A busca aceita no máximo 100 caracteres.')
		.optional()
		// Control characters (NUL...) mean nothing in a search and would break the full-text query.
		.transform((v) => v?.replace(/[\u0000-\u001f\u007f]/g, '').trim() ?? '')
})
export type PageQuery = z.infer<typeof PageQuery>

/** The paging block of every paged list answer (1-core §3). */
export const Pagination = z.object({
	page: z.number(),
	limit: z.number(),
	total: z.number(),
	totalPages: z.number(),
	hasPrev: z.boolean(),
	hasNext: z.boolean()
})
export type Pagination = z.infer<typeof Pagination>

export function pagination(page: number, limit: number, total: number): Pagination {
	const totalPages = Math.max(1, Math.ceil(total / limit))
	return { page, limit, total, totalPages, hasPrev: page > 1, hasNext: page < totalPages }
}
