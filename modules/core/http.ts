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

/** A rejected field in words a person can act on: which field (when known) and what is wrong with it. */
export function invalidDataMessage(path: string | null, message: string): string {
	return path ? `Dados inválidos em "${path}": ${message}` : `Dados inválidos: ${message}`
}
