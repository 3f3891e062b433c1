import { z } from 'zod'
import { isValidCnpj, normalizeCnpj } from './cnpj'
import { isIsoDate } from './dates'

// zod's own messages in Portuguese for anything a schema does not word itself.
z.config(z.locales.pt())

/** A CNPJ field: accepts the mask or bare characters, checks the digits, yields the normalised form. */
export const cnpjField = z
	.string({ error: 'CNPJ é obrigatório.' })
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

export const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'] as const

/** A date as YYYY-MM-DD (a longer ISO string is cut to its date). */
export const dateField = z
	.string({ error: 'Data inválida: use o formato AAAA-MM-DD.' })
	.transform((v) => v.slice(0, 10))
	.refine(isIsoDate, 'Data inválida: use o formato AAAA-MM-DD.')

/** An optional date: empty or null clears it. */
export const optionalDateField = z
	.union([z.literal(''), z.null(), dateField])
	.optional()
	.transform((v) => (v ? v : null))

export const flagField = z.enum(['S', 'N'], { error: 'Use S ou N.' })

/** Reais with at most 2 decimals, ≥ 0, stored as centavos. */
export const moneyField = z
	.number({ error: 'Valor deve ser um número.' })
	.min(0, 'O valor não pode ser negativo.')
	.max(99_999_999, 'Valor muito alto.')
	.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Use no máximo 2 casas decimais.')
	.transform((v) => Math.round(v * 100))

export const ufField = z
	.union([z.literal(''), z.null(), z.string().transform((v) => v.toUpperCase()).pipe(z.enum(UFS, { error: 'UF inválida.' }))])
	.optional()
	.transform((v) => v || null)

/** CEP with or without the mask, stored as 00000-000. */
export const cepField = z
	.union([z.literal(''), z.null(), z.string().transform((v) => v.replace(/\D/g, '')).refine((v) => v.length === 8, 'CEP inválido: use 8 dígitos.')])
	.optional()
	.transform((v) => (v ? `${v.slice(0, 5)}-${v.slice(5)}` : null))

/** Brazilian phone with DDD (10 or 11 digits, optionally with 55), stored as digits. */
export const phoneField = z
	.union([
		z.literal(''),
		z.null(),
		z
			.string()
			.transform((v) => v.replace(/\D/g, ''))
			.refine((v) => /^(55)?\d{10,11}$/.test(v), 'Telefone inválido: informe DDD e número.')
	])
	.optional()
	.transform((v) => v || null)

export const urlField = z
	.union([z.literal(''), z.null(), z.url({ protocol: /^https?$/, error: 'Link inválido: use um endereço http(s) completo.' }).max(500)])
	.optional()
	.transform((v) => v || null)

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
export const IdParams = z.object({ id: z.coerce.number({ error: 'Identificador inválido.' }).int('Identificador inválido.').positive('Identificador inválido.') })
