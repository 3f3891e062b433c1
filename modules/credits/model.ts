import { SYSTEMS } from '../companies/model'
import { MAX_PURCHASE_CREDITS, PURCHASE_QUANTITY_MESSAGE, PURCHASE_WHOLE_MESSAGE, purchaseQuantityProblem } from './limits'
import {
	Pagination,
	cnpjField,
	contract,
	csvExportContract,
	pageFields,
	searchField,
	sortFields,
	z,
	withMessage,
	figures,
	formatNumber
} from '../core'
import { CREDIT_SORTS, SUMMARY_SORTS } from './reads'

const MAX_CREDITS = 100_000

/** A whole number of credits, ≥ 1. */
const creditQuantity = (message: string) =>
	z
		.number({ error: message })
		.int('A quantidade de créditos deve ser um número inteiro.')
		.min(1, message)
		.max(MAX_CREDITS, `No máximo ${formatNumber(MAX_CREDITS)} créditos por operação.`)

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
		// 0.000000001 passes both checks above and would be stored as R$ 0,00.
		.refine((centavos) => centavos >= 1, 'O valor unitário do crédito deve ser maior que zero.')
})
export type AddCreditsBody = z.infer<typeof AddCreditsBody>

/** POST /api/credits/transfer-to-company (1-core §7). */
export const TransferBody = z.object({
	empresaCodigo: z
		.number({ error: 'Selecione a empresa.' })
		.int('Empresa inválida.')
		.positive('Selecione a empresa.')
		.max(Number.MAX_SAFE_INTEGER, 'Empresa inválida.'),
	sistema: z.enum(SYSTEMS, {
		error: (issue) =>
			issue.input === undefined || issue.input === '' ? 'Selecione o sistema.' : `Sistema inválido: use ${SYSTEMS.join(', ')}.`
	}),
	creditos: creditQuantity('A quantidade de créditos deve ser maior que zero.'),
	/** Whose pool pays; optional: it is always the company's representative. When sent it must match. */
	representanteCnpj: z
		.union([z.literal(''), z.null(), cnpjField], { error: 'CNPJ do representante inválido.' })
		.optional()
		.transform((v) => v || null)
})
export type TransferBody = z.infer<typeof TransferBody>

/** A representative's renewal (1-core §5 'Credit renewal by prompt'): the same transfer, worded as the prompt words it. */
const RENEW_MESSAGE = 'Digite um número válido maior que zero.'
export const RenewBody = TransferBody.extend({
	creditos: z.number({ error: RENEW_MESSAGE }).int(RENEW_MESSAGE).min(1, RENEW_MESSAGE).max(MAX_CREDITS, RENEW_MESSAGE)
})

/** A list of credits: the kind, the search and the order (what the CSV export takes). */
export const CreditView = z.object({
	/** pool = the representative's own batches, transfer = transfers to companies; absent = both. */
	kind: z.enum(['pool', 'transfer'], { error: 'Tipo de lista inválido: use pool ou transfer.' }).optional(),
	search: searchField,
	...sortFields(CREDIT_SORTS, 'id', 'desc')
})
export type CreditView = z.infer<typeof CreditView>

export const CreditListQuery = CreditView.extend({ ...pageFields, limit: pageFields.limit.default(200) })
export type CreditListQuery = z.infer<typeof CreditListQuery>

export const AvailableQuery = z.object({
	representanteCnpj: z
		.union([z.literal(''), cnpjField])
		.optional()
		.transform((v) => v || null)
})
export type AvailableQuery = z.infer<typeof AvailableQuery>

/** The summary's search (representative, company or CNPJ) and order (what the CSV export takes). */
export const SummaryView = z.object({ search: searchField, ...sortFields(SUMMARY_SORTS, 'disponivel', 'desc') })
export type SummaryView = z.infer<typeof SummaryView>

export const SummaryQuery = SummaryView.extend({ ...pageFields, limit: pageFields.limit.default(100) })
export type SummaryQuery = z.infer<typeof SummaryQuery>

