import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp } from '../../apps/server/testing'
import { createAsaasStandin, type FailureRule } from '../asaas'
import { finishCarnes } from './carnes'
import { carneParcelas, carnes } from './schema'

/**
 * Issue 33, point 1: whatever moment the portal process dies while it issues a carnê, what is left is one carnê for
 * one plan, or no plan. A real process is killed with SIGKILL while its request waits at the Asaas stand-in (which
 * runs here, so its state outlives the process); a new portal on the same database then settles what was left.
 */
const standin = createAsaasStandin()
/** Every /v3 request that reached the stand-in, as "METHOD /path". */
const seen: string[] = []
const server = Bun.serve({
	port: 0,
	hostname: '127.0.0.1',
	fetch(req) {
		seen.push(`${req.method} ${new URL(req.url).pathname}`)
		return standin.handle(req)
	}
})
afterAll(() => {
	standin.close()
	server.stop(true)
})
const origin = `http://127.0.0.1:${server.port}`
const KEY = '$aact_hmlg_000000000000000000000000000000crash'
const plansAtAsaas = () => standin.accounts.get(KEY)?.installments.size ?? 0

/** Where the process is when it dies: the request that hangs (hang: not applied; delay: applied, answer never sent). */
const MOMENTS: { name: string; rule: FailureRule & { method: string; path: string }; plans: number }[] = [
	{ name: 'looking up the customer', rule: { method: 'GET', path: '/customers', mode: 'hang' }, plans: 0 },
	{ name: 'sending the plan (not applied)', rule: { method: 'POST', path: '/installments', mode: 'hang' }, plans: 0 },
	{ name: 'waiting for the plan’s answer (applied)', rule: { method: 'POST', path: '/installments', mode: 'delay', ms: 60_000 }, plans: 1 },
	{ name: 'reading the parcels', rule: { method: 'GET', path: '/payments', mode: 'hang' }, plans: 1 },
	{ name: 'reading a parcel’s digitable line', rule: { method: 'GET', path: '/payments/', mode: 'hang' }, plans: 1 }
]

/** Runs the issuing process until its request meets `rule`, then kills it with SIGKILL. */
async function killedAt(rule: FailureRule & { method: string; path: string }) {
	const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-crash-')), 'portal.sqlite')
	const from = seen.length
	standin.failNext(rule)
	const child = Bun.spawn([process.execPath, join(import.meta.dir, 'crash-worker.ts'), dbFile, origin], {
		stdout: 'pipe',
		stderr: 'inherit'
	})
	const deadline = Date.now() + 40_000
	const reached = () => seen.slice(from).some((r) => r.startsWith(`${rule.method} /v3${rule.path}`))
	while (!reached()) {
		if (Date.now() > deadline) throw new Error(`the process never reached ${rule.method} ${rule.path}`)
		await Bun.sleep(25)
	}
	// The request is at the stand-in: for a delay, its change is applied before the wait begins.
	await Bun.sleep(50)
	child.kill('SIGKILL')
	await child.exited
	return dbFile
}

describe('a portal killed while it issues a carnê', () => {
	for (const moment of MOMENTS) {
		it(`leaves one carnê for one plan, or none, when it dies ${moment.name}`, async () => {
			const plansBefore = plansAtAsaas()
			const dbFile = await killedAt(moment.rule)
			expect(plansAtAsaas() - plansBefore).toBe(moment.plans)
			// A new process on the same database, five minutes later, settles what the dead one left.
			const t = await createTestApp({ dbFile, now: '2026-11-20T12:05:00.000Z' })
			t.ctx.gateways.asaas = (url, init) => fetch(url.replace(/^https?:\/\/[^/]+/, origin), init)
			expect((await t.db.select().from(carnes)).map((r) => r.status)).toEqual(['criando'])
			expect(await finishCarnes(t.ctx)).toBe(1)
			const rows = await t.db.select().from(carnes)
			expect(plansAtAsaas() - plansBefore).toBe(moment.plans)
			if (moment.plans === 0) {
				expect(rows).toEqual([])
			} else {
				expect(rows.map((r) => r.status)).toEqual(['ativo'])
				expect(rows[0].asaas_installment_id).toBe([...standin.accounts.get(KEY)!.installments.keys()].at(-1)!)
				expect((await t.db.select().from(carneParcelas)).map((p) => p.numero)).toEqual([1, 2, 3])
			}
			// Settled once: a second run finds nothing.
			expect(await finishCarnes(t.ctx)).toBe(0)
			t.ctx.db.$client.close()
		}, 60_000)
	}
})
