import { sqlRows } from '../../db/query'
import { describe, expect, it } from 'bun:test'
import { sql } from 'drizzle-orm'
import { CNPJ, testWorld } from '../../apps/server/testing'
import { addCredits, availableCredits, rebuildCreditBalances, transferToCompany } from './service'
import { creditBalances, creditConsumptions, credits } from './schema'
import type { AppError } from '../core/server'

/** A small deterministic PRNG so a failure can be replayed. */
function rng(seed: number) {
	return () => {
		seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
		return seed / 2 ** 31
	}
}

describe('ledger invariants', () => {
	it('after 1,000 random adds and transfers: balance = added − transferred, never negative, every batch consistent', async () => {
		const w = await testWorld()
		const random = rng(20261120)
		const reps = [CNPJ.rep, CNPJ.rep2]
		const companiesOf: Record<string, number[]> = {}
		for (const r of reps) {
			companiesOf[r] = []
			for (const i of [1, 2, 3]) companiesOf[r].push((await w.company(r, `Empresa ${r} ${i}`, { validade_licenca: '2026-12-01' })).codigo)
		}
		const model: Record<string, { added: number; transferred: number }> = Object.fromEntries(
			reps.map((r) => [r, { added: 0, transferred: 0 }])
		)
		const days: Record<number, number> = {}
		const actors = [w.admin, w.gerente, { id: 999, nome: 'Rep', cnpj: '', tipo: 'representante' as const }]
		let refused = 0
		for (let op = 0; op < 1000; op++) {
			const rep = reps[Math.floor(random() * reps.length)]
			if (random() < 0.35) {
				const amount = 1 + Math.floor(random() * 20)
				const unit = 100 * (10 + Math.floor(random() * 90))
				await addCredits(w.db, w.clock, w.admin, { representanteId: rep, amount, unitValue: unit })
				model[rep].added += amount
			} else {
				const empresa = companiesOf[rep][Math.floor(random() * 3)]
				const creditos = 1 + Math.floor(random() * 15)
				const actor = actors[Math.floor(random() * actors.length)]
				const as = actor.tipo === 'representante' ? { ...actor, cnpj: rep } : actor
				try {
					const result = await transferToCompany(w.db, w.clock, as, {
						empresaCodigo: empresa,
						sistema: 'K-PDV',
						creditos,
						representanteCnpj: null
					})
					model[rep].transferred += creditos
					days[empresa] = (days[empresa] ?? 0) + result.dias
				} catch (error) {
					const status = (error as AppError).status
					// 422: not enough credits; 404: a gerente acting for a representative they do not manage.
					expect(status === 422 || (status === 404 && as.tipo === 'gerente' && rep === CNPJ.rep2)).toBe(true)
					refused++
				}
			}
			const balance = await availableCredits(w.db, rep)
			expect(balance).toBeGreaterThanOrEqual(0)
			expect(balance).toBe(model[rep].added - model[rep].transferred)
		}
		expect(refused).toBeGreaterThan(0)

		const rows = await w.db.select().from(credits)
		const parts = await w.db.select().from(creditConsumptions)
		for (const rep of reps) {
			const pool = rows.filter((r) => r.representante_id === rep && r.origem !== 'transferencia')
			const transfers = rows.filter((r) => r.representante_id === rep && r.origem === 'transferencia')
			expect(pool.reduce((s, r) => s + (r.valor_original ?? r.valor), 0)).toBe(model[rep].added)
			expect(transfers.reduce((s, r) => s + r.valor, 0)).toBe(model[rep].transferred)
		}
		for (const batch of rows.filter((r) => r.origem !== 'transferencia')) {
			const consumed = parts.filter((p) => p.batch_id === batch.id).reduce((s, p) => s + p.quantidade, 0)
			expect(batch.valor).toBeGreaterThanOrEqual(0)
			expect(batch.valor + consumed).toBe(batch.valor_original ?? batch.valor)
			expect(batch.data_uso === null).toBe(batch.valor > 0)
		}
		for (const transfer of rows.filter((r) => r.origem === 'transferencia')) {
			expect(parts.filter((p) => p.transfer_id === transfer.id).reduce((s, p) => s + p.quantidade, 0)).toBe(transfer.valor)
		}
		for (const [codigo, d] of Object.entries(days)) {
			const got = (await w.licence(Number(codigo)))!
			expect(Math.round((Date.parse(got) - Date.parse('2026-12-01')) / 86_400_000)).toBe(d)
		}
		// The cached balances agree with the ledger, and with a rebuild from it.
		const cached = async () => await w.db.select().from(creditBalances).orderBy(creditBalances.representante_id)
		for (const b of await cached()) {
			expect(b.disponivel).toBe(model[b.representante_id].added - model[b.representante_id].transferred)
			expect(b.utilizado).toBe(model[b.representante_id].transferred)
			expect(b.inativo).toBe(0)
		}
		const before = JSON.stringify(await cached())
		await rebuildCreditBalances(w.db)
		expect(JSON.stringify(await cached())).toBe(before)
		const negative = (await sqlRows<{ n: number }>(w.db, sql`select count(*) as n from credits where valor < 0`))[0]
		expect(negative.n).toBe(0)
	}, 60_000)
})

