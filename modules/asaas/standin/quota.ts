/**
 * The Asaas quota in the stand-in: requests counted per account over a 12 h window that starts at the window's
 * first request (Asaas: 25,000 per account, shared with every integration of the account). Every answer carries
 * RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until the window ends); past the limit, 429.
 */
import { errorBody, type StandinAccount, type StandinState } from './shared'

export interface QuotaUse {
	used: number
	limit: number
	remaining: number
	/** Seconds until the window ends (0 when no window is open). */
	resetSeconds: number
}

export function createQuota(state: StandinState) {
	function use(a: StandinAccount): QuotaUse {
		const { quotaLimit: limit, quotaWindowMs } = state.modes
		const t = state.now().getTime()
		const open = a.quota && t < a.quota.windowStart + quotaWindowMs ? a.quota : null
		const used = open?.used ?? 0
		const resetSeconds = open ? Math.ceil((open.windowStart + quotaWindowMs - t) / 1000) : 0
		return { used, limit, remaining: Math.max(0, limit - used), resetSeconds }
	}

	/** Counts one request of the account: its headers, or the 429 answer when the window's quota is spent. */
	function count(a: StandinAccount): { headers: Record<string, string>; refused: Response | null } {
		const t = state.now().getTime()
		if (!a.quota || t >= a.quota.windowStart + state.modes.quotaWindowMs) a.quota = { windowStart: t, used: 0 }
		const spent = a.quota.used >= state.modes.quotaLimit
		if (!spent) a.quota.used++
		const now = use(a)
		const headers = {
			'RateLimit-Limit': String(now.limit),
			'RateLimit-Remaining': String(now.remaining),
			'RateLimit-Reset': String(now.resetSeconds)
		}
		const refused = spent
			? errorBody(429, 'rate_limit_exceeded', 'Limite de requisições da conta atingido. Tente novamente após o horário indicado.', headers)
			: null
		return { headers, refused }
	}

	return { use, count }
}
