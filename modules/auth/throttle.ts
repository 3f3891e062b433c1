import type { DbOrTx } from '../../db/client'
import { type Clock, LOGIN_LIMITS, MINUTE } from '../core'
import { clearShared, giveBackShared, recentShared, recordShared, tooManyRequests, writeTransaction } from '../core/server'

const WINDOW_MS = LOGIN_LIMITS.windowMinutes * MINUTE
/** The account's count only needs to reach the point where its delay is at its longest. */
const ACCOUNT_COUNT_CAP = LOGIN_LIMITS.accountSlowdownAfter + 32

export const THROTTLE_MESSAGE = (seconds: number) =>
	seconds < 60
		? `Muitas tentativas de login. Aguarde ${seconds} segundo(s) e tente novamente.`
		: `Muitas tentativas de login. Aguarde ${Math.ceil(seconds / 60)} minuto(s) e tente novamente.`

/** The three counts an attempt adds to, as rate_events keys. */
function keysOf(cnpj: string, ip: string) {
	return { pair: `login:${cnpj}|${ip}`, ip: `login-ip:${ip}`, account: `login-account:${cnpj}` }
}
type Keys = ReturnType<typeof keysOf>

/**
 * Slows guessing down without ever locking an account (core/policy.ts LOGIN_LIMITS), over a sliding 15-minute window:
 * - one address on one account: 5 failures, then it waits for the window;
 * - one address on any accounts: 20 failures, then it waits for the window;
 * - one account from all addresses: after 10 failures, an address that has failed recently (on any account) waits
 *   1 s, 2 s, 4 s… after the account's last failure, doubling up to 5 minutes. An address without recent failures is
 *   never held back by the account, so 50 wrong passwords from elsewhere cannot keep the owner out.
 * It is consulted before any password hashing, so refused guesses cost no CPU. The attempts are rows of rate_events,
 * counted in the same transaction that adds one: every portal instance on the database counts them together, and five
 * wrong passwords spread over three instances are refused as on one.
 */
export class LoginThrottle {
	constructor(
		private db: DbOrTx,
		private clock: Clock
	) {}

	/** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
	async retryAfter(cnpj: string, ip: string): Promise<number> {
		return Math.ceil((await waitMs(this.db, keysOf(cnpj, ip), this.clock.now().getTime())) / 1000)
	}

	/** Counts a failure of `cnpj` from `ip`. */
	async fail(cnpj: string, ip: string): Promise<void> {
		await writeTransaction(this.db, (tx) => record(tx, keysOf(cnpj, ip), this.clock.now().getTime()))
	}

	/**
	 * Counts an attempt before its password is checked, so guesses sent together (to any instance) cannot all slip past
	 * the limit while the first ones are still hashing: the seconds to wait instead (nothing counted), or the rows that
	 * counted it, which a success takes back (`succeed`).
	 */
	async begin(cnpj: string, ip: string): Promise<{ wait: number } | { counted: number[] }> {
		const keys = keysOf(cnpj, ip)
		return writeTransaction(this.db, async (tx) => {
			const now = this.clock.now().getTime()
			const wait = Math.ceil((await waitMs(tx, keys, now)) / 1000)
			return wait > 0 ? { wait } : { counted: await record(tx, keys, now) }
		})
	}

	/** A successful check clears that address's count for that account, and takes back its own attempt. */
	async succeed(cnpj: string, ip: string, counted: number[]): Promise<void> {
		const keys = keysOf(cnpj, ip)
		await writeTransaction(this.db, async (tx) => {
			await clearShared(tx, keys.pair)
			await giveBackShared(tx, counted)
		})
	}

	/**
	 * Checks a password the way a login does (the login itself, and the current password on Alterar Senha): 429 while
	 * this account and address must wait, counted as a failure until `check` says it was right.
	 */
	async check(cnpj: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
		const attempt = await this.begin(cnpj, ip)
		if ('wait' in attempt) throw tooManyRequests(THROTTLE_MESSAGE(attempt.wait), attempt.wait)
		const ok = await check()
		if (ok) await this.succeed(cnpj, ip, attempt.counted)
		return ok
	}
}

const recent = (db: DbOrTx, key: string, now: number, limit: number) => recentShared(db, key, now, WINDOW_MS, limit)

/** How long until `key` may have one more event: its `limit`-th newest event leaving the window. */
function limitWait(times: number[], limit: number, now: number): number {
	return times.length < limit ? 0 : times[limit - 1] + WINDOW_MS - now
}

async function waitMs(db: DbOrTx, keys: Keys, now: number): Promise<number> {
	const ipTimes = await recent(db, keys.ip, now, LOGIN_LIMITS.perAddress)
	let wait = Math.max(
		limitWait(await recent(db, keys.pair, now, LOGIN_LIMITS.perAccountAndAddress), LOGIN_LIMITS.perAccountAndAddress, now),
		limitWait(ipTimes, LOGIN_LIMITS.perAddress, now)
	)
	// Only an address that has failed recently is held back by the account's own count.
	if (ipTimes.length > 0) {
		const account = await recent(db, keys.account, now, ACCOUNT_COUNT_CAP)
		if (account.length >= LOGIN_LIMITS.accountSlowdownAfter) {
			const delay = Math.min(LOGIN_LIMITS.accountMaxDelaySeconds * 1000, 1000 * 2 ** (account.length - LOGIN_LIMITS.accountSlowdownAfter))
			wait = Math.max(wait, account[0] + delay - now)
		}
	}
	return Math.max(0, wait)
}

/** One event under each of the three keys. */
const record = (tx: DbOrTx, keys: Keys, now: number) => recordShared(tx, [keys.pair, keys.ip, keys.account], now, WINDOW_MS)
