import { classifyPixKey, z } from '../core'

const bool = z.enum(['true', 'false'], { error: 'Use true ou false.' })
/** One of the values a select offers (the form never sends another; an API caller is told the choices). */
const choice = <const V extends readonly [string, ...string[]]>(label: string, values: V) =>
	z.enum(values, { error: `${label}: escolha uma das opções (${values.join(', ')}).` })
/** A numeric setting's bounds: the one source of the form's inputs, the server's rule and its message (§5.7). */
export interface NumberRange {
	min: number
	max: number
	/** 0.01 for money; whole numbers otherwise. */
	step?: number
	label: string
}

const br = (v: number, range: NumberRange) => v.toLocaleString('pt-BR', { minimumFractionDigits: range.step ? 2 : 0 })

export function rangeMessage(range: NumberRange): string {
	return `${range.label} deve estar entre ${br(range.min, range)} e ${br(range.max, range)}${range.step ? ' (até 2 casas decimais)' : ''}.`
}

/** A numeric setting, stored as text: whole or with up to 2 decimals, within its range. */
function numberSetting(range: NumberRange) {
	const shape = range.step ? /^\d+(\.\d{1,2})?$/ : /^\d+$/
	const schema: z.ZodType<string> = z
		.string({ error: rangeMessage(range) })
		.refine((v) => shape.test(v) && Number(v) >= range.min && Number(v) <= range.max, rangeMessage(range))
	return { schema, range }
}
/**
 * A setting chosen in a select: its values, each with the words the settings screen shows for it (in the order
 * offered), and a description that also names it in the error message.
 */
