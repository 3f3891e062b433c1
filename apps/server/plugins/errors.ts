import { constraintViolation, failureCode } from '../../../db/errors'
import { Elysia, type ValidationError } from 'elysia'
import type { Server } from 'elysia/universal'
import { AppError, type Logger, errorResponse, invalidDataMessage } from '../../../modules/core/server'
import { pathOf } from './security'

/**
 * The first validation problem, in words a person can act on, built from the validator's own issue (zod's path and
 * message). Never from `error.message`: Elysia redacts that text when NODE_ENV=production (the container's mode)
 * and fills it with the rejected value otherwise.
 */
export function validationMessage(error: Pick<ValidationError, 'valueError'>): string {
	const issue = error.valueError as { path?: readonly (PropertyKey | { key: PropertyKey })[]; message?: unknown } | undefined
	const path = (issue?.path ?? [])
		.map((part) => String(typeof part === 'object' && part !== null ? part.key : part))
		.filter((part) => part !== '')
		.join('.')
	const message = typeof issue?.message === 'string' && issue.message ? issue.message : 'valor inválido.'
	return invalidDataMessage(path || null, message)
}

/** A refused authorisation as the error handler saw it: 401 without a session, 403 for the role, 404 out of scope. */
export interface RefusedRequest {
	status: 401 | 403 | 404
	request: Request
	server: Server | null
	/** The route as registered (`/api/companies/:id`). */
	route: string
	params: Record<string, unknown> | undefined
	body: unknown
}

/** The codes of the guard's and the services' refusals (errors.ts helpers): a login's wrong password is not one. */
const REFUSAL_CODES = new Set(['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'])

/**
 * Every error leaves as JSON { message, code? } in pt-BR with its status. Unknown errors are logged
 * and answered with a generic 500: no stack trace or SQL ever reaches the client. Refused authorisations of the
 * API are handed to `onRefused` (the app's RefusalLog) before they are answered.
 */
export function errorHandler(log: Logger, onRefused: (refused: RefusedRequest) => Promise<unknown> | undefined = () => undefined) {
	return new Elysia({ name: 'errors' }).onError({ as: 'global' }, async (context) => {
		const { code, error, request } = context
		if (error instanceof AppError && REFUSAL_CODES.has(error.code ?? '') && [401, 403, 404].includes(error.status)) {
			if (pathOf(request.url).startsWith('/api/')) {
				try {
					await onRefused({
						status: error.status as RefusedRequest['status'],
						request,
						server: context.server,
						route: context.route,
						params: context.params as Record<string, unknown> | undefined,
						body: context.body
					})
				} catch (failure) {
					log('error.refusal-log', { message: String((failure as Error)?.message ?? failure) })
				}
			}
		}
		const response = errorToResponse(error, request, log, code)
		// The status the answer really has, for what runs after it (observe.ts counts it).
		context.set.status = response.status
		return response
	})
}

/** Turns any error into the answer the client gets. */
function errorToResponse(error: unknown, request: Request, log: Logger, code?: string | number): Response {
	// The body parser's own refusals (size, type) arrive wrapped in Elysia's ParseError.
	const appError = error instanceof AppError ? error : (error as { cause?: unknown })?.cause
	if (appError instanceof AppError) return errorResponse(appError.status, appError.message, appError.code, appError.headers)
	switch (code) {
		case 'VALIDATION':
			// An answer that does not match its own contract is the server's fault, not the caller's.
			if ((error as ValidationError).type === 'response') {
				log('error.response', { path: pathOf(request.url), method: request.method, message: validationMessage(error as ValidationError) })
				return errorResponse(500, 'Erro interno do servidor. Tente novamente mais tarde.', 'INTERNAL')
			}
			return errorResponse(400, validationMessage(error as ValidationError), 'VALIDATION')
		case 'PARSE':
			return errorResponse(400, 'Corpo da requisição inválido: envie um JSON válido.', 'PARSE')
		case 'NOT_FOUND':
			return errorResponse(404, 'Recurso não encontrado.', 'NOT_FOUND')
		case 'INVALID_COOKIE_SIGNATURE':
			return errorResponse(400, 'Cookie inválido.', 'INVALID_COOKIE')
	}
	const constraint = constraintViolation(error)
	if (constraint) {
		log('error.constraint', { path: pathOf(request.url), code: failureCode(error), message: String((error as Error).message) })
		return errorResponse(409, 'A operação conflita com dados existentes.', 'CONFLICT')
	}
	const status = (error as { status?: unknown })?.status
	if (typeof status === 'number' && status >= 400 && status < 500) {
		return errorResponse(status, 'Requisição inválida.')
	}
	log('error.unhandled', {
		path: pathOf(request.url),
		method: request.method,
		// The database's own code (a serialization failure that kept coming back, a lost connection…), when it is one.
		code: failureCode(error),
		message: String((error as Error)?.message ?? error),
		stack: (error as Error)?.stack
	})
	return errorResponse(500, 'Erro interno do servidor. Tente novamente mais tarde.', 'INTERNAL')
}
