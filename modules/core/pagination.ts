import type { SortOrder } from './list'
import { z } from './validators'

/** ?page&limit of every paged list; limit up to 1000 (the spec's selection lists ask for 1000). */
export const pageFields = {
	page: z.coerce
		.number({ error: 'A página deve ser um número.' })
		.int('A página deve ser um número inteiro.')
		.min(1, 'A página deve ser no mínimo 1.')
		.max(1_000_000, 'A página deve ser no máximo 1.000.000.')
		.default(1),
	limit: z.coerce
		.number({ error: 'O tamanho da página deve ser um número.' })
		.int('O tamanho da página deve ser um número inteiro.')
		.min(1, 'O tamanho da página deve ser no mínimo 1.')
		.max(1000, 'O tamanho da página deve ser no máximo 1000.')
		.default(20)
}

/** ?search of a list: at most 100 characters, trimmed, control characters dropped. */
export const searchField = z
	.string()
	.max(100, 'A busca aceita no máximo 100 caracteres.')
	.optional()
	// Control characters (NUL...) mean nothing in a search and would break the full-text query.
	.transform((v) => v?.replace(/[\u0000-\u001f\u007f]/g, '').trim() ?? '')

/** ?page&limit&search of every paged list. */
export const PageQuery = z.object({ ...pageFields, search: searchField })
export type PageQuery = z.infer<typeof PageQuery>

/**
 * The ?sort&order of a sortable list: `sort` one of the list's column keys (default first), `order` asc or desc.
 * Spread into the list's query schema: `PageQuery.extend({ ...sortFields(['razao', 'cnpj'], 'razao') })`.
 */
export function sortFields<const K extends readonly [string, ...string[]]>(keys: K, byDefault: K[number], order: SortOrder = 'asc') {
	return {
		sort: z.enum(keys, { error: 'Ordenação inválida: escolha uma das colunas da lista.' }).default(byDefault as never),
		order: z.enum(['asc', 'desc'], { error: 'Direção de ordenação inválida: use asc ou desc.' }).default(order)
	}
}

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

/** A paged list's answer: the page's rows under `key`, the paging block, then what the list adds (totals, cards). */
export function pagedList<const K extends string, R extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(
	key: K,
	row: R,
	extras?: E
) {
	const shape = { [key]: z.array(row), pagination: Pagination, ...extras }
	return z.object(shape as { [P in K]: z.ZodArray<R> } & { pagination: typeof Pagination } & E)
}
