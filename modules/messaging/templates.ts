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
/**
 * A set of variables a kind of template may use, name → what it becomes: the notifications' (TEMPLATE_VARIABLES) or
 * another sender's (the reminder schedule's, billing/dunning-words.ts), all read and filled by the functions below.
 */
export type TemplateVariables = Readonly<Record<string, string>>

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g

/** The names a template uses that are not variables (empty when all are known). */
export function unknownVariables(template: string, variables: TemplateVariables = TEMPLATE_VARIABLES): string[] {
	return [...new Set([...template.matchAll(VARIABLE)].map((m) => m[1]).filter((name) => !Object.hasOwn(variables, name)))]
}

/** The message for a template naming unknown variables, listing the known ones; null when all are known. */
export function unknownVariablesMessage(template: string, variables: TemplateVariables = TEMPLATE_VARIABLES): string | null {
	const unknown = unknownVariables(template, variables)
	if (unknown.length === 0) return null
	const valid = Object.keys(variables)
		.map((n) => `{{${n}}}`)
		.join(', ')
	return `Variável desconhecida no modelo: ${unknown.map((n) => `{{${n}}}`).join(', ')}. Use: ${valid}.`
}

export const TEMPLATE_REQUIRED = 'Modelo da mensagem é obrigatório.'

/**
 * What the screen tells as a template is typed: empty, or naming unknown variables, in the words of the schema
 * (model.ts, NotificationTemplate), which also refuses forbidden characters and more than 4,000.
 */
export function templateProblem(template: string, variables: TemplateVariables = TEMPLATE_VARIABLES): string | null {
	return template.trim() ? unknownVariablesMessage(template, variables) : TEMPLATE_REQUIRED
}

/** How many days ahead a notice may go: from 1 to 30. */
export const DAYS_AHEAD = { min: 1, max: 30 } as const

/**
 * What is wrong with the days ahead, as its field holds them (text) or as the API gets them (a number), in the
 * schema's words (model.ts uses it); null when it is a whole number from 1 to 30.
 */
export function daysAheadProblem(value: number | string): string | null {
	if (typeof value === 'string' && value.trim() === '') return 'Informe os dias de antecedência, de 1 a 30.'
	const days = typeof value === 'number' ? value : Number(value)
	if (!Number.isInteger(days)) return 'Dias de antecedência deve ser um número inteiro.'
	return days < DAYS_AHEAD.min || days > DAYS_AHEAD.max ? 'Dias de antecedência: de 1 a 30.' : null
}

const SEND_TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/

/** What is wrong with a send time (HH:MM or HH:MM:SS), in the schema's words; null when it is one. */
export function sendTimeProblem(value: string): string | null {
	if (value.trim() === '') return 'Informe o horário de envio.'
	return SEND_TIME.test(value) ? null : 'Horário de envio inválido: use HH:MM:SS, de 00:00:00 a 23:59:59.'
}

/** A template with its variables filled in: the message a client receives (the live preview renders the same). */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
	return template.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole))
}