describe('concurrency across connections', () => {
	it('5 threads × 10 transfers on their own connections to one database file: exactly 10 of 50 succeed', async () => {
		const { mkdtempSync, rmSync } = await import('node:fs')
		const { tmpdir } = await import('node:os')
		const { join } = await import('node:path')
		const { openDb } = await import('../../db/client')
		const { migrateDb } = await import('../../db/migrate')
		const { representatives } = await import('../resellers')
		const { companies } = await import('../companies')
		const { users } = await import('../auth')
		const dir = mkdtempSync(join(tmpdir(), 'credits-conc-'))
		const path = join(dir, 'portal.sqlite')
		try {
			const db = openDb(path)
			migrateDb(db)
			await db
				.insert(users)
				.values({ cnpj: CNPJ.admin, nome: 'Admin', tipo: 'administrador', senha_hash: 'x', created_at: 'x', updated_at: 'x' })
			await db.insert(representatives).values({ nome: 'Rep', cnpj: CNPJ.rep, data: '2026-01-01' })
			const company = (
				await db
					.insert(companies)
					.values({
						razao: 'Alvo Ltda',
						cnpj: CNPJ.rep2,
						cnpj_representante: CNPJ.rep,
						serial: 's1',
						data: '2026-01-01',
						validade_licenca: '2026-12-01'
					})
					.returning()
			)[0]
			const admin = { id: 1, nome: 'Admin', cnpj: CNPJ.admin, tipo: 'administrador' as const }
			const { fixedClock } = await import('../core')
			await addCredits(db, fixedClock('2026-11-20T12:00:00.000Z'), admin, { representanteId: CNPJ.rep, amount: 3, unitValue: 5000 })
			await addCredits(db, fixedClock('2026-11-20T12:00:00.000Z'), admin, { representanteId: CNPJ.rep, amount: 7, unitValue: 5000 })
			const runs = await Promise.all(
				Array.from(
					{ length: 5 },
					() =>
						new Promise<number[]>((resolve, reject) => {
							const worker = new Worker(new URL('./concurrency-worker.ts', import.meta.url).href)
							worker.onmessage = (e) => {
								resolve(e.data as number[])
								worker.terminate()
							}
							worker.onerror = (e) => reject(e)
							worker.postMessage({ path, empresa: company.codigo, count: 10 })
						})
				)
			)
			const all = runs.flat()
			expect(all).toHaveLength(50)
			expect(all.filter((s) => s === 200)).toHaveLength(10)
			expect(all.filter((s) => s === 422)).toHaveLength(40)
			expect(await availableCredits(db, CNPJ.rep)).toBe(0)
			expect(await db.select().from(creditBalances)).toEqual([{ representante_id: CNPJ.rep, disponivel: 0, utilizado: 10, inativo: 0 }])
			const transferred = (await sqlRows<{ n: number }>(db, sql`select sum(valor) as n from credits where origem = 'transferencia'`))[0].n
			expect(transferred).toBe(10)
			const consumed = (await sqlRows<{ n: number }>(db, sql`select sum(quantidade) as n from credit_consumptions`))[0].n
			expect(consumed).toBe(10)
			db.$client.close()
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	}, 60_000)
})
