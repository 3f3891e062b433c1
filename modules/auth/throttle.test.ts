import { describe, expect, it } from 'bun:test'
import { LOGIN_LIMITS, MINUTE, fixedClock } from '../core'
import { LoginThrottle } from './throttle'

const ADMIN = '11222333000181'

/** One attempt as the login makes it: refused while it must wait, otherwise checked and (here) wrong. */
function guess(throttle: LoginThrottle, cnpj: string, ip: string): boolean {
	if (throttle.retryAfter(cnpj, ip) > 0) return false
	throttle.begin(cnpj, ip)
	return true
}

describe('LoginThrottle: slow an account down, never lock it (issue 13, point 3)', () => {
	it('lets the right password in at once from an address without recent failures, however many failures the account has', () => {
		const clock = fixedClock('2026-11-20T12:00:00Z')
		const throttle = new LoginThrottle(clock)
		// 50 wrong passwords within two minutes from ten addresses (the review's attack locked the account for 15 minutes).
		let failures = 0
		for (let second = 0; second < 120; second++) {
			for (let a = 0; a < 10; a++) if (guess(throttle, ADMIN, `198.51.100.${a}`)) failures++
			clock.advance(1_000)
		}
		expect(failures).toBeGreaterThanOrEqual(10)
		for (let a = 0; a < 10; a++) throttle.fail(ADMIN, `198.51.100.${a + 10}`)
		expect(throttle.retryAfter(ADMIN, '203.0.113.77')).toBe(0)
		expect(throttle.retryAfter(ADMIN, '198.51.100.1')).toBeGreaterThan(0)
		// The owner signs in from their own address: it goes ahead, and is taken back as a failure.
		throttle.begin(ADMIN, '203.0.113.77')
		throttle.succeed(ADMIN, '203.0.113.77')
		expect(throttle.retryAfter(ADMIN, '203.0.113.77')).toBe(0)
	})

	it('keeps guessing bounded: per address and address pair, and an account slowed down exponentially for addresses that failed', () => {
		const clock = fixedClock('2026-11-20T12:00:00Z')
		const throttle = new LoginThrottle(clock)
		const attackers = Array.from({ length: 20 }, (_, i) => `198.51.100.${i}`)
		const perWindow: number[] = []
		// An hour of 20 addresses guessing one account as fast as the throttle lets them.
		for (let window = 0; window < 4; window++) {
			let checked = 0
			for (let second = 0; second < 15 * 60; second++) {
				for (const ip of attackers) if (guess(throttle, ADMIN, ip)) checked++
				clock.advance(1_000)
			}
			perWindow.push(checked)
		}
		// Per window: one guess per address that has no failure left in the window, and a few more as the account's
		// delay allows (10 failures, then 1 s, 2 s, 4 s… up to 5 minutes after its last failure).
		for (const n of perWindow) expect(n).toBeLessThanOrEqual(attackers.length + LOGIN_LIMITS.accountSlowdownAfter + 5)
		// Without the account's delay 20 addresses would get 5 guesses each per window.
		expect(perWindow[0]).toBeLessThan(attackers.length * LOGIN_LIMITS.perAccountAndAddress)
	})

	it('still stops one address after 5 failures on an account and 20 across accounts, for 15 minutes', () => {
		const clock = fixedClock('2026-11-20T12:00:00Z')
		const throttle = new LoginThrottle(clock)
		for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) expect(guess(throttle, ADMIN, '10.0.0.1')).toBe(true)
		expect(throttle.retryAfter(ADMIN, '10.0.0.1')).toBe(15 * 60)
		const cnpjs = Array.from({ length: 30 }, (_, i) => `CNPJ${i}`)
		let n = 0
		for (const cnpj of cnpjs) if (guess(throttle, cnpj, '10.0.0.2')) n++
		expect(n).toBe(LOGIN_LIMITS.perAddress)
		clock.advance(15 * MINUTE)
		expect(throttle.retryAfter(ADMIN, '10.0.0.1')).toBe(0)
		expect(throttle.retryAfter('CNPJ29', '10.0.0.2')).toBe(0)
	})
})
