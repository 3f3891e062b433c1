import { MessageResponse, ROLES, cnpjField, contract, passwordField, z } from '../core'

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

export const SessionAnswer = z.object({ user: SessionUser, session: z.object({ expiresAt: z.string() }) })

export const loginRoute = contract({
	method: 'POST',
	path: '/api/auth/login',
	body: LoginBody,
	response: SessionAnswer,
	summary: 'Entra com CNPJ e senha; o cookie de sessão vem na resposta'
})
export const logoutRoute = contract({ method: 'POST', path: '/api/auth/logout', response: MessageResponse, summary: 'Encerra a sessão' })
export const meRoute = contract({
	method: 'GET',
	path: '/api/auth/me',
	response: SessionAnswer,
	summary: 'O usuário da sessão (401 sem sessão)'
})
export const renewRoute = contract({
	method: 'POST',
	path: '/api/auth/renew',
	response: z.object({ session: z.object({ expiresAt: z.string().nullable() }) }),
	summary: 'Renova o tempo de inatividade da sessão'
})

/** One line of refused authorisations: a caller, a route and a status, with how often and on which records. */
export const AccessRefusal = z.object({
	who: z.string(),
	ip: z.string(),
	method: z.string(),
	route: z.string(),
	status: z.number(),
	count: z.number(),
	/** The most recent records asked for, newest first. */
	records: z.array(z.string()),
	distinctRecords: z.number(),
	firstAt: z.string(),
	lastAt: z.string()
})
export type AccessRefusal = z.infer<typeof AccessRefusal>

export const refusalsRoute = contract({
	method: 'GET',
	path: '/api/auth/refusals',
	response: z.object({ refusals: z.array(AccessRefusal) }),
	summary: 'Acessos recusados (401, 403 e 404 de registros fora do escopo) nas últimas 24 horas, por todas as instâncias, agrupados'
})
