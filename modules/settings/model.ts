import { classifyPixKey, credentialField, z } from '../core'
import { type Definition, SETTING_DEFINITIONS, type SettingKey, fitsRange, rangeMessage } from './definitions'

export * from './definitions'
export * from './theme'

const bool = z.enum(['true', 'false'], { error: 'Use true ou false.' })
const color = z.string({ error: 'Cor inválida: use o formato #RRGGBB.' }).regex(/^#[0-9a-fA-F]{6}$/, 'Cor inválida: use o formato #RRGGBB.')

/** The rules of the settings written as free text; the others follow from their definition's kind, range or choices. */
const TEXT_RULES: Partial<Record<SettingKey, z.ZodType<string>>> = {
	'app.asaas_api_key': credentialField('Chave da API'),
	'app.asaas_webhook_token': credentialField('Token do webhook', 255),
	'app.fornecedor_nome': z
		.string({ error: 'Nome do fornecedor é obrigatório.' })
		.trim()
		.min(1, 'Nome do fornecedor é obrigatório.')
		.max(100, 'Nome do fornecedor: no máximo 100 caracteres.'),
	evolution_api_url: z.union(
		[
			z.literal(''),
			z
				.url({ protocol: /^https?$/, error: 'URL da API inválida: use um endereço http(s) completo.' })
				.max(500, 'URL da API: no máximo 500 caracteres.')
		],
		{ error: 'URL da API inválida: use um endereço http(s) completo.' }
	),
	evolution_api_key: credentialField('Chave da API'),
	evolution_instance_name: z
		.string({ error: 'Nome da instância: escreva um texto.' })
		.max(100, 'Nome da instância: no máximo 100 caracteres.')
		.regex(/^[\w.-]*$/, 'Nome da instância: use letras, números, ponto, hífen ou sublinhado.'),
	bot_chave_pix: z.string({ error: 'Chave PIX: escreva um texto.' }).superRefine((v, issue) => {
		const check = classifyPixKey(v)
		if (!check.valid) issue.addIssue({ code: 'custom', message: check.message })
	}),
	bot_webhook_secret: z
		.string({ error: 'Segredo do webhook: escreva um texto.' })
		.regex(/^([A-Za-z0-9_-]{32,128})?$/, 'Segredo do webhook: de 32 a 128 letras, números, hífen ou sublinhado.')
}

function ruleOf(key: SettingKey): z.ZodType<string> {
	const definition: Definition = SETTING_DEFINITIONS[key]
	const { choices, range } = definition
	// One of the values a select offers (the form never sends another; an API caller is told the choices).
	if (choices) {
		const values = Object.keys(choices) as [string, ...string[]]
		return z.enum(values, { error: `${definition.descricao}: escolha uma das opções (${values.join(', ')}).` })
	}
	if (range) return z.string({ error: rangeMessage(range) }).refine((v) => fitsRange(range, v), rangeMessage(range))
	if (definition.tipo === 'boolean') return bool
	if (definition.tipo === 'color') return color
	const text = TEXT_RULES[key]
	if (!text) throw new Error(`A configuração ${key} não tem regra.`)
	return text
}

/** Each setting's rule (§5.7): what the API accepts for it. */
export const SETTING_RULES = Object.fromEntries(
	(Object.keys(SETTING_DEFINITIONS) as SettingKey[]).map((key) => [key, ruleOf(key)])
) as Record<SettingKey, z.ZodType<string>>

const logoutMinutes = SETTING_DEFINITIONS['seguranca.auto_logout_minutos'].range

/** The security tab's auto-logout: the minutes follow the setting they are saved in. */
export const AutoLogoutConfig = z.object({
	enabled: z.boolean({ error: 'Logout automático: ligue ou desligue.' }),
	timeoutMinutes: z
		.number({ error: 'O tempo de inatividade deve ser um número de minutos.' })
		.refine((v) => fitsRange(logoutMinutes, String(v)), rangeMessage(logoutMinutes))
})
export type AutoLogoutConfig = z.infer<typeof AutoLogoutConfig>

/** The words refusing a key the settings routes do not save (its definition's setElsewhere), or null. */
export function setElsewhere(chave: string): string | null {
	return Object.hasOwn(SETTING_DEFINITIONS, chave)
		? ((SETTING_DEFINITIONS as Record<string, Definition>)[chave].setElsewhere ?? null)
		: null
}

/**
 * One entry as the settings screen sends it; descricao/categoria/tipo come from the key's definition, not the client.
 * A key set on another screen (the vendor's Asaas account, the bot's webhook secret) is refused, naming that screen.
 */
const SettingEntry = z.object({
	chave: z
		.string({ error: 'chave é obrigatória.' })
		.min(1, 'chave é obrigatória.')
		.max(100, 'no máximo 100 caracteres.')
		.superRefine((chave, issue) => {
			const elsewhere = setElsewhere(chave)
			if (elsewhere) issue.addIssue({ code: 'custom', message: elsewhere })
		}),
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
