import { addressFields, cnpjField, dateField, flagField, moneyField, optionalDateField, optionalEmailField, requiredText, textField, urlField, z, PageQuery } from '../core'

export const SYSTEMS = ['K-RETA', 'K-PDV', 'K-CHEF', 'K-ATELIE', 'K-PRE VENDA'] as const
export type SystemName = (typeof SYSTEMS)[number]

/** The block flag of each system (S = blocked). */
export const SYSTEM_FLAGS = {
	'K-RETA': 'bloqueado',
	'K-PDV': 'bloqueadopdv',
	'K-CHEF': 'bloqueado_kchef',
	'K-ATELIE': 'bloqueado_katelie',
	'K-PRE VENDA': 'bloqueado_kprevenda'
} as const satisfies Record<SystemName, string>
export type FlagColumn = (typeof SYSTEM_FLAGS)[SystemName]
export const FLAG_COLUMNS = Object.values(SYSTEM_FLAGS) as FlagColumn[]

export const CompanyListQuery = PageQuery.extend({
	status: z.enum(['todas', 'ativas', 'bloqueadas', 'expiradas', 'expiring_soon', 'no-license'], { error: 'Filtro de status inválido.' }).default('todas'),
	avisos: z.enum(['todas', 'com', 'sem'], { error: 'Filtro de avisos inválido.' }).default('todas')
})
export type CompanyListQuery = z.infer<typeof CompanyListQuery>

const flags = {
	bloqueado: flagField.default('N'),
	bloqueadopdv: flagField.default('N'),
	bloqueado_kchef: flagField.default('N'),
	bloqueado_katelie: flagField.default('N'),
	bloqueado_kprevenda: flagField.default('N')
}

/** The company form (1-core §5): create and full update. */
export const CompanyBody = z.object({
	razao: requiredText('Razão social', 200),
	cnpj: cnpjField,
	cnpj_representante: cnpjField.optional(),
	...addressFields,
	email: optionalEmailField,
	link: urlField,
	nterminais: z.number({ error: 'Terminais deve ser um número.' }).int('Terminais deve ser um número inteiro.').min(1, 'A empresa deve permitir pelo menos 1 terminal.').max(1000, 'No máximo 1000 terminais.'),
	ativarapi: flagField.default('N'),
	evo_instancia: textField('Instância Evolution', 100),
	validade_certificado: optionalDateField,
	validade_licenca: optionalDateField,
	valor_mensal: moneyField.default(0),
	dia_venc: z.number({ error: 'Dia de vencimento deve ser um número.' }).int('Dia de vencimento inválido.').min(1, 'Dia de vencimento entre 1 e 31.').max(31, 'Dia de vencimento entre 1 e 31.').nullish().transform((v) => v ?? null),
	obs: textField('Observações', 2000),
	exibir_aviso: flagField.default('N'),
	manutencao: flagField.optional(),
	...flags
})
export type CompanyBody = z.infer<typeof CompanyBody>

/** A date in a partial update: absent = unchanged, empty or null = cleared. */
const patchDateField = optionalDateField.optional()

/** PATCH: only the dates, or the five block flags, or exibir_aviso (1-core §7). */
export const CompanyPatch = z
	.strictObject({
		validade_certificado: patchDateField,
		validade_licenca: patchDateField,
		bloqueado: flagField.optional(),
		bloqueadopdv: flagField.optional(),
		bloqueado_kchef: flagField.optional(),
		bloqueado_katelie: flagField.optional(),
		bloqueado_kprevenda: flagField.optional(),
		exibir_aviso: flagField.optional()
	})
export type CompanyPatch = z.infer<typeof CompanyPatch>

export const MaintenanceBody = z.object({ manutencao: flagField })

export const PromoImageBody = z.object({
	imageBase64: z.string({ error: 'Envie a imagem em base64.' }).min(1, 'Por favor, selecione apenas arquivos de imagem')
})

export const NoticeBody = z.object({
	titulo: requiredText('Título', 100).refine((v) => v.length > 0, 'Título é obrigatório'),
	texto: requiredText('Texto do aviso', 1000),
	empresas: z.array(z.number().int().positive(), { error: 'Selecione pelo menos uma empresa' }).min(1, 'Selecione pelo menos uma empresa').max(5000)
})
export const NoticeRemoveBody = z.object({
	empresas: z.array(z.number().int().positive(), { error: 'Selecione pelo menos uma empresa' }).min(1, 'Selecione pelo menos uma empresa').max(5000)
})

/** MAC typed with or without separators; stored as 12 uppercase hex characters. */
const MAC_MESSAGE = 'Endereço MAC inválido: use 12 dígitos hexadecimais (ex.: 00:1A:2B:3C:4D:5E).'
/** Text made only of hex digits and MAC separators (: - . and spaces). */
export const MAC_TEXT = /^[0-9a-fA-F:.\- ]+$/
/** MAC text without its separators, in upper case. */
export const macDigits = (text: string) => text.replace(/[:.\- ]/g, '').toUpperCase()
export const macField = z
	.string({ error: 'Endereço MAC é obrigatório.' })
	// Separators are dropped; any other character makes the address invalid, never silently removed.
	.refine((v) => v.length <= 32 && MAC_TEXT.test(v.trim()), MAC_MESSAGE)
	.transform(macDigits)
	.refine((v) => /^[0-9A-F]{12}$/.test(v), MAC_MESSAGE)

export const TerminalBody = z.object({
	fk_empresa: z.number({ error: 'Empresa é obrigatória.' }).int().positive('Empresa é obrigatória.'),
	nome_computador: textField('Nome do computador', 100),
	mac: macField
})
export type TerminalBody = z.infer<typeof TerminalBody>

export const DownloadBody = z.object({
	titulo: requiredText('Título', 200),
	link: z
		.url({ protocol: /^https?$/, error: 'Link inválido: use um endereço http(s) completo.' })
		.max(1000, 'Link muito longo.')
		.refine((v) => !/\s/.test(v), 'Link inválido: o endereço não pode ter espaços.'),
	ativo: z
		.union([z.literal(0), z.literal(1), z.boolean()], { error: 'use 1 ou 0 (ou true/false).' })
		.default(1)
		.transform((v) => (v === true || v === 1 ? 1 : 0))
})
export type DownloadBody = z.infer<typeof DownloadBody>

/** What a desktop system sends to ask whether it may run. */
export const LicenceCheckBody = z.object({
	cnpj: cnpjField,
	chave: z.string({ error: 'chave é obrigatória.' }).min(1, 'chave é obrigatória.').max(200, 'no máximo 200 caracteres.'),
	sistema: z.enum(SYSTEMS, { error: `sistema deve ser um de: ${SYSTEMS.join(', ')}.` }),
	mac: macField,
	nome_computador: z.string().max(100).optional().transform((v) => v?.trim() || null),
	versao: z.string().max(50).optional(),
	nonce: z.string().max(128, 'no máximo 128 caracteres.').optional()
})
export type LicenceCheckBody = z.infer<typeof LicenceCheckBody>

export const LICENCE_STATUSES = ['ativa', 'bloqueada', 'expirada', 'liberada_confianca', 'manutencao', 'terminal_excedido', 'chave_invalida'] as const
export type LicenceStatus = (typeof LICENCE_STATUSES)[number]
