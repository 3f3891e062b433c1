/** An expected failure with the HTTP status and the pt-BR message the client shows. */
export class AppError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly code?: string,
		readonly headers?: Record<string, string>
	) {
		super(message)
		this.name = 'AppError'
	}
}

export const badRequest = (message: string, code?: string) => new AppError(400, message, code)
export const unauthorized = (message = 'Sessão inválida ou expirada. Faça login novamente.') => new AppError(401, message, 'UNAUTHORIZED')
export const forbidden = (message = 'Acesso negado.') => new AppError(403, message, 'FORBIDDEN')
export const notFound = (message = 'Registro não encontrado.') => new AppError(404, message, 'NOT_FOUND')
export const conflict = (message: string, code?: string) => new AppError(409, message, code ?? 'CONFLICT')
export const unprocessable = (message: string, code?: string) => new AppError(422, message, code ?? 'BUSINESS_RULE')
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
	new AppError(429, message, 'RATE_LIMIT', { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