/** Totals of a set of representatives' credits: total is everything ever added to the pool(s). */
export const CreditTotals = figures('total', 'disponivel', 'utilizado')
export type CreditTotals = z.infer<typeof CreditTotals>

/** One line of GET /api/credits. */
export const CreditItem = z.object({
	id: z.number(),
	valor: z.number(),
	valor_original: z.number(),
	representante_id: z.string(),
	fk_empresa: z.number().nullable(),
	sistema: z.string().nullable(),
	ativo: z.number(),
	data_compra: z.string(),
	data_uso: z.string().nullable(),
	origem: z.enum(['admin', 'compra', 'transferencia']),
	valor_unitario: z.number(),
	representante: z.object({ nome: z.string(), cnpj: z.string() }),
	empresa: z.object({ razao: z.string() }).nullable()
})
export type CreditItem = z.infer<typeof CreditItem>

export const CreditListResponse = z.object({
	credits: z.array(CreditItem),
	/** The paging figures also at the top level, where the spec's answer has them. */
	...Pagination.pick({ total: true, page: true, limit: true, totalPages: true }).shape,
	pagination: Pagination,
	totals: CreditTotals
})
export type CreditListResponse = z.infer<typeof CreditListResponse>

/** A representative and their credit figures. */
export const RepresentativeCreditSummary = z.object({
	nome: z.string(),
	cnpj: z.string(),
	...figures('disponivel', 'utilizado', 'total').shape
})
export type RepresentativeCreditSummary = z.infer<typeof RepresentativeCreditSummary>

export const CreditSummaryResponse = z.object({
	representatives: z.array(RepresentativeCreditSummary),
	/** How many representatives matched (the list is paged by `page` and `limit`). */
	matched: z.number(),
	pagination: Pagination,
	totals: CreditTotals.extend({ representantesAtivos: z.number() })
})
export type CreditSummaryResponse = z.infer<typeof CreditSummaryResponse>

export const TransferResult = withMessage({
	transferId: z.number(),
	creditos: z.number(),
	dias: z.number(),
	validade_anterior: z.string().nullable(),
	validade_licenca: z.string(),
	disponivel: z.number()
})
export type TransferResult = z.infer<typeof TransferResult>

export const availableCreditsRoute = contract({
	method: 'GET',
	path: '/api/credits/available',
	query: AvailableQuery,
	response: z.object({ total: z.number() }),
	summary: 'Créditos disponíveis no escopo (ou de um representante do escopo)'
})
export const listCreditsRoute = contract({
	method: 'GET',
	path: '/api/credits',
	query: CreditListQuery,
	response: CreditListResponse,
	summary: 'Lotes de créditos e transferências do escopo, paginados'
})
export const creditSummaryRoute = contract({
	method: 'GET',
	path: '/api/credits/summary',
	query: SummaryQuery,
	response: CreditSummaryResponse,
	summary: 'Créditos por representante, com totais'
})
export const exportCreditsRoute = csvExportContract(
	'/api/credits/export',
	CreditView,
	'Os lotes de créditos ou as transferências da lista filtrada, em CSV para planilhas, transmitido aos poucos'
)
export const exportSummaryRoute = csvExportContract(
	'/api/credits/summary/export',
	SummaryView,
	'O resumo de créditos por representante da lista filtrada, em CSV para planilhas'
)
export const addCreditsRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/credits',
	body: AddCreditsBody,
	response: withMessage({
		id: z.number(),
		representanteId: z.string(),
		amount: z.number(),
		unitValue: z.number(),
		disponivel: z.number()
	}),
	summary: 'Adiciona um lote de créditos a um representante'
})
export const transferRoute = contract({
	method: 'POST',
	path: '/api/credits/transfer-to-company',
	body: TransferBody,
	response: TransferResult,
	summary: 'Gasta créditos do representante da empresa para estender a licença (1 crédito = dias por crédito)'
})

