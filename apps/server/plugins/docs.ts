import { toOpenAPISchema } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import { z } from 'zod'
import { authGuard } from '../../../modules/auth'
import type { AppContext } from '../../../modules/core/server'
import { VERSION } from '../../../modules/system'

const ERROR = {
	description: 'Erro: { message, code? } em português',
	content: {
		'application/json': {
			schema: { type: 'object', properties: { message: { type: 'string' }, code: { type: 'string' } }, required: ['message'] }
		}
	}
}

/** The OpenAPI document of every route, generated from the routes' own contracts (zod schemas). */
function buildDocument(app: Elysia<any, any, any, any, any, any, any>, only?: (path: string) => boolean) {
	const { paths, components } = toOpenAPISchema(app, undefined, undefined, {
		zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' })
	})
	const selected = Object.fromEntries(
		Object.entries(paths).filter(([path]) => path.startsWith('/api/') && (!only || only(path)))
	) as Record<string, Record<string, Record<string, unknown>>>
	for (const operations of Object.values(selected)) {
		for (const operation of Object.values(operations)) {
			operation.responses = { '4XX': ERROR, ...(operation.responses as Record<string, unknown> | undefined) }
			// A route that needs a session names its capability and the roles that have it.
			if (operation['x-access'] !== 'public') operation.security = [{ session: [] }]
		}
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'K-Licenças — API do portal',
			version: VERSION,
			description:
				'Rotas com sessão usam o cookie de login (POST /api/auth/login) e, para escrever, um Origin do próprio portal. ' +
				'x-access diz a capacidade exigida e x-roles os perfis que a têm.'
		},
		components: {
			...components,
			securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'kportal_session' } }
		},
		paths: selected
	}
}

/**
 * GET /api/docs: the whole API, to administradores. GET /api/licenca/docs: the licence-check API alone, public,
 * for whoever builds the desktop systems. Both are generated once, from the routes as they are.
 */
export function apiDocs(ctx: AppContext, app: Elysia<any, any, any, any, any, any, any>) {
	let full: ReturnType<typeof buildDocument> | null = null
	let licence: ReturnType<typeof buildDocument> | null = null
	return new Elysia({ name: 'docs' })
		.use(authGuard(ctx))
		.get('/api/docs', () => (full ??= buildDocument(app)), { can: 'api.docs', detail: { summary: 'Este documento (OpenAPI 3.1)' } })
		.get('/api/licenca/docs', () => (licence ??= buildDocument(app, (path) => path.startsWith('/api/licenca/'))), {
			publicRoute: true,
			detail: { summary: 'O documento da API de verificação de licença, público' }
		})
}
