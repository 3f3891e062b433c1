import { formatCnpj, isValidCnpj, normalizeCnpj } from './cnpj'

/**
 * The PIX key the bot offers (3-billing-messaging §5 'Bot PIX key'): one classifier for the server's validation of
 * `bot_chave_pix` and the live check of /configuracoes-bot. After stripping spaces a key is an e-mail, a CPF or a
 * CNPJ with valid check digits (all-equal digits refused), a phone, or a random key (EVP: a UUID, with or without its
 * dashes); anything else is invalid, and so is any key holding a control or format character (NUL, bidi overrides).
 */
export type PixKeyType = 'email' | 'cpf' | 'cnpj' | 'telefone' | 'aleatoria'

export type PixKeyCheck =
	| { valid: true; type: PixKeyType; label: string /** The key as shown to the client. */; formatted: string }
	| { valid: false; message: string }

export const PIX_KEY_LABELS: Record<PixKeyType, string> = {
	email: 'E-mail',
	cpf: 'CPF',
	cnpj: 'CNPJ',
	telefone: 'Telefone',
	aleatoria: 'Chave aleatória'
}

export const PIX_KEY_REQUIRED = 'Campo obrigatório - A chave PIX é obrigatória'
export const PIX_KEY_INVALID = 'Chave PIX inválida - Por favor, insira uma chave PIX válida (CPF, CNPJ, email, telefone ou chave aleatória)'
export const PIX_KEY_INVALID_HINT = '✗ Formato inválido. Use CPF, CNPJ, email, telefone ou chave aleatória.'
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const HEX32 = /^[0-9a-f]{32}$/i
/** Digits with the punctuation a CPF, CNPJ or phone is typed with. */
const NUMERIC = /^[\d.\-/()+]+$/
/** +55 (85) 99999-0001, 55 85 9999 0001, (85) 3333-4444 … (spaces already stripped). */
const BR_PHONE = /^(\+?55)?\(?[1-9]{2}\)?9?\d{4}-?\d{4}$/

function isValidCpf(digits: string): boolean {
	if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false
	const check = (length: number) => {
		let sum = 0
		for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i)
		const rest = (sum * 10) % 11
		return rest === 10 ? 0 : rest
	}
	return check(9) === Number(digits[9]) && check(10) === Number(digits[10])
}

/** A Brazilian phone of 10 to 13 digits (DDD + 8 or 9 digits, with or without 55) → +55 (DD) NNNNN-NNNN. */
function phone(digits: string): string | null {
	const d = digits.length === 10 || digits.length === 11 ? `55${digits}` : digits
	const m = /^55([1-9]{2})(9?\d{4})(\d{4})$/.exec(d)
	if (!m) return null
	// 11 local digits must be a mobile (9 first); 10 local digits a landline or an old mobile.
	if (m[2].length === 5 && m[2][0] !== '9') return null
	return `+55 (${m[1]}) ${m[2]}-${m[3]}`
}

const ok = (type: PixKeyType, formatted: string): PixKeyCheck => ({ valid: true, type, label: PIX_KEY_LABELS[type], formatted })

export function classifyPixKey(input: string): PixKeyCheck {
	const key = input.replace(/\s+/g, '')
	if (key === '') return { valid: false, message: PIX_KEY_REQUIRED }
	const invalid: PixKeyCheck = { valid: false, message: PIX_KEY_INVALID }
	if (/[\p{Cc}\p{Cf}]/u.test(key)) return invalid
	if (EMAIL.test(key)) return ok('email', key.toLowerCase())
	if (NUMERIC.test(key)) {
		const digits = key.replace(/\D/g, '')
		if (/^(\d)\1+$/.test(digits)) return invalid
		if (!key.startsWith('+') && isValidCpf(digits))
			return ok('cpf', `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`)
		if (digits.length === 14) return isValidCnpj(digits) ? ok('cnpj', formatCnpj(digits)) : invalid
		const asPhone = digits.length >= 10 && digits.length <= 13 && BR_PHONE.test(key) ? phone(digits) : null
		return asPhone ? ok('telefone', asPhone) : invalid
	}
	if (UUID.test(key) || HEX32.test(key)) return ok('aleatoria', key.toLowerCase())
	if (/^[0-9A-Za-z.\-/]{14,18}$/.test(key) && isValidCnpj(key)) return ok('cnpj', formatCnpj(normalizeCnpj(key)))
	return invalid
}

/** The inline hint under the field: '✓ Chave PIX válida (tipo): formatted' or the invalid-format line. */
export function pixKeyHint(check: PixKeyCheck): string {
	return check.valid ? `✓ Chave PIX válida (${check.label}): ${check.formatted}` : PIX_KEY_INVALID_HINT
}
