/**
 * What a person types into a phone or a WhatsApp form, read without the schema library: validators.ts builds the API's
 * fields on these functions, and the WhatsApp forms' islands check with them before sending, so the words beside a
 * field are the API's own. The islands must not check with a model's schema instead: the bot's pages share a module
 * that imports modules/bot/model, so a schema used there would bring validators.ts and zod into the chunk every page
 * loads first (issue 15; issue 34's first try did so).
 */

/** What a phone may hold besides its digits: spaces and + ( ) -. Anything else is refused. */
export const PHONE_CHARACTERS_MESSAGE = 'Telefone inválido: use só números, espaços e os sinais + ( ) -.'

/**
 * The digits of a phone as typed, or null when it holds anything but digits, spaces and + ( ) -: a letter or a NUL is
 * refused, never dropped ('55859876543O1' is not 5585998765431). The one reading of a typed phone.
 */
export function phoneDigits(typed: string): string | null {
	return /^[\d +()-]*$/.test(typed) ? typed.replace(/\D/g, '') : null
}

export interface PhoneRule {
	required: string
	invalid: string
	valid: (digits: string) => boolean
}

/** What is wrong with a phone as typed (trimmed) under `rule`, or null: the one phone check of the API and the screens. */
export function phoneProblem(typed: string, rule: PhoneRule): string | null {
	const digits = phoneDigits(typed.trim())
	if (digits === null) return PHONE_CHARACTERS_MESSAGE
	if (digits === '') return rule.required
	return rule.valid(digits) ? null : rule.invalid
}

/** What every WhatsApp phone field says under it: the same words as its check (whatsappPhoneField). */
export const WHATSAPP_PHONE_HINT = 'DDD e número, com ou sem o 55: (85) 98103-9595, 85981039595 ou 5585981039595.'
export const WHATSAPP_PHONE_INVALID = 'Telefone inválido: informe DDD e número, com ou sem o 55 (ex.: (85) 98103-9595).'
export const WHATSAPP_PHONE_REQUIRED = 'Informe o telefone.'

/**
 * A Brazilian WhatsApp number from its digits (with or without 55, a leading 0 dropped) → `55DD9NNNNNNNN` for a mobile
 * (the ninth digit restored when missing) or `55DDNNNNNNNN` for a landline; null if it is neither. The one reading of
 * a number a message goes to: the forms' field and the gateway's webhook both read through it.
 */
export function whatsappNumber(typed: string): string | null {
	let d = typed.replace(/\D/g, '').replace(/^0+/, '')
	if (d.length === 10 || d.length === 11) d = `55${d}`
	if (!/^55[1-9]{2}\d{8,9}$/.test(d)) return null
	const local = d.slice(4)
	if (local.length === 9) return local[0] === '9' ? d : null
	if (/^[6-9]/.test(local)) return `${d.slice(0, 4)}9${local}`
	return /^[2-5]/.test(local) ? d : null
}

/** The rule of every WhatsApp form's phone. */
export const WHATSAPP_PHONE_RULE: PhoneRule = {
	required: WHATSAPP_PHONE_REQUIRED,
	invalid: WHATSAPP_PHONE_INVALID,
	valid: (digits) => whatsappNumber(digits) !== null
}

/** What is wrong with a WhatsApp phone as typed, in whatsappPhoneField's words; null when it is a number. */
export const whatsappPhoneProblem = (typed: string) => phoneProblem(typed, WHATSAPP_PHONE_RULE)

export const MESSAGE_REQUIRED = 'Escreva a mensagem.'
export const MESSAGE_MAX = 4000

/** What is wrong with a WhatsApp message typed in a form (blank, or over 4,000 characters once trimmed); null when none. */
export function typedMessageProblem(text: string): string | null {
	const trimmed = text.trim()
	if (trimmed.length === 0) return MESSAGE_REQUIRED
	return trimmed.length > MESSAGE_MAX ? 'Mensagem: no máximo 4.000 caracteres.' : null
}

/**
 * What is wrong with a WhatsApp form's phone and message (the gateway's test, the bot's test, the attendant's answer),
 * by field, in the API's words: each field that has a problem, none when the form may be sent.
 */
export function whatsappMessageProblems(form: { phone: string; message: string }): { phone?: string; message?: string } {
	const phone = whatsappPhoneProblem(form.phone)
	const message = typedMessageProblem(form.message)
	return { ...(phone && { phone }), ...(message && { message }) }
}
