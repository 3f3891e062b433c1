/** The caller's address: the socket's, or the last X-Forwarded-For hop when a trusted proxy sits in front. */
export function clientIp(
	request: Request,
	server: { requestIP(req: Request): { address: string } | null } | null | undefined,
	trustProxy: boolean
): string {
	if (trustProxy) {
		const forwarded = request.headers.get('x-forwarded-for')
		const last = forwarded?.split(',').pop()?.trim()
		if (last) return last
	}
	return server?.requestIP(request)?.address ?? 'unknown'
}

/** The one shape of an error answer: JSON { message, code } with its status, never cached. */
export function errorResponse(status: number, message: string, code?: string, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify({ message, code }), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }
	})
}

/**
 * A rejected field in words a person can act on. A schema's own sentence (it starts with a capital: 'Dias de
 * antecedência: de 1 a 30.', 'Informe o telefone.') names its field and is shown beside it, so it goes as it is, with
 * no field key in it; zod's generic words ('campo obrigatório.') need the field, so they follow its name.
 */
export function invalidDataMessage(path: string | null, message: string): string {
	if (/^\p{Lu}/u.test(message)) return message
	return path ? `Dados inválidos em "${path}": ${message}` : `Dados inválidos: ${message}`
}

/**
 * A local stand-in of an external service on a socket (127.0.0.1 and a free port unless told). A delayed answer
 * whose client gave up has nobody to answer: it ends as 499 instead of an unhandled error.
 */
export function serveStandin(handle: (req: Request) => Promise<Response>, options: { port?: number; hostname?: string }) {
	return Bun.serve({
		port: options.port ?? 0,
		hostname: options.hostname ?? '127.0.0.1',
		idleTimeout: 120,
		fetch: (req) => handle(req).catch((e) => (req.signal.aborted ? new Response(null, { status: 499 }) : Promise.reject(e)))
	})
}
