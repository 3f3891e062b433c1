import type { Clock } from '../core'
import { MINUTE } from '../core'

const WINDOW_MS = 15 * MINUTE
/** Failures allowed in the window before the next attempt is refused. */
const LIMITS = { pair: 5, ip: 20, cnpj: 50 } as const
const MAX_KEYS = 100_000

/**
 * Counts failed logins per (CNPJ, address), per address and per CNPJ over a sliding 15-minute window.
 * It is consulted before any password hashing, so a flood of guesses costs no CPU.
 */
export class LoginThrottle {
	private failures = new Map<string, number[]>()

	constructor(private clock: Clock) {}

	private keys(cnpj: string, ip: string) {
		return [
			{ key: `pair:${cnpj}|${ip}`, limit: LIMITS.pair },
			{ key: `ip:${ip}`, limit: LIMITS.ip },
			{ key: `cnpj:${cnpj}`, limit: LIMITS.cnpj }
		]
	}

	private recent(key: string, now: number): number[] {
		const list = this.failures.get(key)
		if (!list) return []
		const kept = list.filter((t) => now - t < WINDOW_MS)
		if (kept.length === 0) this.failures.delete(key)
		else if (kept.length !== list.length) this.failures.set(key, kept)
		return kept
	}

	/** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
	retryAfter(cnpj: string, ip: string): number {
		const now = this.clock.now().getTime()
		let waitMs = 0
		for (const { key, limit } of this.keys(cnpj, ip)) {
			const list = this.recent(key, now)
			if (list.length >= limit) {
				// The attempt is allowed again once enough of the oldest failures leave the window.
				const freeing = list[list.length - limit]
				waitMs = Math.max(waitMs, freeing + WINDOW_MS - now)
			}
		}
		return Math.ceil(waitMs / 1000)
	}

	fail(cnpj: string, ip: string) {
		const now = this.clock.now().getTime()
		if (this.failures.size > MAX_KEYS) this.prune(now)
		for (const { key } of this.keys(cnpj, ip)) {
			const list = this.recent(key, now)
			list.push(now)
			this.failures.set(key, list)
		}
	}

	/**
	 * Counts an attempt before its password is checked, so guesses sent together cannot all slip past the
	 * limit while the first ones are still hashing. A success then takes the count back.
	 */
	begin(cnpj: string, ip: string) {
		this.fail(cnpj, ip)
	}

	/** A successful login clears that address's count for that CNPJ, and takes back its own attempt. */
	succeed(cnpj: string, ip: string) {
		this.failures.delete(`pair:${cnpj}|${ip}`)
		for (const key of [`ip:${ip}`, `cnpj:${cnpj}`]) {
			const list = this.failures.get(key)
			list?.pop()
			if (list && list.length === 0) this.failures.delete(key)
		}
	}

	private prune(now: number) {
		for (const key of [...this.failures.keys()]) this.recent(key, now)
	}
}
