import { z } from 'zod'
import { isValidCnpj, normalizeCnpj } from './cnpj'
import { PASSWORD_MESSAGES, isCommonPassword } from './passwords'
import { PASSWORD_RULES } from './policy'
import { isIsoDate } from './dates'
import { UFS } from './uf'
import { isHttpUrl } from './url'
import {
	MESSAGE_REQUIRED,
	type PhoneRule,
	WHATSAPP_PHONE_REQUIRED,
	WHATSAPP_PHONE_RULE,
	phoneDigits,
	phoneProblem,
	typedMessageProblem,
	whatsappNumber
} from './typed-input'

const TYPE_NAMES: Record<string, string> = {
	string: 'texto',
	number: 'número',
	int: 'número inteiro',
	boolean: 'verdadeiro ou falso',
	array: 'lista',
	object: 'objeto',
	date: 'data'
}
const UNITS: Record<string, [string, string]> = { string: ['caractere', 'caracteres'], array: ['item', 'itens'], set: ['item', 'itens'] }
const sized = (n: number | bigint, origin: string) => {
	const unit = UNITS[origin]
	return unit ? `${n} ${Number(n) === 1 ? unit[0] : unit[1]}` : String(n)
}

/**
 * zod's messages in Brazilian Portuguese, for anything a schema does not word itself (zod ships only European
 * Portuguese). The field's name is added by the error handler.
 */
const brazilianMessages: z.core.$ZodErrorMap = (issue) => {
	switch (issue.code) {
		case 'invalid_type':
			if (issue.input === undefined) return 'campo obrigatório.'
			return `valor inválido: envie ${TYPE_NAMES[issue.expected] ?? issue.expected}.`
		case 'too_big':
			if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set')
				return `no máximo ${sized(issue.maximum, issue.origin)}.`
			return issue.inclusive ? `deve ser no máximo ${issue.maximum}.` : `deve ser menor que ${issue.maximum}.`
		case 'too_small':
			if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'campo obrigatório.'
			if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set')
				return `pelo menos ${sized(issue.minimum, issue.origin)}.`
			return issue.inclusive ? `deve ser no mínimo ${issue.minimum}.` : `deve ser maior que ${issue.minimum}.`
		case 'invalid_value':
			return issue.values.length === 1
				? `use ${JSON.stringify(issue.values[0])}.`
				: `use um destes valores: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`
		case 'invalid_format':
			return issue.format === 'email' ? 'e-mail inválido.' : 'formato inválido.'
		case 'not_multiple_of':
			return `deve ser múltiplo de ${issue.divisor}.`
		case 'unrecognized_keys':
			return `campo${issue.keys.length > 1 ? 's' : ''} não permitido${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`
		default:
			return 'valor inválido.'
	}
}
z.config({ localeError: brazilianMessages })

/** A CNPJ field: accepts the mask or bare characters, checks the digits, yields the normalised form. */
export const cnpjField = z
	.string({ error: (issue) => (issue.input === undefined ? 'CNPJ é obrigatório.' : 'CNPJ inválido: envie o CNPJ como texto.') })
	.max(32, 'CNPJ inválido.')
	.transform(normalizeCnpj)
	.refine((v) => v.length > 0, 'CNPJ é obrigatório.')
	.refine(isValidCnpj, 'CNPJ inválido: verifique os dígitos.')

export const passwordField = z
	.string({ error: 'Senha é obrigatória.' })
	.min(1, 'Senha é obrigatória.')
	.max(PASSWORD_RULES.maxLength, `Senha muito longa (máximo ${PASSWORD_RULES.maxLength} caracteres).`)

/** A password being set: at least 6 characters (2-administration §5.6), not a common one. The CNPJ check needs the user: see passwordUsesCnpj. */
export const newPasswordField = z
	.string({ error: 'Senha é obrigatória.' })
	.min(PASSWORD_RULES.minLength, `A nova senha deve ter pelo menos ${PASSWORD_RULES.minLength} caracteres`)
	.max(PASSWORD_RULES.maxLength, `Senha muito longa (máximo ${PASSWORD_RULES.maxLength} caracteres).`)
	.refine((v) => !isCommonPassword(v), PASSWORD_MESSAGES.common)

export const optionalEmailField = z
	.union([z.literal(''), z.email('E-mail inválido.').max(200, 'E-mail muito longo.')], { error: 'E-mail inválido.' })
	.nullish()
	.transform((v) => (v ? v.toLowerCase() : null))

export { z }

const DATE_MESSAGE = 'Data inválida: use o formato AAAA-MM-DD.'

/** A date written exactly YYYY-MM-DD: trailing text or a time is refused, never cut off. */
export const dateField = z.string({ error: DATE_MESSAGE }).refine(isIsoDate, DATE_MESSAGE)

