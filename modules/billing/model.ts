import { cnpjField, contract, credentialField, webhookContract, z, withMessage, figures } from '../core'
import { MESSAGES } from './labels'

export const ENVIRONMENTS = ['sandbox', 'production'] as const
export type AsaasEnvironment = (typeof ENVIRONMENTS)[number]

/** The vendor's own account (credit purchases), beside the representatives' accounts (keyed by CNPJ). */
export const VENDOR_ACCOUNT = 'fornecedor'

export { MESSAGES }

/** Asaas' rules for a webhook token (docs: 32–255 characters, no spaces, no numeric sequences, no 4 repeated letters). */
export function webhookTokenProblem(token: string): string | null {
	if (token.length < 32 || token.length > 255 || /\s/.test(token)) return 'use de 32 a 255 caracteres, sem espaços'
	if (/(.)\1{3}/.test(token)) return 'não repita o mesmo caractere 4 vezes seguidas'
	for (let i = 0; i + 3 < token.length; i++) {
		const run = token.slice(i, i + 4)
		if (/^\d{4}$/.test(run) && [...run].every((d, k) => k === 0 || Number(d) === Number(run[k - 1]) + 1))
			return 'não use sequências numéricas'
	}
	return null
}

/** A key or token as typed: blank = none; a masked value sent back unchanged keeps the saved one. */
const secretField = (label: string) =>
	credentialField(label)
		.optional()
		.transform((v) => v ?? '')

const tokenField = secretField('Token do webhook').superRefine((v, issue) => {
	const problem = v && !v.includes('•') ? webhookTokenProblem(v) : null
	if (problem) issue.addIssue({ code: 'custom', message: `Token do webhook inválido: ${problem}.` })
})

const environmentField = z.enum(ENVIRONMENTS, { error: 'Ambiente inválido: use sandbox ou production.' }).default('sandbox')

/** PUT /api/representantes/asaas-config: the representative's own account (3-billing-messaging §2, §5). */
export const OwnAsaasConfigBody = z.object({
	ativar_api_asaas: z.enum(['S', 'N'], { error: 'Ativação: use S ou N.' }),
	asaas_api_key: secretField('Chave API'),
	asaas_ambiente: environmentField,
	asaas_webhook_token: tokenField
})
export type OwnAsaasConfigBody = z.infer<typeof OwnAsaasConfigBody>

/** PUT /api/admin/asaas-configs/{cnpj}: the same, by an administrador, with the switch as a boolean. */
export const AdminAsaasConfigBody = z.object({
	representante_cnpj: z.string({ error: MESSAGES.chooseRepresentative }).min(1, MESSAGES.chooseRepresentative).pipe(cnpjField).optional(),
	ativar_api_asaas: z.boolean({ error: 'Ativação: use verdadeiro ou falso.' }),
	asaas_api_key: secretField('Chave API'),
	asaas_ambiente: environmentField,
	asaas_webhook_token: tokenField
})
export type AdminAsaasConfigBody = z.infer<typeof AdminAsaasConfigBody>

/** The vendor's account, from the Admin Financeiro screen. */
export const VendorAsaasConfigBody = z.object({
	asaas_api_key: secretField('Chave API'),
	asaas_ambiente: environmentField,
	asaas_webhook_token: tokenField
})
export type VendorAsaasConfigBody = z.infer<typeof VendorAsaasConfigBody>

export const CnpjParams = z.object({ cnpj: cnpjField })
export const AccountParams = z.object({
	account: z.union([z.literal(VENDOR_ACCOUNT), cnpjField], { error: 'Conta Asaas inválida.' })
})

/** The portal's webhook on an account, as last read from Asaas. */
export const WebhookState = z.object({
	/** Where Asaas must deliver (null while PUBLIC_URL is not set). */
	url: z.string().nullable(),
	status: z.enum(['ativo', 'ausente', 'interrompido', 'penalizado', 'erro']).nullable(),
	penalized: z.number(),
	message: z.string().nullable(),
	checked_at: z.string().nullable(),
	/** Set while the account's key opens another Asaas account than its carnês were made on (nothing is cancelled). */
	conta_aviso: z.string().nullable()
})
export type WebhookState = z.infer<typeof WebhookState>

/** An account's use of Asaas' quota (25,000 requests in 12 h, shared with its other integrations) by the portal. */
export const AccountUsage = z.object({
	requisicoes12h: z.number(),
	cota: z.number(),
	/** What Asaas last said is left of the quota (RateLimit-Remaining), when it said. */
	restanteAsaas: z.number().nullable()
})
export type AccountUsage = z.infer<typeof AccountUsage>

/** An account's configuration as the screens show it: secrets masked, never in clear. */
export const AsaasConfigView = z.object({
	ativar_api_asaas: z.enum(['S', 'N']),
	asaas_api_key: z.string(),
	asaas_ambiente: z.enum(ENVIRONMENTS),
	asaas_webhook_token: z.string(),
	/** The integration is on and a key is saved. */
	configurado: z.boolean(),
	webhook: WebhookState,
	uso: AccountUsage
})
export type AsaasConfigView = z.infer<typeof AsaasConfigView>

