import {
	contract,
	dateField,
	numberInput,
	pageFields,
	searchField,
	textField,
	WHATSAPP_PHONE_INVALID,
	whatsappPhoneField,
	valuesOf,
	yearsLater,
	z,
	pagedList,
	withMessage,
	figures
} from '../core'
import { DunningSendView } from './dunning-model'
import { MessageResponse, formatBrDate, formatBrl } from '../core'
import { CARNE_STATUSES, EVENT_TYPES } from './labels'
import { MAX_CREDITS_PER_PARCEL } from './renewal-words'

export * from './labels'
export * from './renewal-words'

/** Asaas' smallest charge: every parcel of a carnê must be at least this (centavos). */
export const MIN_PARCEL_CENTAVOS = 500
export const CHARGE_TYPE_LABELS = { BOLETO: 'Boleto', PIX: 'PIX', CREDIT_CARD: 'Cartão' }
export const CHARGE_TYPES = valuesOf(CHARGE_TYPE_LABELS)
/** A carnê's statuses, in the order the Carnês screen's filter offers them. */

export const CARNE_MESSAGES = {
	company: 'Selecione uma empresa',
	value: 'Valor é obrigatório',
	valueInvalid: 'Valor total inválido: use um número, como 150 ou 150,50.',
	count: 'Número de parcelas é obrigatório',
	countInvalid: 'Número de parcelas inválido: use um número inteiro de 2 a 12.',
	date: 'Data é obrigatória',
	pastDate: 'O primeiro vencimento não pode ser antes de hoje.',
	farDate: (last: string) => `O primeiro vencimento deve ser em até ${FIRST_DUE_HORIZON_YEARS} ano, até ${formatBrDate(last)}.`,
	phone: WHATSAPP_PHONE_INVALID
}

/** How far ahead a carnê's first due date may be: a plan starting later is a typing mistake, not a plan. */
export const FIRST_DUE_HORIZON_YEARS = 1

/** What is wrong with a first due date on `today` (both YYYY-MM-DD, São Paulo's date): before today, or past the horizon. */
export function firstDueDateProblem(date: string, today: string): string | null {
	if (date < today) return CARNE_MESSAGES.pastDate
	const last = yearsLater(today, FIRST_DUE_HORIZON_YEARS)
	return date > last ? CARNE_MESSAGES.farDate(last) : null
}

/** The parcel a total gives: Asaas splits in centavos and puts the remainder on the last one. */
export function splitTotal(totalCentavos: number, count: number): number[] {
	const each = Math.floor(totalCentavos / count)
	return Array.from({ length: count }, (_, i) => (i === count - 1 ? totalCentavos - each * (count - 1) : each))
}

/** A form's blank field ('' or null) is missing, not zero. */
const blankIsMissing = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema)

const CREDITS_PER_PARCEL_MESSAGE = `Créditos por parcela: use um número inteiro de 1 a ${MAX_CREDITS_PER_PARCEL}.`
/** How many of the representative's credits each paid parcel spends on the licence (issue 37). */
const creditsPerParcel = blankIsMissing(z.number({ error: CREDITS_PER_PARCEL_MESSAGE })).pipe(
	z.number().int(CREDITS_PER_PARCEL_MESSAGE).min(1, CREDITS_PER_PARCEL_MESSAGE).max(MAX_CREDITS_PER_PARCEL, CREDITS_PER_PARCEL_MESSAGE)
)
const renewSwitch = z.boolean({ error: 'Renovar a licença: use verdadeiro ou falso.' })

