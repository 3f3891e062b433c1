/**
 * The portal's settings (2-administration §3.8 and §9): each key's default, words, kind, and the bounds or choices the
 * settings screen offers. Free of zod, so the screens that read them do not load it (issue 15); the rules the API
 * applies (model.ts, SETTING_RULES) follow from these.
 */
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

/** The rule of a numeric setting, stored as text: whole or with up to 2 decimals, within its range. */
export function fitsRange(range: NumberRange, value: string): boolean {
	const shape = range.step ? /^\d+(\.\d{1,2})?$/ : /^\d+$/
	return shape.test(value) && Number(value) >= range.min && Number(value) <= range.max
}

const numberSetting = (range: NumberRange) => ({ range })
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
	return { valor, descricao, categoria, tipo: 'string' as const, choices }
}

export type Definition = {
	valor: string
	descricao: string
	categoria: 'aparencia' | 'geral' | 'financeiro' | 'seguranca' | 'whatsapp' | 'bot'
	tipo: 'string' | 'color' | 'number' | 'boolean'
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
	'tema.cor_primaria': { valor: '#11053b', descricao: 'Cor primária', categoria: 'aparencia', tipo: 'color' },
	'tema.cor_secundaria': { valor: '#F1F3F6', descricao: 'Cor secundária', categoria: 'aparencia', tipo: 'color' },
	'tema.cor_destaque': { valor: '#42A5F5', descricao: 'Cor de destaque', categoria: 'aparencia', tipo: 'color' },
	'tema.tamanho_fonte': choiceSetting('aparencia', 'Tamanho da fonte', 'medium', { small: 'Pequeno', medium: 'Médio', large: 'Grande' }),
	'tema.modo_compacto': { valor: 'false', descricao: 'Modo compacto', categoria: 'aparencia', tipo: 'boolean' },
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
		tipo: 'boolean'
	},
	'app.backup_automatico': { valor: 'true', descricao: 'Backup automático', categoria: 'geral', tipo: 'boolean' },
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
		secret: true
	},
	'app.asaas_environment': choiceSetting('financeiro', 'Ambiente Asaas', 'sandbox', { sandbox: 'Sandbox', production: 'Produção' }),
	'app.asaas_webhook_token': {
		valor: '',
		descricao: 'Token do webhook Asaas do fornecedor',
		categoria: 'financeiro',
		tipo: 'string',
		secret: true
	},
	'app.fornecedor_nome': {
		valor: 'K Sistemas',
		descricao: 'Nome do fornecedor nas mensagens aos clientes',
		categoria: 'geral',
		tipo: 'string'
	},
	// The WhatsApp gateway (Evolution API) of 3-billing-messaging §3.
	evolution_api_url: {
		valor: '',
		descricao: 'URL da Evolution API',
		categoria: 'whatsapp',
		tipo: 'string'
	},
	evolution_api_key: {
		valor: '',
		descricao: 'Chave da Evolution API',
		categoria: 'whatsapp',
		tipo: 'string',
		secret: true
	},
	evolution_instance_name: {
		valor: '',
		descricao: 'Nome da instância',
		categoria: 'whatsapp',
		tipo: 'string'
	},
	// The WhatsApp bot (3-billing-messaging §2 'Config Bot'): the vendor's PIX key it offers, and the secret its webhook carries.
	bot_chave_pix: {
		valor: '',
		descricao: 'Chave PIX do bot',
		categoria: 'bot',
		tipo: 'string'
	},
	bot_webhook_secret: {
		valor: '',
		descricao: 'Segredo do webhook do bot WhatsApp',
		categoria: 'bot',
		tipo: 'string',
		secret: true
	},
	'seguranca.auto_logout_ativo': {
		valor: 'true',
		descricao: 'Logout automático por inatividade',
		categoria: 'seguranca',
		tipo: 'boolean'
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

/** A numeric setting read from GET /api/configuracoes: the saved value, or its default while loading or when missing. */
export function numericSetting(list: readonly { chave: string; valor: string }[] | undefined, key: SettingKey): number {
	const definition: Definition = SETTING_DEFINITIONS[key]
	const saved = list?.find((e) => e.chave === key)?.valor
	return Number(saved !== undefined && definition.range && fitsRange(definition.range, saved) ? saved : definition.valor)
}
