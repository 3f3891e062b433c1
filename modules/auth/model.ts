import { cnpjField, newPasswordField, optionalEmailField, passwordField, requiredText, z, ROLES } from '../core'

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

/** Stored for managers only (2-administration §3.7); kept as given. */
const representanteIdField = z
	.union([z.null(), z.string().trim().max(50, 'Representante: no máximo 50 caracteres.')])
	.optional()
	.transform((v) => (v ? v : null))

const userFields = {
	cnpj: cnpjField,
	nome: requiredText('Nome', 200),
	tipo: z.enum(ROLES, { error: 'Tipo inválido: use administrador, gerente ou representante.' }),
	representante_id: representanteIdField,
	email: optionalEmailField,
	ativo: z.boolean({ error: 'Ativo deve ser verdadeiro ou falso.' }).optional()
}

/** POST /api/users: the password is required (at least 6 characters). */
export const UserCreate = z.object({ ...userFields, senha: newPasswordField })
export type UserCreate = z.infer<typeof UserCreate>

/** PUT /api/users/{id}: a blank or absent password keeps the current one. */
export const UserUpdate = z.object({
	...userFields,
	senha: z
		.union([z.literal(''), z.null(), newPasswordField])
		.optional()
		.transform((v) => (v ? v : null))
})
export type UserUpdate = z.infer<typeof UserUpdate>

export const ProfileUpdate = z.object({ nome: requiredText('Nome', 200), email: optionalEmailField })
export type ProfileUpdate = z.infer<typeof ProfileUpdate>

export const ChangePasswordBody = z.object({
	currentPassword: z.string({ error: 'Todos os campos são obrigatórios' }).min(1, 'Todos os campos são obrigatórios').max(256, 'Senha muito longa (máximo 256 caracteres).'),
	newPassword: newPasswordField
})
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>

export const UserListQuery = z.object({
	search: z.string().max(100, 'A busca aceita no máximo 100 caracteres.').optional().transform((v) => v?.trim() ?? '')
})

/** A user as the API returns it (2-administration §3.7) plus `ativo`; never the password hash. */
export interface UserView {
	id: number
	cnpj: string
	nome: string
	tipo: (typeof ROLES)[number]
	representante_id: string | null
	email: string | null
	ativo: boolean
	created_at: string
}