/**
 * A date another system sent (Asaas' dueDate, paymentDate, …), checked before it is stored: the value when it is a real
 * calendar date written exactly YYYY-MM-DD, else null (2026-02-30, 2026-2-3, 2026-02-03T00:00, 20260203, null).
 */
export function readCalendarDate(value: unknown): string | null {
	return typeof value === 'string' && isIsoDate(value) ? value : null
}

/** An optional date: empty or null clears it. */
export const optionalDateField = z
	.string({ error: DATE_MESSAGE })
	.nullish()
	.transform((v) => v || null)
	.refine((v) => v === null || isIsoDate(v), DATE_MESSAGE)

export const flagField = z.enum(['S', 'N'], { error: 'Use S ou N.' })

/** Reais with at most 2 decimals, ≥ 0, stored as centavos. */
export const moneyField = z
	.number({ error: 'Valor deve ser um número.' })
	.min(0, 'O valor não pode ser negativo.')
	.max(99_999_999, 'Valor muito alto.')
	.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Use no máximo 2 casas decimais.')
	.transform((v) => Math.round(v * 100))

/** A decimal as a form's text field sends it: digits, and at most 2 decimals after a dot or a comma. */
const DECIMAL_TEXT = /^\d+([.,]\d{1,2})?$/

/**
 * A number a client sends: a JSON number, or a plain decimal written as text where a form sends one ("150",
 * "150,5", "150.50"). Nothing else is read as a number: "1e3", " 10", "0x10", [100] and true are refused with
 * `invalid` (absent: `required`). The one rule for numeric body fields; the field's own bounds follow it.
 */
export const numberInput = (required: string, invalid: string) =>
	z.union(
		[
			z.number(),
			z
				.string()
				.regex(DECIMAL_TEXT)
				.transform((v) => Number(v.replace(',', '.')))
		],
		{
			error: (issue) => (issue.input === undefined ? required : invalid)
		}
	)

/** An optional text field normalised by `clean`, empty → null, then checked by `valid`. */
function optionalText(clean: (v: string) => string, valid: (v: string) => boolean, message: string) {
	return z
		.string({ error: message })
		.nullish()
		.transform((v) => (v?.trim() ? clean(v.trim()) : null))
		.refine((v) => v === null || valid(v), message)
}

export const ufField = optionalText(
	(v) => v.toUpperCase(),
	(v) => (UFS as readonly string[]).includes(v),
	'UF inválida.'
)

/** CEP with or without the mask, stored as 00000-000. */
export const cepField = optionalText(
	(v) => {
		const d = v.replace(/\D/g, '')
		return d.length === 8 ? `${d.slice(0, 5)}-${d.slice(5)}` : v
	},
	(v) => /^\d{5}-\d{3}$/.test(v),
	'CEP inválido: use 8 dígitos.'
)

/**
 * The one phone validator: phoneProblem (typed-input.ts, shared with the screens) on the phone as typed; the digits it
 * read. Every phone field of the API (phoneField, whatsappPhoneField, typedPhoneField) reads through it.
 */
function readPhone(typed: string, rule: PhoneRule, ctx: z.core.$RefinementCtx<unknown>): string {
	const problem = phoneProblem(typed, rule)
	if (problem) ctx.addIssue({ code: 'custom', message: problem })
	return phoneDigits(typed.trim()) ?? ''
}

const addressPhone: PhoneRule = {
	required: 'Telefone inválido: informe DDD e número.',
	invalid: 'Telefone inválido: informe DDD e número.',
	valid: (d) => /^(55)?\d{10,11}$/.test(d)
}

/** Brazilian phone with DDD (10 or 11 digits, optionally with 55), stored as digits; blank → null. */
export const phoneField = z
	.string({ error: addressPhone.invalid })
	.nullish()
	.transform((v, ctx) => (v?.trim() ? readPhone(v.trim(), addressPhone, ctx) : null))

export const urlField = optionalText(
	(v) => v,
	(v) => isHttpUrl(v) && v.length <= 500,
	'Link inválido: use um endereço http(s) completo.'
)

/**
 * Characters no free text may hold: NUL and the other control characters (line breaks and tabs are text) and the
 * bidirectional overrides and isolates, which make a name display as something else than it is.
 */
const FORBIDDEN_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/
const FORBIDDEN_IN_TEXT_GLOBAL = new RegExp(FORBIDDEN_IN_TEXT.source, 'g')

export const hasForbiddenCharacters = (value: string) => FORBIDDEN_IN_TEXT.test(value)
/** For what other systems report about themselves (a computer's name): the forbidden characters are dropped, not refused. */
export const withoutForbiddenCharacters = (value: string) => value.replace(FORBIDDEN_IN_TEXT_GLOBAL, '')
const forbiddenMessage = (label: string) => `${label}: contém caracteres não permitidos (de controle ou de direção do texto).`

