import {
	MessageResponse,
	pageFields,
	searchField,
	sortFields,
	addressFields,
	addressView,
	contract,
	csvExportContract,
	cnpjField,
	flagField,
	moneyField,
	optionalDateField,
	optionalEmailField,
	requiredText,
	textField,
	urlField,
	z,
	deleteByIdContract,
	pagedList,
	withMessage
} from '../core'
import { COMPANY_NOTICE_FILTERS, COMPANY_SORTS, COMPANY_STATUS_FILTERS } from './reads'
import { perFlag } from './systems'

/** Which companies a list, an export or a bulk action is about: search and the filters of 1-core §2.8. */
const companyFilterFields = {
	search: searchField,
	status: z.enum(COMPANY_STATUS_FILTERS, { error: 'Filtro de status inválido.' }).default('todas'),
	avisos: z.enum(COMPANY_NOTICE_FILTERS, { error: 'Filtro de avisos inválido.' }).default('todas')
}
export const CompanyFilter = z.object(companyFilterFields)
export type CompanyFilter = z.infer<typeof CompanyFilter>

/** The view of the list: filters and order (what the CSV export takes). */
export const CompanyView = z.object({ ...companyFilterFields, ...sortFields(COMPANY_SORTS, 'razao') })
export type CompanyView = z.infer<typeof CompanyView>

/** One page of the view. */
export const CompanyListQuery = CompanyView.extend(pageFields)
export type CompanyListQuery = z.infer<typeof CompanyListQuery>

/** What a bulk action does to each chosen company (the five systems at once, the notice display, maintenance). */
export const BULK_ACTIONS = ['bloquear', 'desbloquear', 'avisos-on', 'avisos-off', 'manutencao-on', 'manutencao-off'] as const
export type BulkAction = (typeof BULK_ACTIONS)[number]

const companyIds = z
	.array(z.number({ error: 'Empresa inválida.' }).int('Empresa inválida.').positive('Empresa inválida.'), {
		error: 'Selecione pelo menos uma empresa.'
	})
	.min(1, 'Selecione pelo menos uma empresa.')
	.max(5000, 'Selecione no máximo 5.000 empresas, ou todas as do filtro.')

/** A bulk action on the selected companies (`ids`) or on every company that matches the list's filter (`filtro`). */
export const CompanyBulkBody = z
	.object({
		acao: z.enum(BULK_ACTIONS, { error: 'Ação em lote inválida.' }),
		ids: companyIds.optional(),
		filtro: CompanyFilter.optional()
	})
	.refine((b) => (b.ids === undefined) !== (b.filtro === undefined), 'Escolha as empresas: as selecionadas ou todas as do filtro.')
export type CompanyBulkBody = z.infer<typeof CompanyBulkBody>

const flags = perFlag(() => flagField.default('N'))

/** The company form (1-core §5): create and full update. */
export const CompanyBody = z.object({
	razao: requiredText('Razão social', 200, 'Razão social é obrigatória.'),
	cnpj: cnpjField,
	cnpj_representante: cnpjField.optional(),
	...addressFields,
	email: optionalEmailField,
	link: urlField,
	nterminais: z
		.number({ error: 'Terminais deve ser um número.' })
		.int('Terminais deve ser um número inteiro.')
		.min(1, 'A empresa deve permitir pelo menos 1 terminal.')
		.max(1000, 'No máximo 1000 terminais.'),
	ativarapi: flagField.default('N'),
	evo_instancia: textField('Instância Evolution', 100),
	validade_certificado: optionalDateField,
	validade_licenca: optionalDateField,
	valor_mensal: moneyField.default(0),
	dia_venc: z
		.number({ error: 'Dia de vencimento deve ser um número.' })
		.int('Dia de vencimento inválido.')
		.min(1, 'Dia de vencimento entre 1 e 31.')
		.max(31, 'Dia de vencimento entre 1 e 31.')
		.nullish()
		.transform((v) => v ?? null),
	obs: textField('Observações', 2000),
	exibir_aviso: flagField.default('N'),
	manutencao: flagField.optional(),
	...flags
})
export type CompanyBody = z.infer<typeof CompanyBody>
/** What the company form sends (before the server's defaults and transforms). */
export type CompanyInput = z.input<typeof CompanyBody>

/** A date in a partial update: absent = unchanged, empty or null = cleared. */
const patchDateField = optionalDateField.optional()

/** PATCH: only the dates, or the five block flags, or exibir_aviso (1-core §7). */
export const CompanyPatch = z.strictObject({
	validade_certificado: patchDateField,
	validade_licenca: patchDateField,
	...perFlag(() => flagField.optional()),
	exibir_aviso: flagField.optional()
})
export type CompanyPatch = z.infer<typeof CompanyPatch>

export const MaintenanceBody = z.object({ manutencao: flagField })

export const NoticeBody = z.object({
	titulo: requiredText('Título', 100).refine((v) => v.length > 0, 'Título é obrigatório'),
	texto: requiredText('Texto do aviso', 1000),
	empresas: z
		.array(z.number().int().positive(), { error: 'Selecione pelo menos uma empresa' })
		.min(1, 'Selecione pelo menos uma empresa')
		.max(5000)
})
export const NoticeRemoveBody = NoticeBody.pick({ empresas: true })

