import { SYSTEMS } from '../licensing'
import { cnpjField, z, PageQuery } from '../core'


const MAX_CREDITS = 100_000

/** A whole number of credits, ≥ 1. */
const creditQuantity = (message: string) =>
	z
		.number({ error: message })
		.int('A quantidade de créditos deve ser um número inteiro.')
		.min(1, message)
		.max(MAX_CREDITS, `No máximo ${MAX_CREDITS.toLocaleString('pt-BR')} créditos por operação.`)

/** POST /api/credits (2-administration §3.3, §5.1). */
export const AddCreditsBody = z.object({
	representanteId: z
		.string({ error: 'Selecione um representante para adicionar os créditos.' })
		.min(1, 'Selecione um representante para adicionar os créditos.')
		.pipe(cnpjField),
	amount: creditQuantity('A quantidade de créditos deve ser maior que zero.'),
	unitValue: z
		.number({ error: 'O valor unitário do crédito deve ser maior que zero.' })
		.gt(0, 'O valor unitário do crédito deve ser maior que zero.')
		.max(9999.99, 'O valor unitário máximo é R$ 9.999,99.')
		.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Use no máximo 2 casas decimais.')
		.transform((v) => Math.round(v * 100))
})
export type AddCreditsBody = z.infer<typeof AddCreditsBody>

/** POST /api/credits/transfer-to-company (1-core §7). */
export const TransferBody = z.object({
	empresaCodigo: z.coerce
		.number({ error: 'Selecione a empresa.' })
		.int('Empresa inválida.')
		.positive('Selecione a empresa.'),
	sistema: z.enum(SYSTEMS, { error: `Sistema inválido: use ${SYSTEMS.join(', ')}.` }),
	creditos: creditQuantity('A quantidade de créditos deve ser maior que zero.'),
	/** Whose pool pays; optional: it is always the company's representative. When sent it must match. */
	representanteCnpj: z.union([z.literal(''), z.null(), cnpjField]).optional().transform((v) => v || null)
})
export type TransferBody = z.infer<typeof TransferBody>

export const CreditListQuery = PageQuery.extend({
	/** pool = the representative's own batches, transfer = transfers to companies; absent = both. */
	kind: z.enum(['pool', 'transfer'], { error: 'kind deve ser pool ou transfer.' }).optional(),
	limit: z.coerce.number({ error: 'limit deve ser um número.' }).int('limit deve ser inteiro.').min(1, 'limit deve ser no mínimo 1.').max(1000, 'limit deve ser no máximo 1000.').default(200)
})
export type CreditListQuery = z.infer<typeof CreditListQuery>

export const AvailableQuery = z.object({
	representanteCnpj: z.union([z.literal(''), cnpjField]).optional().transform((v) => v || null)
})
export type AvailableQuery = z.infer<typeof AvailableQuery>

export const SummaryQuery = z.object({
	search: z.string().max(100, 'A busca aceita no máximo 100 caracteres.').optional().transform((v) => v?.trim() ?? ''),
	limit: z.coerce.number({ error: 'limit deve ser um número.' }).int('limit deve ser inteiro.').min(1, 'limit deve ser no mínimo 1.').max(1000, 'limit deve ser no máximo 1000.').default(100)
})
export type SummaryQuery = z.infer<typeof SummaryQuery>

/** Totals of a set of representatives' credits. */
export interface CreditTotals {
	/** Everything ever added to the pool(s). */
	total: number
	disponivel: number
	utilizado: number
}

/** One line of GET /api/credits. */
export interface CreditItem {
	id: number
	valor: number
	valor_original: number
	representante_id: string
	fk_empresa: number | null
	sistema: string | null
	ativo: number
	data_compra: string
	data_uso: string | null
	origem: 'admin' | 'compra' | 'transferencia'
	valor_unitario: number
	representante: { nome: string; cnpj: string }
	empresa: { razao: string } | null
}

export interface CreditListResponse {
	credits: CreditItem[]
	total: number
	page: number
	limit: number
	totalPages: number
	totals: CreditTotals
}

export interface RepresentativeCreditSummary {
	nome: string
	cnpj: string
	disponivel: number
	utilizado: number
	total: number
}

export interface CreditSummaryResponse {
	representatives: RepresentativeCreditSummary[]
	/** How many representatives matched (the list is cut at `limit`). */
	matched: number
	totals: CreditTotals & { representantesAtivos: number }
}

export interface TransferResult {
	message: string
	transferId: number
	creditos: number
	dias: number
	validade_anterior: string | null
	validade_licenca: string
	disponivel: number
}