/** Credit self-purchase (spec 3 §5, §9): 1 to 1000 whole credits, paid by PIX only. */
export { MAX_PURCHASE_CREDITS, purchaseQuantityProblem }
export const purchaseQuantity = z
	.number({ error: PURCHASE_QUANTITY_MESSAGE })
	.int(PURCHASE_WHOLE_MESSAGE)
	.min(1, PURCHASE_QUANTITY_MESSAGE)
	.max(MAX_PURCHASE_CREDITS, PURCHASE_QUANTITY_MESSAGE)

export const AutoPurchaseBody = z.object({
	quantidade: purchaseQuantity,
	metodoPagamento: z.literal('PIX', { error: 'Forma de pagamento inválida: a autocompra aceita apenas PIX.' })
})
export type AutoPurchaseBody = z.infer<typeof AutoPurchaseBody>

export const AutoPurchaseResult = withMessage({
	chargeId: z.string(),
	quantidade: z.number(),
	/** The total in reais. */
	valor: z.number(),
	metodoPagamento: z.literal('PIX'),
	/** YYYY-MM-DD (Brazil time). */
	vencimento: z.string(),
	/** The PIX copia-e-cola code: the browser draws the QR from it. */
	pixCopyPaste: z.string().nullable(),
	/** Asaas' base64 PNG, when it could be read. */
	pixQrCode: z.string().nullable()
})
export type AutoPurchaseResult = z.infer<typeof AutoPurchaseResult>

/** What the buyer's screen is told: PENDING, CONFIRMED (paid and credited), CANCELLED, EXPIRED. */
export const PURCHASE_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'EXPIRED'] as const
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number]

export const PaymentStatusResult = z.object({ status: z.enum(PURCHASE_STATUSES), value: z.number() })
export type PaymentStatusResult = z.infer<typeof PaymentStatusResult>

export const PixQrCodeResult = z.object({ success: z.boolean(), pixQrCode: z.string().nullable(), pixCopyPaste: z.string().nullable() })
export type PixQrCodeResult = z.infer<typeof PixQrCodeResult>

const ChargeParams = z.object({ chargeId: z.string().min(1).max(100) })

export const autoPurchaseRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/credits/auto-purchase',
	body: AutoPurchaseBody,
	response: AutoPurchaseResult,
	summary: 'O representante compra créditos do fornecedor: cria a cobrança PIX na conta Asaas do fornecedor'
})
/**
 * Whether the self-purchase works now: 'ativo' (the vendor's account on and its webhook healthy), 'atrasado'
 * (charges are made, but Asaas' notice of payment does not arrive: the portal's own checks credit them, later),
 * 'indisponivel' (no vendor account: nothing can be bought). `mensagem` says it in pt-BR when not 'ativo'.
 */
export const AutoPurchaseAvailability = z.object({
	situacao: z.enum(['ativo', 'atrasado', 'indisponivel']),
	mensagem: z.string().nullable()
})
export type AutoPurchaseAvailability = z.infer<typeof AutoPurchaseAvailability>
export const autoPurchaseAvailabilityRoute = contract({
	method: 'GET',
	path: '/api/credits/auto-purchase/status',
	response: AutoPurchaseAvailability,
	summary: 'Se a autocompra funciona agora: a conta Asaas do fornecedor configurada e o seu webhook saudável'
})
export const paymentStatusRoute = contract({
	method: 'GET',
	path: '/api/credits/payment-status/:chargeId',
	params: ChargeParams,
	response: PaymentStatusResult,
	summary: 'A situação do pagamento de uma compra própria, do banco (o portal consulta o Asaas por conta própria)'
})
export const pixQrCodeRoute = contract({
	method: 'GET',
	path: '/api/credits/pix-qrcode/:chargeId',
	params: ChargeParams,
	response: PixQrCodeResult,
	summary: 'O código PIX (copia e cola e imagem) de uma compra própria'
})