/** POST /api/carnes (§5): the form's fields, the server adds 'not before today' with its clock. */
export const CarneBody = z
	.object({
		empresa_codigo: blankIsMissing(numberInput(CARNE_MESSAGES.company, CARNE_MESSAGES.company)).pipe(
			z.number().int(CARNE_MESSAGES.company).min(1, CARNE_MESSAGES.company)
		),
		valor_total: blankIsMissing(numberInput(CARNE_MESSAGES.value, CARNE_MESSAGES.valueInvalid)).pipe(
			z
				.number()
				.refine((v) => v > 0, 'O valor total deve ser maior que zero.')
				.refine((v) => v <= 9_999_999, 'Valor muito alto.')
				.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Use no máximo 2 casas decimais.')
		),
		numero_parcelas: blankIsMissing(numberInput(CARNE_MESSAGES.count, CARNE_MESSAGES.countInvalid)).pipe(
			z.number().int('O número de parcelas deve ser inteiro.').min(2, 'Mínimo de 2 parcelas.').max(12, 'Máximo de 12 parcelas.')
		),
		data_primeiro_vencimento: z.string({ error: CARNE_MESSAGES.date }).min(1, CARNE_MESSAGES.date).pipe(dateField),
		tipo_cobranca: z.enum(CHARGE_TYPES, { error: 'Tipo de cobrança inválido: use Boleto, PIX ou Cartão.' }).default('BOLETO'),
		descricao: textField('Descrição', 500),
		/** Absent: on when the representative has credits available (the server decides). */
		renovar_licenca: renewSwitch.optional(),
		creditos_por_parcela: creditsPerParcel.default(1)
	})
	.superRefine((v, issue) => {
		if (!(v.valor_total > 0) || !(v.numero_parcelas >= 2 && v.numero_parcelas <= 12)) return
		const smallest = Math.min(...splitTotal(Math.round(v.valor_total * 100), v.numero_parcelas))
		if (smallest < MIN_PARCEL_CENTAVOS)
			issue.addIssue({
				code: 'custom',
				path: ['valor_total'],
				message: `Cada parcela precisa ser de pelo menos ${formatBrl(MIN_PARCEL_CENTAVOS)} (mínimo do Asaas): com ${v.numero_parcelas} parcelas o total deve ser de pelo menos ${formatBrl(MIN_PARCEL_CENTAVOS * v.numero_parcelas)}.`
			})
	})
export type CarneBody = z.infer<typeof CarneBody>

export const CarneView = z.object({
	id: z.number(),
	/** Null while the carnê is still being created at Asaas (status `criando`). */
	asaas_installment_id: z.string().nullable(),
	empresa_codigo: z.number(),
	empresa: z.object({ razao: z.string(), cnpj: z.string(), fone: z.string().nullable() }).nullable(),
	valor_total: z.number(),
	valor_parcela: z.number(),
	numero_parcelas: z.number(),
	data_primeiro_vencimento: z.string(),
	descricao: z.string().nullable(),
	status: z.string(),
	tipo_cobranca: z.enum(CHARGE_TYPES),
	parcelas_pagas: z.number(),
	created_at: z.string(),
	/** Whose carnê it is: the screen names them to those who see several representatives' carnês. */
	representante: z.object({ cnpj: z.string(), nome: z.string() }).nullable(),
	/** Each paid parcel renews the company's licence with `creditos_por_parcela` credits (issue 37). */
	renovar_licenca: z.boolean(),
	creditos_por_parcela: z.number()
})
export type CarneView = z.infer<typeof CarneView>

/** What a parcel says of the licence renewal its payment buys (none: its carnê did not renew when it was paid). */
const RenewalFields = {
	renovacao: z.enum(['pendente', 'aguardando', 'aplicada', 'cancelada']).nullable(),
	/** The licence date the renewal gave the company; null until it is applied. */
	renovou_ate: z.string().nullable(),
	/** Paid, but the representative had no credits: it is applied when credits arrive. */
	aguarda_creditos: z.boolean(),
	/** Why a renewal was not made (refunded before it was applied, the option switched off…). */
	renovacao_motivo: z.string().nullable()
}

export const CarnesList = pagedList('carnes', CarneView)
export type CarnesList = z.infer<typeof CarnesList>

export const CarneParcelaView = z.object({
	id: z.number(),
	numero: z.number(),
	valor: z.number(),
	dataVencimento: z.string(),
	dataPagamento: z.string().nullable(),
	status: z.string(),
	urlBoleto: z.string().nullable(),
	/** The boleto's digitable line (a boleto parcel). */
	linhaDigitavel: z.string().nullable(),
	/** PIX Copia e Cola (a PIX parcel, and a boleto's PIX alternative), drawn as a QR by the screens. */
	pixCopiaCola: z.string().nullable(),
	...RenewalFields
})
export type CarneParcelaView = z.infer<typeof CarneParcelaView>

