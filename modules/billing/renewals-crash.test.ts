import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { sqlRows } from '../../db/query'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { createAsaasStandin } from '../asaas'
import { companies } from '../companies'
import { addDaysIso } from '../core'
import { applyDueRenewals, availableCredits, credits } from '../credits'
import { reconcileCarnes } from './sync'
import { carneParcelas, carneRenovacoes, historicoPagamentos } from './schema'

/**
 * Issue 37: a portal process killed between recording a parcel paid and applying its renewal, or while it applies
 * them, leaves every renewal due or applied, never half; a new portal on the same database applies each one once.
 * The process is real (credits/renewal-crash-worker.ts) and dies by SIGKILL; the Asaas stand-in runs here, so it outlives it.
 */
const standin = createAsaasStandin()
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => standin.handle(req) })
afterAll(() => {
	standin.close()
	server.stop(true)
})
const origin = `http://127.0.0.1:${server.port}`
const LICENCE = '2026-12-15'
const PARCELS = 24
const DAYS = 33

/** Runs the worker until it prints `line`, waits `afterMs`, then kills it. */
async function killedAfter(line: string, moment: string, afterMs: number) {
	const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-renewal-crash-')), 'portal.sqlite')
	const child = Bun.spawn([process.execPath, join(import.meta.dir, '../credits/renewal-crash-worker.ts'), dbFile, origin, moment], {
		stdout: 'pipe',
		stderr: 'inherit'
	})
	const reader = child.stdout.getReader()
	let out = ''
	const deadline = Date.now() + 50_000
	while (!out.split('\n').includes(line)) {
		if (Date.now() > deadline) throw new Error(`the process never printed ${line}`)
		const { value, done } = await reader.read()
		if (done) throw new Error(`the process ended before ${line}: ${out}`)
		out += new TextDecoder().decode(value)
	}
	if (afterMs > 0) await Bun.sleep(afterMs)
	child.kill('SIGKILL')
	await child.exited
	return dbFile
}

describe('a portal killed around a renewal', () => {
	for (const [name, line, moment, afterMs] of [
		['after the parcels were recorded paid, before their renewals were applied', 'PAID', 'between', 0],
		['while it applies the renewals', 'APPLYING', 'applying', Math.floor(Math.random() * 15)]
	] as const) {
		it(`never renews twice nor loses a renewal when it dies ${name}`, async () => {
			const dbFile = await killedAfter(line, moment, afterMs)
			const t = await createTestApp({ dbFile, now: '2026-11-20T12:05:00.000Z' })
			t.ctx.gateways.asaas = (url, init) => fetch(url.replace(/^https?:\/\/[^/]+/, origin), init)
			const empresa = (await t.db.select().from(companies))[0]
			// What the dead process left: every paid parcel has its renewal, and each one is either still due or fully
			// applied (its credits spent and its days on the licence), never half.
			const left = await t.db.select().from(carneRenovacoes)
			expect(left).toHaveLength(PARCELS)
			const applied = left.filter((r) => r.estado === 'aplicada').length
			expect(left.filter((r) => r.estado !== 'aplicada').every((r) => r.estado === 'pendente')).toBe(true)
			if (moment === 'between') expect(applied).toBe(0)
			expect(await availableCredits(t.db, CNPJ.rep)).toBe(100 - applied)
			expect(empresa.validade_licenca).toBe(addDaysIso(LICENCE, applied * DAYS))

			// The new process: its job applies what is left; the reconciliation and the job again add nothing.
			expect(await applyDueRenewals(t.ctx)).toBe(PARCELS - applied)
			await reconcileCarnes(t.ctx, { all: true })
			expect(await applyDueRenewals(t.ctx)).toBe(0)
			const done = await t.db.select().from(carneRenovacoes)
			expect(done.map((r) => r.estado)).toEqual(Array(PARCELS).fill('aplicada'))
			expect(await availableCredits(t.db, CNPJ.rep)).toBe(100 - PARCELS)
			expect((await t.db.select().from(companies).where(eq(companies.codigo, empresa.codigo)))[0].validade_licenca).toBe(
				addDaysIso(LICENCE, PARCELS * DAYS)
			)
			expect(await t.db.select().from(credits).where(eq(credits.origem, 'transferencia'))).toHaveLength(PARCELS)
			expect(await t.db.select().from(historicoPagamentos).where(eq(historicoPagamentos.tipo_evento, 'renovacao'))).toHaveLength(PARCELS)
			// The licence dates chain: each renewal starts where the one before it ended.
			const chain = done.sort((a, b) => (a.renovou_ate! < b.renovou_ate! ? -1 : 1))
			expect(chain.every((r, i) => r.validade_anterior === (i === 0 ? LICENCE : chain[i - 1].renovou_ate))).toBe(true)
			const paid = await sqlRows<{ n: number }>(
				t.db,
				sql`select count(*) as n from ${carneParcelas} where ${carneParcelas.status} in ('RECEIVED', 'CONFIRMED')`
			)
			expect(Number(paid[0].n)).toBe(PARCELS)
			t.ctx.db.$client.close()
		}, 90_000)
	}
})
