import { valuesOf } from '../core'

/**
 * The automatic notifications' types and their templates' variables, as plain code without the schema library: the
 * notifications screen reads them on first load, so it does not carry zod (issue 15). Re-exported by model.ts.
 */

/** The three automatic WhatsApp notifications (3-billing-messaging §3). */
export const NOTIFICATION_LABELS = {
	whatsapp_expiracao: 'Licenças expirando',
	whatsapp_expirada: 'Licenças expiradas',
	whatsapp_boas_vindas: 'Boas-vindas a novos clientes'
}
export const NOTIFICATION_TYPES = valuesOf(NOTIFICATION_LABELS)
export type NotificationType = (typeof NOTIFICATION_TYPES)[number]

/** The variables a template may use, and what each becomes. */
export const TEMPLATE_VARIABLES = {
	empresa_nome: 'razão social da empresa',
	sistema: 'sistemas liberados da empresa',
	data_vencimento: 'data de vencimento da licença (dd/mm/aaaa)',
	dias_restantes: 'dias até o vencimento',
	representante_nome: 'nome do representante'
} as const
export type TemplateValues = Record<keyof typeof TEMPLATE_VARIABLES, string>

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g

/** The names a template uses that are not variables (empty when all are known). */
export function unknownVariables(template: string): string[] {
	return [...new Set([...template.matchAll(VARIABLE)].map((m) => m[1]).filter((name) => !Object.hasOwn(TEMPLATE_VARIABLES, name)))]
}

/** The message for a template naming unknown variables, listing the known ones; null when all are known. */
export function unknownVariablesMessage(template: string): string | null {
	const unknown = unknownVariables(template)
	if (unknown.length === 0) return null
	const valid = Object.keys(TEMPLATE_VARIABLES)
		.map((n) => `{{${n}}}`)
		.join(', ')
	return `Variável desconhecida no modelo: ${unknown.map((n) => `{{${n}}}`).join(', ')}. Use: ${valid}.`
}

export const TEMPLATE_REQUIRED = 'Modelo da mensagem é obrigatório.'

/**
 * What the screen tells as a template is typed: empty, or naming unknown variables, in the words of the schema
 * (model.ts, NotificationTemplate), which also refuses forbidden characters and more than 4,000.
 */
export function templateProblem(template: string): string | null {
	return template.trim() ? unknownVariablesMessage(template) : TEMPLATE_REQUIRED
}

/** A template with its variables filled in: the message a client receives (the live preview renders the same). */
export function renderTemplate(template: string, values: TemplateValues): string {
	return template.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as keyof TemplateValues] : whole))
}
