import { Elysia, ValidationError } from 'elysia'
import { AppError, type Logger } from '../../../modules/core'

function json(status: number, body: { message: string; code?: string }, headers: Record<string, string> = {}) {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }
	})
}

/** The first validation problem, in words a person can act on. */
function validationMessage(error: ValidationError): string {
	try {
		const detail = JSON.parse(error.message) as { property?: string; message?: string; errors?: { path?: unknown[]; message?: string }[] }
		const first = detail.errors?.[0]
		const raw = first?.path?.length ? first.path.join('.') : detail.property?.replace(/^\//, '')
		const path = raw && raw !== 'root' ? raw : null
		const message = first?.message ?? detail.message ?? 'valor inválido'
		return path ? `Dados inválidos em "${path}": ${message}` : `Dados inválidos: ${message}`
	} catch {
		return 'Dados inválidos na requisição.'
	}
}

/**
 * Every error leaves as JSON { message, code? } in pt-BR with its status. Unknown errors are logged
 * and answered with a generic 500: no stack trace or SQL ever reaches the client.
 */
export function errorHandler(log: Logger) {
	return new Elysia({ name: 'errors' }).onError({ as: 'global' }, ({ code, error, request }) => {
		// The body parser's own refusals (size, type) arrive wrapped in Elysia's ParseError.
		const appError = error instanceof AppError ? error : (error as { cause?: unknown })?.cause
		if (appError instanceof AppError) return json(appError.status, { message: appError.message, code: appError.code }, appError.headers)
		switch (code) {
			case 'VALIDATION':
				return json(400, { message: validationMessage(error as ValidationError), code: 'VALIDATION' })
			case 'PARSE':
				return json(400, { message: 'Corpo da requisição inválido: envie um JSON válido.', code: 'PARSE' })
			case 'NOT_FOUND':
				return json(404, { message: 'Recurso não encontrado.', code: 'NOT_FOUND' })
			case 'INVALID_COOKIE_SIGNATURE':
				return json(400, { message: 'Cookie inválido.', code: 'INVALID_COOKIE' })
		}
		const sqliteCode = (error as { code?: unknown }).code
		if (typeof sqliteCode === 'string' && sqliteCode.startsWith('SQLITE_CONSTRAINT')) {
			log('error.constraint', { path: new URL(request.url).pathname, code: sqliteCode, message: String((error as Error).message) })
			return json(409, { message: 'A operação conflita com dados existentes.', code: 'CONFLICT' })
		}
		const status = (error as { status?: unknown }).status
		if (typeof status === 'number' && status >= 400 && status < 500) {
			return json(status, { message: 'Requisição inválida.' })
		}
		log('error.unhandled', {
			path: new URL(request.url).pathname,
			method: request.method,
			message: String((error as Error)?.message ?? error),
			stack: (error as Error)?.stack
		})
		return json(500, { message: 'Erro interno do servidor. Tente novamente mais tarde.', code: 'INTERNAL' })
	})
}
