import { z } from 'zod'
import { isValidCnpj, normalizeCnpj } from './cnpj'

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