/** An instalment in the monitor (Pagamentos de Parcelas). */
export const PagamentoParcelaView = z.object({
	id: z.number(),
	carneId: z.number(),
	numeroParcela: z.number(),
	totalParcelas: z.number(),
	status: z.string(),
	valor: z.number(),
	dataVencimento: z.string(),
	dataPagamento: z.string().nullable(),
	linhaDigitavel: z.string().nullable(),
	urlBoleto: z.string().nullable(),
	pixCopiaCola: z.string().nullable(),
	asaasInstallmentId: z.string(),
	/** `fone`: the company's registered phone, offered pre-filled by the WhatsApp send. */
	empresa: z.object({ codigo: z.number(), razao: z.string(), cnpj: z.string(), fone: z.string().nullable() }),
	...RenewalFields,
	/** What the reminder schedule sent about the parcel (or chose, or did not send, and why), oldest first. */
	regua: z.array(DunningSendView)
})
export type PagamentoParcelaView = z.infer<typeof PagamentoParcelaView>

const optionalDate = z
	.string()
	.optional()
	.transform((v) => v || undefined)
	.pipe(dateField.optional())
const optionalCompany = z
	.string()
	.optional()
	.transform((v, issue) => {
		if (!v || v === 'all' || v === 'todas') return undefined
		const codigo = Number(v)
		if (Number.isInteger(codigo) && codigo > 0) return codigo
		issue.addIssue({ code: 'custom', message: 'Empresa inválida.' })
		return z.NEVER
	})

/** The company and date-range filters both billing lists (instalments, payment history) offer. */
const companyAndPeriod = { empresa: optionalCompany, dataInicio: optionalDate, dataFim: optionalDate }

/** A filter of one of these values; blank or a word for 'all of them' is no filter. */
const optionalChoice = <const V extends readonly [string, ...string[]]>(values: V, allWords: string[], message: string) =>
	z
		.string()
		.optional()
		.transform((v) => (v && !allWords.includes(v) ? v : undefined))
		.pipe(z.enum(values, { error: message }).optional())

/**
 * The carnês screen's list: newest first, a page at a time (the screen loads more as it scrolls); searched by company
 * (name or CNPJ), description, carnê number or representative, filtered by company and status.
 */
export const CarnesQuery = z.object({
	...pageFields,
	search: searchField,
	empresa: optionalCompany,
	status: optionalChoice(CARNE_STATUSES, ['todos', 'all'], 'Status inválido: escolha Em criação, Ativo, Quitado ou Cancelado.')
})
export type CarnesQuery = z.infer<typeof CarnesQuery>

export const PARCEL_FILTER_STATUSES = ['PENDING', 'OVERDUE', 'RECEIVED', 'CONFIRMED', 'CANCELED'] as const
export const PagamentosQuery = z.object({
	...pageFields,
	status: optionalChoice(PARCEL_FILTER_STATUSES, ['all'], 'Status inválido.'),
	...companyAndPeriod
})
export type PagamentosQuery = z.infer<typeof PagamentosQuery>

export const PagamentosResumo = figures('total', 'valorTotal', 'pagas', 'valorRecebido', 'pendentes', 'vencidas')
export const PagamentosList = pagedList('parcelas', PagamentoParcelaView, { resumo: PagamentosResumo })
export type PagamentosList = z.infer<typeof PagamentosList>

export const HistoricoQuery = z.object({
	...pageFields,
	tipo: optionalChoice(EVENT_TYPES, ['todos', 'all'], 'Tipo de evento inválido.'),
	...companyAndPeriod,
	search: searchField
})
export type HistoricoQuery = z.infer<typeof HistoricoQuery>

export const HistoricoEventoView = z.object({
	id: z.number(),
	tipo_evento: z.enum(EVENT_TYPES),
	valor: z.number().nullable(),
	data_evento: z.string(),
	descricao: z.string().nullable(),
	boleto_id: z.string(),
	asaas_evento_id: z.string().nullable(),
	empresa_codigo: z.number(),
	carne_id: z.number().nullable(),
	empresa: z.object({ razao: z.string(), cnpj: z.string() }).nullable()
})
export type HistoricoEventoView = z.infer<typeof HistoricoEventoView>
export const HistoricoResumo = figures('total', 'pagamentos', 'cancelamentos', 'valorTotal')
export const HistoricoList = pagedList('eventos', HistoricoEventoView, { resumo: HistoricoResumo })
export type HistoricoList = z.infer<typeof HistoricoList>

/** PATCH /api/carnes/{id}/renovacao: the automatic renewal switched, and the credits each parcel spends. */
export const RenewalOptionBody = z.object({
	renovar_licenca: renewSwitch,
	creditos_por_parcela: creditsPerParcel.default(1)
})
export type RenewalOptionBody = z.infer<typeof RenewalOptionBody>

