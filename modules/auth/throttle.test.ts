import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDb } from '../../db/testing'
import { LOGIN_LIMITS, MINUTE, fixedClock } from '../core'
import { LoginThrottle } from './throttle'

const ADMIN = '11222333000181'

/** One attempt as the login makes it: refused while it must wait, otherwise counted and (here) wrong. */
async function guess(throttle: LoginThrottle, cnpj: string, ip: string): Promise<boolean> {
	return 'counted' in (await throttle.begin(cnpj, ip))
}

async function throttleAt(start = '2026-11-20T12:00:00Z') {
	const clock = fixedClock(start)
	return { clock, throttle: new LoginThrottle(await createTestDb(), clock) }
}

describe('LoginThrottle: slow an account down, never lock it (issue 13, point 3)', () => {
	it('lets the right password in at once from an address without recent failures, however many failures the account has', async () => {
		const { clock, throttle } = await throttleAt()
		// 50 wrong passwords within two minutes from ten addresses (the review's attack locked the account for 15 minutes).
		let failures = 0
		for (let second = 0; second < 120; second++) {
			for (let a = 0; a < 10; a++) if (await guess(throttle, ADMIN, `198.51.100.${a}`)) failures++
			clock.advance(1_000)
		}
		expect(failures).toBeGreaterThanOrEqual(10)
		for (let a = 0; a < 10; a++) await throttle.fail(ADMIN, `198.51.100.${a + 10}`)
		expect(await throttle.retryAfter(ADMIN, '203.0.113.77')).toBe(0)
		expect(await throttle.retryAfter(ADMIN, '198.51.100.1')).toBeGreaterThan(0)
		// The owner signs in from their own address: it goes ahead, and is taken back as a failure.
		const attempt = await throttle.begin(ADMIN, '203.0.113.77')
		if (!('counted' in attempt)) throw new Error('the owner was held back')
		await throttle.succeed(ADMIN, '203.0.113.77', attempt.counted)
		expect(await throttle.retryAfter(ADMIN, '203.0.113.77')).toBe(0)
	})

	it('keeps guessing bounded: per address and address pair, and an account slowed down exponentially for addresses that failed', async () => {
		const { clock, throttle } = await throttleAt()
		const attackers = Array.from({ length: 20 }, (_, i) => `198.51.100.${i}`)
		const perWindow: number[] = []
		// An hour of 20 addresses guessing one account, each every 10 seconds, as far as the throttle lets them.
		for (let window = 0; window < 4; window++) {
			let checked = 0
			for (let second = 0; second < 15 * 60; second += 10) {
				for (const ip of attackers) if (await guess(throttle, ADMIN, ip)) checked++
				clock.advance(10_000)
			}
			perWindow.push(checked)
		}
		// Per window: one guess per address that has no failure left in the window, and a few more as the account's
		// delay allows (10 failures, then 1 s, 2 s, 4 s… up to 5 minutes after its last failure).
		for (const n of perWindow) expect(n).toBeLessThanOrEqual(attackers.length + LOGIN_LIMITS.accountSlowdownAfter + 5)
		// Without the account's delay 20 addresses would get 5 guesses each per window.
		expect(perWindow[0]).toBeLessThan(attackers.length * LOGIN_LIMITS.perAccountAndAddress)
	}, 30_000)

	it('still stops one address after 5 failures on an account and 20 across accounts, for 15 minutes', async () => {
		const { clock, throttle } = await throttleAt()
		for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) expect(await guess(throttle, ADMIN, '10.0.0.1')).toBe(true)
		expect(await throttle.retryAfter(ADMIN, '10.0.0.1')).toBe(15 * 60)
		const cnpjs = Array.from({ length: 30 }, (_, i) => `CNPJ${i}`)
		let n = 0
		for (const cnpj of cnpjs) if (await guess(throttle, cnpj, '10.0.0.2')) n++
		expect(n).toBe(LOGIN_LIMITS.perAddress)
		clock.advance(15 * MINUTE)
		expect(await throttle.retryAfter(ADMIN, '10.0.0.1')).toBe(0)
		expect(await throttle.retryAfter('CNPJ29', '10.0.0.2')).toBe(0)
	})

	it('counts the attempts of every portal process on the database together, even sent at the same moment (issue 36)', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'kportal-throttle-')), 'portal.sqlite')
		const clock = fixedClock('2026-11-20T12:00:00Z')
		const [a, b, c] = [
			new LoginThrottle(await createTestDb(file), clock),
			new LoginThrottle(await createTestDb(file), clock),
			new LoginThrottle(await createTestDb(file), clock)
		]
		// Twelve wrong passwords at once, spread over three processes: five are checked, the rest wait.
		const attempts = await Promise.all(Array.from({ length: 12 }, (_, i) => guess([a, b, c][i % 3], ADMIN, '10.0.0.9')))
		expect(attempts.filter(Boolean)).toHaveLength(LOGIN_LIMITS.perAccountAndAddress)
		for (const throttle of [a, b, c]) expect(await throttle.retryAfter(ADMIN, '10.0.0.9')).toBe(15 * 60)
	})
})