const flag = z.enum(['S', 'N'])
const nullableText = z.string().nullable()

/** A company as the API shows it (1-core §3): money in reais, its representative's name and promo image. */
export const Company = z.object({
	codigo: z.number(),
	razao: z.string(),
	cnpj: z.string(),
	cnpj_representante: z.string(),
	...addressView,
	email: nullableText,
	link: nullableText,
	nterminais: z.number(),
	terminal_count: z.number(),
	ativarapi: flag,
	evo_instancia: nullableText,
	serial: z.string(),
	on_line: flag,
	validade_certificado: nullableText,
	validade_licenca: nullableText,
	valor_mensal: z.number(),
	dia_venc: z.number().nullable(),
	data: z.string(),
	data_ultima_utilizacao: nullableText,
	hora_ultima_utilizacao: nullableText,
	obs: nullableText,
	exibir_aviso: flag,
	aviso_titulo: nullableText,
	avisos: nullableText,
	manutencao: flag,
	liberacao_confianca_data: nullableText,
	liberacao_confianca_expira: nullableText,
	...perFlag(() => flag),
	/** The systems the reminder schedule blocked for non-payment (their flag columns, comma-separated); null: none. */
	bloqueio_inadimplencia: nullableText,
	promo: nullableText,
	representante: z.object({ nome: z.string() }).nullable()
})
export type Company = z.infer<typeof Company>

export const CompanyPage = pagedList('companies', Company)
export type CompanyPage = z.infer<typeof CompanyPage>
const CompanySaved = withMessage({ company: Company })

export const listCompaniesRoute = contract({
	method: 'GET',
	path: '/api/companies',
	query: CompanyListQuery,
	response: CompanyPage,
	summary: 'Empresas do escopo do usuário, paginadas, com busca e filtros de status e avisos'
})
export const exportCompaniesRoute = csvExportContract(
	'/api/companies/export',
	CompanyView,
	'As empresas da lista filtrada, em CSV para planilhas, transmitido aos poucos'
)
export const bulkCompaniesRoute = contract({
	method: 'POST',
	path: '/api/companies/bulk',
	body: CompanyBulkBody,
	response: withMessage({ total: z.number(), alteradas: z.number(), inalteradas: z.number() }),
	summary: 'Bloqueia, desbloqueia, liga ou desliga avisos ou manutenção das empresas escolhidas ou de todas as do filtro'
})
export const allCompaniesRoute = contract({
	method: 'GET',
	path: '/api/companies/all',
	response: CompanyPage,
	summary: 'Todas as empresas do escopo (até 5.000), para listas de seleção'
})
export const createCompanyRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/companies',
	body: CompanyBody,
	response: CompanySaved,
	summary: 'Cadastra uma empresa com uma nova chave de licença'
})
export const getCompanyRoute = contract({
	method: 'GET',
	path: '/api/companies/:id',
	response: Company,
	summary: 'Uma empresa'
})
export const updateCompanyRoute = contract({
	method: 'PUT',
	path: '/api/companies/:id',
	body: CompanyBody,
	response: CompanySaved,
	summary: 'Atualiza todos os campos de uma empresa'
})
export const patchCompanyRoute = contract({
	method: 'PATCH',
	path: '/api/companies/:id',
	body: CompanyPatch,
	response: CompanySaved,
	summary: 'Altera só as datas, os bloqueios dos sistemas ou a exibição de avisos'
})
export const deleteCompanyRoute = deleteByIdContract('/api/companies/:id', 'Exclui uma empresa e seus terminais', 'Empresa excluída.')
export const trustReleaseRoute = contract({
	method: 'POST',
	path: '/api/companies/:id/liberar-confianca',
	response: withMessage({ liberacao_confianca_expira: z.string() }),
	summary: 'Liberação em confiança por 24 horas de uma empresa com licença vencida'
})
export const maintenanceRoute = contract({
	method: 'PUT',
	path: '/api/companies/:id/maintenance',
	body: MaintenanceBody,
	response: MessageResponse,
	summary: 'Liga ou desliga a manutenção de uma empresa'
})
export const maintenanceBulkRoute = contract({
	method: 'PUT',
	path: '/api/companies/maintenance/bulk',
	body: MaintenanceBody,
	response: withMessage({ changed: z.number() }),
	summary: 'Liga ou desliga a manutenção de todas as empresas'
})
export const regenerateKeyRoute = contract({
	method: 'POST',
	path: '/api/companies/:id/regenerar-chave',
	response: withMessage({ serial: z.string() }),
	summary: 'Gera uma nova chave de licença; a anterior deixa de funcionar'
})
export const sendNoticeRoute = contract({
	method: 'POST',
	path: '/api/representantes/avisos',
	body: NoticeBody,
	response: MessageResponse,
	summary: 'O representante envia um aviso às suas empresas escolhidas'
})
export const removeNoticesRoute = contract({
	method: 'DELETE',
	path: '/api/representantes/avisos',
	body: NoticeRemoveBody,
	response: MessageResponse,
	summary: 'O representante remove o aviso das empresas escolhidas'
})

export * from './status'
export * from './systems'
