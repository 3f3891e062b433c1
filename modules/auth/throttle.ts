import { type Clock, LOGIN_LIMITS, MINUTE } from '../core'
import { SlidingWindow, tooManyRequests } from '../core/server'

const WINDOW_MS = LOGIN_LIMITS.windowMinutes * MINUTE
/** The account's count only needs to reach the point where its delay is at its longest. */
const ACCOUNT_COUNT_CAP = LOGIN_LIMITS.accountSlowdownAfter + 32

export const THROTTLE_MESSAGE = (seconds: number) =>
	seconds < 60
		? `Muitas tentativas de login. Aguarde ${seconds} segundo(s) e tente novamente.`
		: `Muitas tentativas de login. Aguarde ${Math.ceil(seconds / 60)} minuto(s) e tente novamente.`

/**
 * Slows guessing down without ever locking an account (core/policy.ts LOGIN_LIMITS), over a sliding 15-minute window:
 * - one address on one account: 5 failures, then it waits for the window;
 * - one address on any accounts: 20 failures, then it waits for the window;
 * - one account from all addresses: after 10 failures, an address that has failed recently (on any account) waits
 *   1 s, 2 s, 4 s… after the account's last failure, doubling up to 5 minutes. An address without recent failures is
 *   never held back by the account, so 50 wrong passwords from elsewhere cannot keep the owner out.
 * It is consulted before any password hashing, so refused guesses cost no CPU.
 */
export class LoginThrottle {
	private pair = new SlidingWindow(WINDOW_MS, LOGIN_LIMITS.perAccountAndAddress)
	private ip = new SlidingWindow(WINDOW_MS, LOGIN_LIMITS.perAddress)
	private account = new SlidingWindow(WINDOW_MS, ACCOUNT_COUNT_CAP)

	constructor(private clock: Clock) {}

	/** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
	retryAfter(cnpj: string, ip: string): number {
		const now = this.clock.now().getTime()
		let waitMs = Math.max(this.pair.waitMs(`${cnpj}|${ip}`, now), this.ip.waitMs(ip, now))
		if (this.ip.count(ip, now) > 0) waitMs = Math.max(waitMs, this.accountDelayMs(cnpj, now))
		return Math.ceil(waitMs / 1000)
	}

	private accountDelayMs(cnpj: string, now: number): number {
		const failures = this.account.count(cnpj, now)
		if (failures < LOGIN_LIMITS.accountSlowdownAfter) return 0
		const delay = Math.min(LOGIN_LIMITS.accountMaxDelaySeconds * 1000, 1000 * 2 ** (failures - LOGIN_LIMITS.accountSlowdownAfter))
		return Math.max(0, (this.account.newest(cnpj, now) ?? now) + delay - now)
	}

	fail(cnpj: string, ip: string) {
		const now = this.clock.now().getTime()
		this.pair.hit(`${cnpj}|${ip}`, now)
		this.ip.hit(ip, now)
		this.account.hit(cnpj, now)
	}

	/**
	 * Counts an attempt before its password is checked, so guesses sent together cannot all slip past the
	 * limit while the first ones are still hashing. A success then takes the count back.
	 */
	begin(cnpj: string, ip: string) {
		this.fail(cnpj, ip)
	}

	/** A successful check clears that address's count for that account, and takes back its own attempt. */
	succeed(cnpj: string, ip: string) {
		this.pair.clear(`${cnpj}|${ip}`)
		this.ip.undo(ip)
		this.account.undo(cnpj)
	}

	/**
	 * Checks a password the way a login does (the login itself, and the current password on Alterar Senha): 429 while
	 * this account and address must wait, counted as a failure until `check` says it was right.
	 */
	async check(cnpj: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
		const wait = this.retryAfter(cnpj, ip)
		if (wait > 0) throw tooManyRequests(THROTTLE_MESSAGE(wait), wait)
		// Counted as a failure until proven otherwise, before the first await.
		this.begin(cnpj, ip)
		const ok = await check()
		if (ok) this.succeed(cnpj, ip)
		return ok
	}
}