export const AdminAsaasConfigView = AsaasConfigView.omit({ ativar_api_asaas: true }).extend({
	representante_cnpj: z.string(),
	representante_nome: z.string(),
	ativar_api_asaas: z.boolean()
})
export type AdminAsaasConfigView = z.infer<typeof AdminAsaasConfigView>

export const VendorAsaasConfigView = AsaasConfigView.omit({ ativar_api_asaas: true })
export type VendorAsaasConfigView = z.infer<typeof VendorAsaasConfigView>

export const TestResult = z.object({ success: z.boolean(), message: z.string(), webhook: WebhookState.optional() })
export type TestResult = z.infer<typeof TestResult>

export const FinancialStats = figures('totalConfiguracoes', 'configuracoesAtivas', 'carnesGerados', 'valorTotalCarnes')
export type FinancialStats = z.infer<typeof FinancialStats>

const SavedConfig = <V extends z.ZodType>(view: V) => withMessage({ config: view })

export const ownConfigRoute = contract({
	method: 'GET',
	path: '/api/representantes/asaas-config',
	response: AsaasConfigView,
	summary: 'A conta Asaas do representante (chave e token mascarados) e o estado do webhook'
})
export const saveOwnConfigRoute = contract({
	method: 'PUT',
	path: '/api/representantes/asaas-config',
	body: OwnAsaasConfigBody,
	response: SavedConfig(AsaasConfigView),
	summary: 'Salva a conta Asaas do representante e registra o webhook do portal nela'
})
export const ownWebhookTokenRoute = contract({
	method: 'GET',
	path: '/api/representantes/asaas-config/webhook-token',
	response: z.object({ token: z.string().nullable() }),
	summary: 'O token do webhook da conta do representante, em claro, para cadastrá-lo à mão no Asaas (Guia de Configuração)'
})
export const testOwnConfigRoute = contract({
	method: 'POST',
	path: '/api/asaas/test-config',
	response: TestResult,
	summary: 'Testa a chave salva do representante no ambiente escolhido'
})
export const adminConfigsRoute = contract({
	method: 'GET',
	path: '/api/admin/asaas-configs',
	response: z.array(AdminAsaasConfigView),
	summary: 'As contas Asaas dos representantes'
})
export const saveAdminConfigRoute = contract({
	method: 'PUT',
	path: '/api/admin/asaas-configs/:cnpj',
	params: CnpjParams,
	body: AdminAsaasConfigBody,
	response: SavedConfig(AdminAsaasConfigView),
	summary: 'Cria ou altera a conta Asaas de um representante'
})
export const testAdminConfigRoute = contract({
	method: 'POST',
	path: '/api/admin/asaas-configs/:cnpj/test',
	params: CnpjParams,
	response: TestResult,
	summary: 'Testa a conta Asaas de um representante'
})
export const vendorConfigRoute = contract({
	method: 'GET',
	path: '/api/admin/asaas-vendor',
	response: VendorAsaasConfigView,
	summary: 'A conta Asaas do fornecedor, pela qual a autocompra de créditos cobra'
})
export const saveVendorConfigRoute = contract({
	method: 'PUT',
	path: '/api/admin/asaas-vendor',
	body: VendorAsaasConfigBody,
	response: SavedConfig(VendorAsaasConfigView),
	summary: 'Salva a conta Asaas do fornecedor e registra o webhook do portal nela'
})
export const testVendorConfigRoute = contract({
	method: 'POST',
	path: '/api/admin/asaas-vendor/test',
	response: TestResult,
	summary: 'Testa a conta Asaas do fornecedor'
})
export const reactivateWebhookRoute = contract({
	method: 'POST',
	path: '/api/asaas/accounts/:account/webhook/reactivate',
	params: AccountParams,
	response: TestResult,
	summary: 'Reativa a fila de webhooks que o Asaas interrompeu ou penalizou'
})
/** The sandbox rehearsal of an account (the steps of check:asaas), as Admin Financeiro shows it. */
export const AsaasRehearsal = z.object({
	ok: z.boolean(),
	verdict: z.string(),
	steps: z.array(
		z.object({
			name: z.string(),
			result: z.enum(['ok', 'warning', 'failed']),
			answer: z.string(),
			accepted: z.boolean().nullable(),
			essential: z.boolean()
		})
	),
	installmentAmount: z.enum(['totalValue', 'value']).nullable(),
	deletedCharge: z.enum(['404', 'deleted:true']).nullable()
})
export type AsaasRehearsal = z.infer<typeof AsaasRehearsal>
export const rehearsalRoute = contract({
	method: 'POST',
	path: '/api/admin/asaas-accounts/:account/rehearsal',
	params: AccountParams,
	response: AsaasRehearsal,
	summary: 'Ensaio completo no sandbox: os passos de check:asaas com a chave salva de uma conta de sandbox'
})
export const financialStatsRoute = contract({
	method: 'GET',
	path: '/api/admin/financial-stats',
	response: FinancialStats,
	summary: 'Números do Admin Financeiro: contas configuradas, ativas, carnês e seu valor'
})
export const asaasWebhookRoute = webhookContract(
	'/api/asaas/webhook/:account',
	{ params: AccountParams },
	'Eventos de cobrança do Asaas (header asaas-access-token); respondido com 200 na hora, processado depois'
)
export * from './carnes-model'
export * from './dunning-model'
