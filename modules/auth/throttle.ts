import { type Clock, MINUTE } from '../core'
import { SlidingWindow } from '../core/server'

const WINDOW_MS = 15 * MINUTE

/**
 * Counts failed logins per (CNPJ, address), per address and per CNPJ over a sliding 15-minute window
 * (5, 20 and 50 allowed). It is consulted before any password hashing, so a flood of guesses costs no CPU.
 */
export class LoginThrottle {
	private pair = new SlidingWindow(WINDOW_MS, 5)
	private ip = new SlidingWindow(WINDOW_MS, 20)
	private cnpj = new SlidingWindow(WINDOW_MS, 50)

	constructor(private clock: Clock) {}

	/** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
	retryAfter(cnpj: string, ip: string): number {
		const now = this.clock.now().getTime()
		const waitMs = Math.max(this.pair.waitMs(`${cnpj}|${ip}`, now), this.ip.waitMs(ip, now), this.cnpj.waitMs(cnpj, now))
		return Math.ceil(waitMs / 1000)
	}

	fail(cnpj: string, ip: string) {
		const now = this.clock.now().getTime()
		this.pair.hit(`${cnpj}|${ip}`, now)
		this.ip.hit(ip, now)
		this.cnpj.hit(cnpj, now)
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
		this.pair.clear(`${cnpj}|${ip}`)
		this.ip.undo(ip)
		this.cnpj.undo(cnpj)
	}
}