/** An optional free-text field: trimmed, empty → null. */
export const textField = (label: string, max: number) =>
	z
		.union([z.null(), z.string().max(max, `${label}: no máximo ${max} caracteres.`)], { error: `${label}: escreva um texto.` })
		.optional()
		.refine((v) => !v || !hasForbiddenCharacters(v), forbiddenMessage(label))
		.transform((v) => (v?.trim() ? v.trim() : null))

/** A required free-text field, trimmed; `required` words its absence when the label's gender asks ('obrigatória'). */
export const requiredText = (label: string, max: number, required = `${label} é obrigatório.`) =>
	z
		.string({ error: required })
		.trim()
		.min(1, required)
		.max(max, `${label}: no máximo ${max} caracteres.`)
		.refine((v) => !hasForbiddenCharacters(v), forbiddenMessage(label))

/** What maskSealed shows for a saved secret (dots, then a hint): sent back unchanged, it keeps the saved one. */
const MASKED_SECRET = /^•+[\x21-\x7E]*$/

/**
 * An API key or token (Asaas, Evolution, webhook tokens): printable ASCII without spaces, trimmed; blank clears it; a
 * masked value sent back unchanged is let through for the service to keep the saved one. A NUL, a bidi override or
 * any other control, format or non-ASCII character is refused. The one rule for every key and token field.
 */
export const credentialField = (label: string, max = 500) =>
	z
		.string({ error: `${label}: escreva um texto.` })
		.transform((v) => v.trim())
		.refine((v) => v.length <= max, `${label}: no máximo ${max} caracteres.`)
		.refine(
			(v) => v === '' || MASKED_SECRET.test(v) || /^[\x21-\x7E]+$/.test(v),
			`${label}: use só letras, números e símbolos ASCII visíveis, sem espaços nem caracteres de controle.`
		)

/** A numeric route parameter (`:id`, `:codigo`): digits in the path, a number to the handler. */
export const numericId = z
	.string()
	.regex(/^[1-9]\d{0,15}$/, 'Identificador inválido.')
	.transform(Number)

/** The postal address and phone of a company or a representative (1-core §5), the same rules for both forms. */
export const addressFields = {
	endereco: textField('Endereço', 200),
	bairro: textField('Bairro', 100),
	cidade: textField('Cidade', 100),
	uf: ufField,
	cep: cepField,
	fone: phoneField
}

/** The same address and phone as the API shows them: each part as stored, null when blank. */
export const addressView = Object.fromEntries(Object.keys(addressFields).map((key) => [key, z.string().nullable()])) as {
	[K in keyof typeof addressFields]: z.ZodNullable<z.ZodString>
}

/**
 * A phone typed by hand, required, as its digits: from 10 to 15 of them, a foreign number too (a bot conversation's
 * phone, to resume it). A phone a WhatsApp form sends to is a whatsappPhoneField.
 */
export const typedPhoneField = (required: string, invalid: string) =>
	z
		.string({ error: required })
		.transform((v, ctx) => readPhone(v.trim(), { required, invalid, valid: (d) => d.length >= 10 && d.length <= 15 }, ctx))

/**
 * The phone of every WhatsApp form (carnê and parcel sends, the gateway's test send, the bot's test, the attendant's
 * answer, the rehearsal): typed as people write it, checked by whatsappPhoneProblem (typed-input.ts, which the
 * screens check with too), normalised to 55 + DDD + number.
 */
export const whatsappPhoneField = z
	.string({
		error: (issue) => (issue.input === undefined ? WHATSAPP_PHONE_REQUIRED : 'Telefone inválido: envie o telefone como texto.')
	})
	.transform((v, ctx) => {
		const digits = readPhone(v, WHATSAPP_PHONE_RULE, ctx)
		return whatsappNumber(digits) ?? digits
	})

/** A WhatsApp message typed in a form: trimmed, required, at most 4,000 characters (typedMessageProblem's words). */
export const typedMessageField = z
	.string({ error: (issue) => (issue.input === undefined ? MESSAGE_REQUIRED : 'Mensagem inválida: envie o texto da mensagem.') })
	.transform((v) => v.trim())
	.superRefine((v, ctx) => {
		const problem = typedMessageProblem(v)
		if (problem) ctx.addIssue({ code: 'custom', message: problem })
	})

/** The figures of a summary (its cards, its totals), each a number: `figures('total', 'pagas')`. */
export const figures = <const K extends string>(...names: K[]) =>
	z.object(Object.fromEntries(names.map((name) => [name, z.number()])) as Record<K, z.ZodNumber>)

/** The answer of most writes: what happened, in words for a toast. */
export const MessageResponse = z.object({ message: z.string() })

/** The answer of a write that says what happened and hands back more: `{ message, …fields }`. */
export const withMessage = <const S extends z.ZodRawShape>(fields: S) => MessageResponse.extend(fields)
