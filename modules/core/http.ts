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