function choiceSetting<const C extends Record<string, string>>(
	categoria: Definition['categoria'],
	descricao: string,
	valor: keyof C & string,
	choices: C
) {
	const values = Object.keys(choices) as [keyof C & string, ...(keyof C & string)[]]
	return { valor, descricao, categoria, tipo: 'string' as const, schema: choice(descricao, values), choices }
}
const color = z.string({ error: 'Cor inválida: use o formato #RRGGBB.' }).regex(/^#[0-9a-fA-F]{6}$/, 'Cor inválida: use o formato #RRGGBB.')

export type Definition = {
	valor: string
	descricao: string
	categoria: 'aparencia' | 'geral' | 'financeiro' | 'seguranca' | 'whatsapp' | 'bot'
	tipo: 'string' | 'color' | 'number' | 'boolean'
	schema: z.ZodType<string>
	/** For numeric settings: the bounds the form shows and the schema enforces. */
	range?: NumberRange
	/** For settings chosen in a select: each value the schema accepts, with the words the form shows for it. */
	choices?: Readonly<Record<string, string>>
	/** Never sent back to the browser in clear once saved. */
	secret?: boolean
}

/** Every setting the portal knows, with its default (2-administration §3.8 and §9) and its rule (§5.7). */
export const SETTING_DEFINITIONS = {
	'tema.modo': choiceSetting('aparencia', 'Modo do tema', 'light', { light: 'Claro', dark: 'Escuro', system: 'Sistema' }),
	'tema.cor_primaria': { valor: '#11053b', descricao: 'Cor primária', categoria: 'aparencia', tipo: 'color', schema: color },
	'tema.cor_secundaria': { valor: '#F1F3F6', descricao: 'Cor secundária', categoria: 'aparencia', tipo: 'color', schema: color },
	'tema.cor_destaque': { valor: '#42A5F5', descricao: 'Cor de destaque', categoria: 'aparencia', tipo: 'color', schema: color },
	'tema.tamanho_fonte': choiceSetting('aparencia', 'Tamanho da fonte', 'medium', { small: 'Pequeno', medium: 'Médio', large: 'Grande' }),
	'tema.modo_compacto': { valor: 'false', descricao: 'Modo compacto', categoria: 'aparencia', tipo: 'boolean', schema: bool },
	'app.valor_credito_dia': {
		valor: '33',
		descricao: 'Dias de licença por crédito',
		categoria: 'geral',
		tipo: 'number',
		...numberSetting({ min: 1, max: 365, label: 'Dias por crédito' })
	},
	'app.valor_credito_individual': {
		valor: '50.00',
		descricao: 'Valor do crédito individual (R$)',
		categoria: 'financeiro',
		tipo: 'number',
		...numberSetting({ min: 0.01, max: 9999.99, step: 0.01, label: 'Valor do crédito' })
	},
	'app.terminais_padrao': {
		valor: '1',
		descricao: 'Terminais padrão por empresa',
		categoria: 'geral',
		tipo: 'number',
		...numberSetting({ min: 1, max: 100, label: 'Terminais padrão' })
	},
	'app.notificacoes_habilitadas': {
		valor: 'true',
		descricao: 'Notificações habilitadas',
		categoria: 'geral',
		tipo: 'boolean',
		schema: bool
	},
	'app.backup_automatico': { valor: 'true', descricao: 'Backup automático', categoria: 'geral', tipo: 'boolean', schema: bool },
	'app.intervalo_backup': {
		valor: '24',
		descricao: 'Intervalo de backup (horas)',
		categoria: 'geral',
		tipo: 'number',
		...numberSetting({ min: 1, max: 168, label: 'Intervalo de backup' })
	},
	'app.backups_manter': {
		valor: '7',
		descricao: 'Backups automáticos mantidos',
		categoria: 'geral',
		tipo: 'number',
		...numberSetting({ min: 1, max: 100, label: 'Backups mantidos' })
	},
	'app.idioma': choiceSetting('geral', 'Idioma', 'pt-BR', { 'pt-BR': 'Português (Brasil)', 'en-US': 'Inglês (EUA)', 'es-ES': 'Espanhol' }),
	'app.fuso_horario': choiceSetting('geral', 'Fuso horário', 'America/Sao_Paulo', {
		'America/Sao_Paulo': 'São Paulo (GMT-3)',
		'America/New_York': 'New York (GMT-5)',
		'Europe/London': 'London (GMT+0)'
	}),
	'app.formato_data': choiceSetting('geral', 'Formato de data', 'DD/MM/YYYY', {
		'DD/MM/YYYY': 'DD/MM/AAAA',
		'MM/DD/YYYY': 'MM/DD/AAAA',
		'YYYY-MM-DD': 'AAAA-MM-DD'
	}),
	'app.moeda': choiceSetting('geral', 'Moeda', 'BRL', { BRL: 'Real (R$)', USD: 'Dólar (US$)', EUR: 'Euro (€)' }),
	'app.asaas_api_key': {
		valor: '',
		descricao: 'Chave da API Asaas',
		categoria: 'financeiro',
		tipo: 'string',
		schema: z.string({ error: 'Chave da API: escreva um texto.' }).max(500, 'Chave da API: no máximo 500 caracteres.'),
		secret: true
	},
	'app.asaas_environment': choiceSetting('financeiro', 'Ambiente Asaas', 'sandbox', { sandbox: 'Sandbox', production: 'Produção' }),
	'app.asaas_webhook_token': {
		valor: '',
		descricao: 'Token do webhook Asaas do fornecedor',
		categoria: 'financeiro',
		tipo: 'string',
		schema: z.string({ error: 'Token do webhook: escreva um texto.' }).max(255, 'Token do webhook: no máximo 255 caracteres.'),
		secret: true
	},
	'app.fornecedor_nome': {
		valor: 'K Sistemas',
		descricao: 'Nome do fornecedor nas mensagens aos clientes',
		categoria: 'geral',
		tipo: 'string',
		schema: z
			.string({ error: 'Nome do fornecedor é obrigatório.' })
			.trim()
			.min(1, 'Nome do fornecedor é obrigatório.')
			.max(100, 'Nome do fornecedor: no máximo 100 caracteres.')
	},
	// The WhatsApp gateway (Evolution API) of 3-billing-messaging §3.
	evolution_api_url: {
		valor: '',
		descricao: 'URL da Evolution API',
		categoria: 'whatsapp',
		tipo: 'string',
		schema: z.union(
			[
				z.literal(''),
				z
					.url({ protocol: /^https?$/, error: 'URL da API inválida: use um endereço http(s) completo.' })
					.max(500, 'URL da API: no máximo 500 caracteres.')
			],
			{ error: 'URL da API inválida: use um endereço http(s) completo.' }
		)
	},
	evolution_api_key: {
		valor: '',
		descricao: 'Chave da Evolution API',
		categoria: 'whatsapp',
		tipo: 'string',
		schema: z.string({ error: 'Chave da API: escreva um texto.' }).max(500, 'Chave da API: no máximo 500 caracteres.'),
		secret: true
	},
	evolution_instance_name: {
		valor: '',
		descricao: 'Nome da instância',
		categoria: 'whatsapp',
		tipo: 'string',
		schema: z
			.string({ error: 'Nome da instância: escreva um texto.' })
			.max(100, 'Nome da instância: no máximo 100 caracteres.')
			.regex(/^[\w.-]*$/, 'Nome da instância: use letras, números, ponto, hífen ou sublinhado.')
	},
	// The WhatsApp bot (3-billing-messaging §2 'Config Bot'): the vendor's PIX key it offers, and the secret its webhook carries.
	bot_chave_pix: {
		valor: '',
		descricao: 'Chave PIX do bot',
		categoria: 'bot',
		tipo: 'string',
		schema: z.string({ error: 'Chave PIX: escreva um texto.' }).superRefine((v, issue) => {
			const check = classifyPixKey(v)
			if (!check.valid) issue.addIssue({ code: 'custom', message: check.message })
		})
	},
	bot_webhook_secret: {
		valor: '',
		descricao: 'Segredo do webhook do bot WhatsApp',
		categoria: 'bot',
		tipo: 'string',
		schema: z
			.string({ error: 'Segredo do webhook: escreva um texto.' })
			.regex(/^([A-Za-z0-9_-]{32,128})?$/, 'Segredo do webhook: de 32 a 128 letras, números, hífen ou sublinhado.'),
		secret: true
	},
	'seguranca.auto_logout_ativo': {
		valor: 'true',
		descricao: 'Logout automático por inatividade',
		categoria: 'seguranca',
		tipo: 'boolean',
		schema: bool
	},
	'seguranca.auto_logout_minutos': {
		valor: '30',
		descricao: 'Minutos de inatividade até o logout',
		categoria: 'seguranca',
		tipo: 'number',
		...numberSetting({ min: 5, max: 480, label: 'Tempo de inatividade' })
	}
} satisfies Record<string, Definition>

export type SettingKey = keyof typeof SETTING_DEFINITIONS

export const AutoLogoutConfig = z.object({
	enabled: z.boolean({ error: 'Logout automático: ligue ou desligue.' }),
	timeoutMinutes: z
		.number({ error: 'O tempo de inatividade deve ser um número de minutos.' })
		.int('O tempo de inatividade deve ser um número inteiro de minutos.')
		.min(5, 'O tempo de inatividade deve ser de no mínimo 5 minutos.')
		.max(480, 'O tempo de inatividade deve ser de no máximo 480 minutos.')
})
export type AutoLogoutConfig = z.infer<typeof AutoLogoutConfig>

/** One entry as the settings screen sends it; descricao/categoria/tipo come from the key's definition, not the client. */
const SettingEntry = z.object({
	chave: z.string({ error: 'chave é obrigatória.' }).min(1, 'chave é obrigatória.').max(100, 'no máximo 100 caracteres.'),
	valor: z
		.union([z.string().max(2000, 'Valor muito longo.'), z.number(), z.boolean()], {
			error: 'valor deve ser texto, número ou verdadeiro/falso.'
		})
		.transform((v) => String(v))
})
export { SettingEntry }
export type SettingEntry = z.infer<typeof SettingEntry>

export const BulkSettingsBody = z.object({
	configuracoes: z
		.array(SettingEntry, { error: 'configuracoes deve ser uma lista.' })
		.min(1, 'Nenhuma configuração enviada.')
		.max(100, 'No máximo 100 configurações por vez.')
})
export type BulkSettingsBody = z.infer<typeof BulkSettingsBody>
export * from './theme'

/** A numeric setting read from GET /api/configuracoes: the saved value, or its default while loading or when missing. */
export function numericSetting(list: readonly { chave: string; valor: string }[] | undefined, key: SettingKey): number {
	const definition: Definition = SETTING_DEFINITIONS[key]
	const saved = list?.find((e) => e.chave === key)?.valor
	return Number(saved !== undefined && definition.schema.safeParse(saved).success ? saved : definition.valor)
}
