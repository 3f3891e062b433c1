import {
	MessageResponse,
	PASSWORD_MESSAGES,
	ROLES,
	cnpjField,
	contract,
	csvExportContract,
	newPasswordField,
	optionalEmailField,
	passwordUsesCnpj,
	requiredText,
	searchField,
	sortFields,
	z,
	deleteByIdContract
} from '../core'
import { USER_SORTS } from './reads'

/** Stored for managers only (2-administration §3.7); kept as given. */
const representanteIdField = z
	.union([z.null(), z.string().trim().max(50, 'Representante: no máximo 50 caracteres.')], {
		error: 'Representante: escreva um texto.'
	})
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

/** The user's own CNPJ is no password (issue 13): checked once both fields have passed their own rules. */
const notTheCnpj = (v: { cnpj: string; senha: string | null }) => !v.senha || !passwordUsesCnpj(v.senha, v.cnpj)
const cnpjRefusal = { message: PASSWORD_MESSAGES.cnpj, path: ['senha'] }

/** POST /api/users: the password is required (at least 6 characters, not common, not the CNPJ). */
export const UserCreate = z.object({ ...userFields, senha: newPasswordField }).refine(notTheCnpj, cnpjRefusal)
export type UserCreate = z.infer<typeof UserCreate>

/** PUT /api/users/{id}: a blank or absent password keeps the current one. */
export const UserUpdate = z
	.object({
		...userFields,
		senha: z
			.union([z.literal(''), z.null(), newPasswordField], { error: 'A nova senha deve ter pelo menos 6 caracteres' })
			.optional()
			.transform((v) => (v ? v : null))
	})
	.refine(notTheCnpj, cnpjRefusal)
export type UserUpdate = z.infer<typeof UserUpdate>

export const ProfileUpdate = z.object({ nome: requiredText('Nome', 200), email: optionalEmailField })
export type ProfileUpdate = z.infer<typeof ProfileUpdate>

export const ChangePasswordBody = z.object({
	currentPassword: z
		.string({ error: 'Todos os campos são obrigatórios' })
		.min(1, 'Todos os campos são obrigatórios')
		.max(256, 'Senha muito longa (máximo 256 caracteres).'),
	newPassword: newPasswordField
})
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>

/** Search by name, CNPJ or e-mail, and the order. */
export const UserListQuery = z.object({ search: searchField, ...sortFields(USER_SORTS, 'nome') })
export type UserListQuery = z.infer<typeof UserListQuery>

/** A user as the API returns it (2-administration §3.7) plus `ativo`; never the password hash. */
export const UserView = z.object({
	id: z.number(),
	cnpj: z.string(),
	nome: z.string(),
	tipo: z.enum(ROLES),
	representante_id: z.string().nullable(),
	email: z.string().nullable(),
	ativo: z.boolean(),
	created_at: z.string()
})
export type UserView = z.infer<typeof UserView>

export const listUsersRoute = contract({
	method: 'GET',
	path: '/api/users',
	query: UserListQuery,
	response: z.array(UserView),
	summary: 'Usuários, com busca por nome, CNPJ ou e-mail'
})
export const exportUsersRoute = csvExportContract(
	'/api/users/export',
	UserListQuery,
	'Os usuários da lista filtrada, em CSV para planilhas'
)
export const createUserRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/users',
	body: UserCreate,
	response: UserView,
	summary: 'Cria um usuário'
})
export const updateUserRoute = contract({
	method: 'PUT',
	path: '/api/users/:id',
	body: UserUpdate,
	response: UserView,
	summary: 'Atualiza um usuário; senha em branco mantém a atual'
})
export const deleteUserRoute = deleteByIdContract('/api/users/:id', 'Exclui um usuário', 'Usuário excluído com sucesso.')
export const ownAccountRoute = contract({
	method: 'GET',
	path: '/api/users/me',
	response: UserView,
	summary: 'A conta do usuário conectado'
})
export const updateProfileRoute = contract({
	method: 'PUT',
	path: '/api/users/me',
	body: ProfileUpdate,
	response: UserView,
	summary: 'O usuário altera seu nome e e-mail'
})
export const changePasswordRoute = contract({
	method: 'POST',
	path: '/api/users/change-password',
	body: ChangePasswordBody,
	response: MessageResponse,
	summary: 'O usuário troca a própria senha; suas outras sessões terminam'
})
