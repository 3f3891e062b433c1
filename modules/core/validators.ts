import { z } from 'zod'
import { isValidCnpj, normalizeCnpj } from './cnpj'
import { isIsoDate } from './dates'
import { UFS } from './uf'
import { isHttpUrl } from './url'

// zod's own messages in Portuguese for anything a schema does not word itself.
z.config(z.locales.pt())

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
	.max(256, 'Senha muito longa (máximo 256 caracteres).')

export const newPasswordField = z
	.string({ error: 'Senha é obrigatória.' })
	.min(6, 'A nova senha deve ter pelo menos 6 caracteres')
	.max(256, 'Senha muito longa (máximo 256 caracteres).')

export const optionalEmailField = z
	.union([z.literal(''), z.email('E-mail inválido.').max(200, 'E-mail muito longo.')])
	.nullish()
	.transform((v) => (v ? v.toLowerCase() : null))

export { z }


/** A date as YYYY-MM-DD (a longer ISO string is cut to its date). */
export const dateField = z
	.string({ error: 'Data inválida: use o formato AAAA-MM-DD.' })
	.transform((v) => v.slice(0, 10))
	.refine(isIsoDate, 'Data inválida: use o formato AAAA-MM-DD.')

/** An optional date: empty or null clears it. */
export const optionalDateField = z
	.string({ error: 'Data inválida: use o formato AAAA-MM-DD.' })
	.nullish()
	.transform((v) => (v ? v.slice(0, 10) : null))
	.refine((v) => v === null || isIsoDate(v), 'Data inválida: use o formato AAAA-MM-DD.')

export const flagField = z.enum(['S', 'N'], { error: 'Use S ou N.' })

/** Reais with at most 2 decimals, ≥ 0, stored as centavos. */
export const moneyField = z
	.number({ error: 'Valor deve ser um número.' })
	.min(0, 'O valor não pode ser negativo.')
	.max(99_999_999, 'Valor muito alto.')
	.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Use no máximo 2 casas decimais.')
	.transform((v) => Math.round(v * 100))

/** An optional text field normalised by `clean`, empty → null, then checked by `valid`. */
function optionalText(clean: (v: string) => string, valid: (v: string) => boolean, message: string) {
	return z
		.string({ error: message })
		.nullish()
		.transform((v) => (v?.trim() ? clean(v.trim()) : null))
		.refine((v) => v === null || valid(v), message)
}

export const ufField = optionalText((v) => v.toUpperCase(), (v) => (UFS as readonly string[]).includes(v), 'UF inválida.')

/** CEP with or without the mask, stored as 00000-000. */
export const cepField = optionalText(
	(v) => {
		const d = v.replace(/\D/g, '')
		return d.length === 8 ? `${d.slice(0, 5)}-${d.slice(5)}` : v
	},
	(v) => /^\d{5}-\d{3}$/.test(v),
	'CEP inválido: use 8 dígitos.'
)

/** Brazilian phone with DDD (10 or 11 digits, optionally with 55), stored as digits. */
export const phoneField = optionalText((v) => v.replace(/\D/g, ''), (v) => /^(55)?\d{10,11}$/.test(v), 'Telefone inválido: informe DDD e número.')

export const urlField = optionalText(
	(v) => v,
	(v) => isHttpUrl(v) && v.length <= 500,
	'Link inválido: use um endereço http(s) completo.'
)

export const textField = (label: string, max: number) =>
	z
		.union([z.null(), z.string().max(max, `${label}: no máximo ${max} caracteres.`)])
		.optional()
		.transform((v) => (v?.trim() ? v.trim() : null))

export const requiredText = (label: string, max: number) =>
	z
		.string({ error: `${label} é obrigatório.` })
		.trim()
		.min(1, `${label} é obrigatório.`)
		.max(max, `${label}: no máximo ${max} caracteres.`)

/** A numeric route parameter (:id). */
export const IdParams = z.object({
	id: z
		.string()
		.regex(/^[1-9]\d{0,15}$/, 'Identificador inválido.')
		.transform(Number)
})

/** The postal address and phone of a company or a representative (1-core §5), the same rules for both forms. */
export const addressFields = {
	endereco: textField('Endereço', 200),
	bairro: textField('Bairro', 100),
	cidade: textField('Cidade', 100),
	uf: ufField,
	cep: cepField,
	fone: phoneField
}
