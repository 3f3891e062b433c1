import { cnpjField, passwordField, z } from '../core/validators'
import { ROLES } from '../core/roles'

export const LoginBody = z.object({
	cnpj: cnpjField,
	senha: passwordField
})
export type LoginBody = z.infer<typeof LoginBody>

export const SessionUser = z.object({
	id: z.number(),
	cnpj: z.string(),
	nome: z.string(),
	email: z.string().nullable(),
	tipo: z.enum(ROLES)
})
export type SessionUser = z.infer<typeof SessionUser>