/** The renewals paid for but not yet applied (waiting for credits), oldest first: the Credits page and the Dashboard. */
export const WaitingRenewals = z.object({
	total: z.number(),
	/** The credits they need together. */
	creditos: z.number(),
	renovacoes: z.array(
		z.object({
			id: z.number(),
			carneId: z.number(),
			parcela: z.number(),
			totalParcelas: z.number(),
			creditos: z.number(),
			/** False while it is about to be tried (just paid). */
			aguardaCreditos: z.boolean(),
			/** When the parcel was paid. */
			desde: z.string(),
			empresa: z.object({ codigo: z.number(), razao: z.string() }),
			representante: z.object({ cnpj: z.string(), nome: z.string() })
		})
	)
})
export type WaitingRenewals = z.infer<typeof WaitingRenewals>

export const TelefoneBody = z.object({ telefone: whatsappPhoneField })
export const PhoneBody = z.object({ phone: whatsappPhoneField })
export const SyncResult = withMessage({ verificadas: z.number(), corrigidas: z.number() })

export const listCarnesRoute = contract({
	method: 'GET',
	path: '/api/carnes',
	query: CarnesQuery,
	response: CarnesList,
	summary: 'Os carnês das empresas do escopo, mais novos primeiro, paginados (?page&limit; a tela carrega mais ao rolar)'
})
export const createCarneRoute = contract({
	method: 'POST',
	path: '/api/carnes',
	body: CarneBody,
	response: withMessage({ carne: CarneView }),
	status: 201,
	summary: 'Emite um carnê pela conta Asaas do representante da empresa'
})
export const renewalOptionRoute = contract({
	method: 'PATCH',
	path: '/api/carnes/:id/renovacao',
	body: RenewalOptionBody,
	response: withMessage({ carne: CarneView }),
	summary: 'Liga ou desliga a renovação automática da licença de um carnê ativo e os créditos que cada parcela paga gasta'
})
export const waitingRenewalsRoute = contract({
	method: 'GET',
	path: '/api/carnes/renovacoes',
	response: WaitingRenewals,
	summary: 'As renovações de licença pagas por parcelas e ainda não aplicadas (aguardando créditos) do escopo, mais antigas primeiro'
})
export const carneParcelasRoute = contract({
	method: 'GET',
	path: '/api/carnes/:id/parcelas',
	response: z.array(CarneParcelaView),
	summary: 'As parcelas de um carnê'
})
export const cancelCarneRoute = contract({
	method: 'DELETE',
	path: '/api/carnes/:id',
	response: MessageResponse,
	summary: 'Cancela um carnê ativo: remove no Asaas as parcelas pendentes e vencidas, mantém as pagas'
})
export const downloadCarneRoute = contract({
	method: 'GET',
	path: '/api/carnes/:id/download-completo',
	response: z.instanceof(Blob).describe('o PDF do carnê (paymentBook do Asaas)'),
	summary: 'O carnê completo em PDF'
})
export const sendCarneRoute = contract({
	method: 'POST',
	path: '/api/carnes/:id/enviar-whatsapp',
	body: TelefoneBody,
	response: MessageResponse,
	summary: 'Envia o PDF do carnê como documento pelo WhatsApp'
})
export const pagamentosRoute = contract({
	method: 'GET',
	path: '/api/carnes/pagamentos',
	query: PagamentosQuery,
	response: PagamentosList,
	summary: 'As parcelas dos carnês do escopo, filtradas e paginadas, com os totais dos cartões'
})
export const removeParcelaRoute = contract({
	method: 'DELETE',
	path: '/api/carnes/pagamentos/:id',
	response: MessageResponse,
	summary: 'Remove no Asaas uma parcela pendente ou vencida'
})
export const sendParcelaRoute = contract({
	method: 'POST',
	path: '/api/carnes/pagamentos/:id/whatsapp',
	body: PhoneBody,
	response: MessageResponse,
	summary: 'Envia uma parcela pelo WhatsApp: valor, vencimento, boleto, linha digitável e PIX copia e cola'
})
export const syncCarnesRoute = contract({
	method: 'POST',
	path: '/api/carnes/sincronizar',
	response: SyncResult,
	summary: 'Relê no Asaas as parcelas dos carnês ativos do escopo e corrige o que os webhooks perderam'
})
export const historicoRoute = contract({
	method: 'GET',
	path: '/api/historico-pagamentos',
	query: HistoricoQuery,
	response: HistoricoList,
	summary: 'Os eventos de pagamento dos carnês do escopo, com os totais dos cartões'
})
