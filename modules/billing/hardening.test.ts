import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { ASAAS_KEYS, CNPJ, type TestWorld, billingWorld, carneBody, settleAsaas } from '../../apps/server/testing'
import { activities } from '../activity'
import { notifications } from '../messaging'
import { finishCarnes, UNFINISHED_CARNE_MS } from './carnes'
import { accountUsage } from './usage'
import { CLAIM_MS } from './inbox'
import { reconcileCarnes } from './sync'
import { asaasEvents, carneParcelas, carnes } from './schema'

/** Issue 33, points 1-4 and 13, through the Asaas stand-in's faults (no mock of the portal's code). */
const KEY = ASAAS_KEYS.rep
const OTHER_KEY = '$aact_hmlg_000000000000000000000000000000zzzz'

const create = (w: TestWorld, empresa: number) => w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa) })
const plans = (w: TestWorld, key = KEY) => w.asaas.accounts.get(key)?.installments.size ?? 0
// In id order: PostgreSQL returns rows in any order (an updated row moves).
const carneRows = async (w: TestWorld) => await w.db.select().from(carnes).orderBy(carnes.id)
const parcelRows = async (w: TestWorld) => await w.db.select().from(carneParcelas).orderBy(carneParcelas.id)

describe('orphan plans (issue 33, point 1)', () => {
	for (const [name, rule] of [
		['a 500', { status: 500, times: 4 }],
		['a 429 with a long reset', { resetSeconds: 3600, times: 1 }]
	] as const) {
		it(`a parcels read that fails with ${name} leaves the carnê recorded; the retry makes no second plan and the job finishes it`, async () => {
			const { w, empresa } = await billingWorld()
			// Held until the creation is over, so only the portal's own reads meet the fault.
			w.asaas.pauseDeliveries()
			w.asaas.failNext({
				method: 'GET',
				path: '/payments',
				times: rule.times,
				...('status' in rule
					? { mode: 'status' as const, status: rule.status }
					: { mode: 'rate-limit' as const, resetSeconds: rule.resetSeconds })
			})
			const first = await create(w, empresa.codigo)
			expect(first.status).toBe(502)
			expect(first.json.message).toContain('O carnê foi criado no Asaas, mas as parcelas ainda não puderam ser lidas')
			expect(plans(w)).toBe(1)
			expect((await carneRows(w)).map((c) => [c.status, c.asaas_installment_id])).toEqual([
				['criando', [...w.asaas.accounts.get(KEY)!.installments.keys()][0]]
			])
			// The list shows it as being created.
			const listed = await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })
			expect(listed.json.carnes.map((c: { status: string }) => c.status)).toEqual(['criando'])
			// The person tries again: the earlier carnê is finished instead of a second plan being made.
			const retry = await create(w, empresa.codigo)
			expect(retry.status).toBe(409)
			expect(retry.json.message).toContain('foi concluído agora')
			expect(plans(w)).toBe(1)
			expect((await carneRows(w)).map((c) => c.status)).toEqual(['ativo'])
			expect(await parcelRows(w)).toHaveLength(3)
			// The events Asaas sent while the carnê was being created were held back, not left 'sem dono', and a
			// payment to its boletos is recorded.
			w.asaas.resumeDeliveries()
			await settleAsaas(w)
			w.clock.advance(10 * 60_000)
			await w.services.asaasInbox.processDue()
			w.asaas.confirm((await parcelRows(w))[0].asaas_payment_id)
			await settleAsaas(w)
			expect((await w.db.select().from(asaasEvents)).filter((e) => e.status !== 'processado')).toEqual([])
			expect((await parcelRows(w))[0].status).not.toBe('PENDING')
		})
	}

	it('a plan whose create answer was lost and whose lookup failed is found by the job; one that was never made is removed', async () => {
		const { w, empresa } = await billingWorld()
		w.asaas.pauseDeliveries()
		w.asaas.failNext({ method: 'POST', path: '/installments', mode: 'drop-after-apply' })
		w.asaas.failNext({ method: 'GET', path: '/payments', mode: 'status', status: 500, times: 4 })
		const res = await create(w, empresa.codigo)
		expect(res.status).toBe(502)
		expect(res.json.message).toContain('Não foi possível confirmar com o Asaas se o carnê foi criado')
		expect((await carneRows(w)).map((c) => [c.status, c.asaas_installment_id])).toEqual([['criando', null]])
		// Within the request's own time the job leaves it alone.
		expect(await finishCarnes(w.ctx)).toBe(0)
		w.clock.advance(UNFINISHED_CARNE_MS + 1000)
		expect(await finishCarnes(w.ctx)).toBe(1)
		expect((await carneRows(w)).map((c) => c.status)).toEqual(['ativo'])
		expect(plans(w)).toBe(1)

		// Not applied at all (the connection dropped before Asaas saw it) and the lookup failing too: removed later.
		const other = await w.company(CNPJ.rep, 'Mercado Bom Preço', { email: 'mercado@example.com' })
		w.asaas.failNext({ method: 'POST', path: '/installments', mode: 'drop' })
		w.asaas.failNext({ method: 'GET', path: '/payments', mode: 'status', status: 500, times: 4 })
		const lost = await create(w, other.codigo)
		expect(lost.status).toBe(502)
		w.clock.advance(UNFINISHED_CARNE_MS + 1000)
		expect(await finishCarnes(w.ctx)).toBe(1)
		expect((await carneRows(w)).map((c) => c.empresa_codigo)).toEqual([empresa.codigo])
		expect(plans(w)).toBe(1)
	}, 30_000)

	it('a refusal (400) keeps nothing', async () => {
		const { w, empresa } = await billingWorld()
		w.asaas.failNext({
			method: 'POST',
			path: '/installments',
			mode: 'status',
			status: 400,
			times: 2,
			body: { errors: [{ code: 'invalid_object', description: 'Cliente bloqueado.' }] }
		})
		const res = await create(w, empresa.codigo)
		expect(res.status).toBe(502)
		expect(res.json.message).toContain('Cliente bloqueado.')
		expect(await carneRows(w)).toEqual([])
		expect(plans(w)).toBe(0)
	})
})

describe('a 404 is not a deletion of a paid parcel (issue 33, point 2)', () => {
	it('records the account each carnê was made on; a key of another account warns and cancels nothing', async () => {
		const { w, empresa } = await billingWorld()
		w.asaas.setModes({ deletedPayment: 'not-found' })
		const { carne } = (await create(w, empresa.codigo)).json
		expect((await carneRows(w))[0].asaas_conta).toMatch(/^[0-9a-f-]{36}$/)
		const [first] = await parcelRows(w)
		w.asaas.confirm(first.asaas_payment_id)
		await settleAsaas(w)
		const paidStatus = (await parcelRows(w))[0].status
		expect(['CONFIRMED', 'RECEIVED']).toContain(paidStatus)
		// The representative pastes the key of another Asaas account.
		const saved = await w.call('PUT', '/api/representantes/asaas-config', {
			cookie: w.cookies.rep,
			body: { ativar_api_asaas: 'S', asaas_api_key: OTHER_KEY, asaas_ambiente: 'sandbox' }
		})
		expect(saved.status).toBe(200)
		// The reconciliation and a late webhook both meet 404s: nothing moves backwards, nothing is cancelled.
		await reconcileCarnes(w.ctx, { all: true })
		expect((await parcelRows(w)).map((p) => p.status)).toEqual([paidStatus, 'PENDING', 'PENDING'])
		expect((await carneRows(w))[0].status).toBe('ativo')
		const cancel = await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })
		expect(cancel.status).toBe(422)
		expect(cancel.json.message).toContain('abre outra conta do Asaas')
		expect((await parcelRows(w)).map((p) => p.status)).toEqual([paidStatus, 'PENDING', 'PENDING'])
		// The administrador and the representative are told, once.
		const warned = await w.db.select().from(activities).where(eq(activities.event, 'billing.asaas-account-mismatch'))
		expect(warned).toHaveLength(1)
		const told = await w.db.select().from(notifications)
		expect(told.map((n) => n.title)).toEqual(['Parcela paga', 'Conta do Asaas trocada?', 'Conta do Asaas trocada?'])
		// The financial screens say so while it lasts.
		const config = await w.call('GET', '/api/representantes/asaas-config', { cookie: w.cookies.rep })
		expect(config.json.webhook.conta_aviso).toContain('abre outra conta do Asaas')
		// The old key back: the account answers again and a real removal is read as one.
		await w.call('PUT', '/api/representantes/asaas-config', {
			cookie: w.cookies.rep,
			body: { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
		})
		const cancelled = await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })
		expect(cancelled.status).toBe(200)
		expect((await w.call('GET', '/api/representantes/asaas-config', { cookie: w.cookies.rep })).json.webhook.conta_aviso).toBeNull()
		expect((await parcelRows(w)).map((p) => p.status)).toEqual([paidStatus, 'CANCELED', 'CANCELED'])
	})
})

describe('a cancel whose answer was lost (issue 33, point 3)', () => {
	it('reads back what Asaas has: applied and lost is a success; the retry of a cancelled carnê finds nothing left open', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, empresa.codigo)).json
		w.asaas.failNext({ method: 'DELETE', path: '/installments', mode: 'drop-after-apply', times: 4 })
		const res = await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })
		expect(res.status).toBe(200)
		expect((await parcelRows(w)).map((p) => p.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED'])
		expect((await carneRows(w))[0].status).toBe('cancelado')
	})

	it('an answer lost before Asaas applied it changes nothing here; the reconciliation repairs a cancelled carnê with open parcels', async () => {
		const { w, empresa } = await billingWorld()
		const { carne } = (await create(w, empresa.codigo)).json
		w.asaas.failNext({ method: 'DELETE', path: '/installments', mode: 'status', status: 500, times: 4 })
		const res = await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })
		expect(res.status).toBe(502)
		expect((await carneRows(w))[0].status).toBe('ativo')
		expect((await parcelRows(w)).map((p) => p.status)).toEqual(['PENDING', 'PENDING', 'PENDING'])
		// A carnê left cancelado with parcels still open at Asaas (as the old code left it) is cancelled there again.
		await w.db.update(carnes).set({ status: 'cancelado' }).where(eq(carnes.id, carne.id))
		w.clock.advance(3 * 3_600_000 + 1000)
		const result = await reconcileCarnes(w.ctx)
		expect(result.verificadas).toBe(1)
		expect((await parcelRows(w)).map((p) => p.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED'])
		const atAsaas = [...w.asaas.accounts.get(KEY)!.payments.values()]
		expect(atAsaas.every((p) => p.deleted)).toBe(true)
	}, 20_000)
})

describe('after a crash, within seconds (issue 33, point 4)', () => {
	it('an event held by a process that died is taken up by another within the claim, not minutes later', async () => {
		const { w, empresa } = await billingWorld()
		await create(w, empresa.codigo)
		await settleAsaas(w)
		w.asaas.pauseDeliveries()
		w.asaas.confirm((await parcelRows(w))[0].asaas_payment_id)
		// Stored, then claimed by a process that dies before handling it.
		const claimedBy = w.services.asaasInbox
		const stored = (await w.db.select().from(asaasEvents)).length
		w.asaas.resumeDeliveries()
		await settleAsaas(w)
		const fresh = (await w.db.select().from(asaasEvents).orderBy(asaasEvents.id)).slice(stored)
		expect(fresh.length).toBeGreaterThan(0)
		const until = new Date(w.clock.now().getTime() + CLAIM_MS).toISOString()
		for (const e of fresh)
			await w.db.update(asaasEvents).set({ status: 'pendente', claimed_until: until, processed_at: null }).where(eq(asaasEvents.id, e.id))
		await w.db.update(carneParcelas).set({ status: 'PENDING', data_pagamento: null })
		expect(await claimedBy.processDue()).toBe(0)
		w.clock.advance(CLAIM_MS + 1)
		expect(await claimedBy.processDue()).toBe(fresh.length)
		expect((await parcelRows(w))[0].status).not.toBe('PENDING')
		expect(CLAIM_MS).toBeLessThanOrEqual(30_000)
	})
})

describe('Sincronizar says when Asaas refused (issue 33, point 13)', () => {
	it('answers 429 with when to try again instead of "nada a corrigir"', async () => {
		const { w, empresa } = await billingWorld()
		await create(w, empresa.codigo)
		w.asaas.failNext({ method: 'GET', path: '/payments', mode: 'rate-limit', resetSeconds: 600 })
		const res = await w.call('POST', '/api/carnes/sincronizar', { cookie: w.cookies.rep })
		expect(res.status).toBe(429)
		expect(res.json.message).toContain('O Asaas recusou a consulta')
		expect(res.json.message).toContain('tente novamente em 10 min')
		expect(res.json.message).not.toContain('nada a corrigir')
		const ok = await w.call('POST', '/api/carnes/sincronizar', { cookie: w.cookies.rep })
		expect(ok.status).toBe(200)
		expect(ok.json.message).toContain('nada a corrigir')
	})
})

describe('the portal’s use of each Asaas account (issue 32, point 7)', () => {
	it('counts every request per account and shows the last 12 hours on Admin Financeiro and Configurações Financeiras', async () => {
		const { w, empresa } = await billingWorld({ countQuota: true })
		const before = (await w.call('GET', '/api/admin/asaas-configs', { cookie: w.cookies.admin })).json
		const rafael = (list: { representante_cnpj: string; uso: { requisicoes12h: number } }[]) =>
			list.find((c) => c.representante_cnpj === CNPJ.rep)!.uso
		const start = rafael(before).requisicoes12h
		// Saving the key registered the webhook: those requests were counted already.
		expect(start).toBeGreaterThan(0)
		expect((await create(w, empresa.codigo)).status).toBe(201)
		await settleAsaas(w)
		const after = rafael((await w.call('GET', '/api/admin/asaas-configs', { cookie: w.cookies.admin })).json)
		const quota = w.asaas.quota(KEY)
		// Every request the stand-in counted for Rafael's account, the portal counted too.
		expect(after.requisicoes12h).toBe(quota.used)
		expect(after).toMatchObject({ cota: 25_000, restanteAsaas: quota.limit - quota.used })
		const own = await w.call('GET', '/api/representantes/asaas-config', { cookie: w.cookies.rep })
		expect(own.json.uso.requisicoes12h).toBe(after.requisicoes12h)
		// Twelve hours later the window is empty again.
		w.clock.advance(12 * 3_600_000)
		const admin = await w.login(CNPJ.admin)
		expect(rafael((await w.call('GET', '/api/admin/asaas-configs', { cookie: admin })).json).requisicoes12h).toBe(0)
	})
})

describe('webhooks are not polling (issue 32, point 7)', () => {
	it('the PAYMENT_CREATED events of a new carnê, repeated, cost no request, even those arriving while it is being created', async () => {
		/** The requests a carnê's creation costs once every webhook is handled, its events held back or not. */
		async function costOfACarne(holdEvents: boolean) {
			const { w, empresa } = await billingWorld()
			const before = (await accountUsage(w.ctx, CNPJ.rep)).requisicoes12h
			if (holdEvents) w.asaas.pauseDeliveries()
			expect((await create(w, empresa.codigo)).status).toBe(201)
			const creation = (await accountUsage(w.ctx, CNPJ.rep)).requisicoes12h - before
			w.asaas.resumeDeliveries()
			await settleAsaas(w)
			// Events handed back while the carnê was being created are retried after 30 s.
			w.clock.advance(5 * 60_000)
			await w.services.asaasInbox.processDue()
			const events = await w.db.select().from(asaasEvents)
			expect(events.filter((e) => e.status !== 'processado')).toEqual([])
			// The inbox keeps what Asaas sent, as sent.
			expect(events.map((e) => JSON.parse(e.payload).payment?.id)).toEqual(events.map((e) => e.payment_id))
			return { creation, total: (await accountUsage(w.ctx, CNPJ.rep)).requisicoes12h - before }
		}
		const held = await costOfACarne(true)
		expect(held.total).toBe(held.creation)
		const live = await costOfACarne(false)
		expect(live.total).toBe(held.creation)
	})
})

describe('Ensaio completo no sandbox (issue 32, Admin Financeiro)', () => {
	it('runs the check:asaas steps with a sandbox account’s saved key, for administradores only, never in production', async () => {
		const { w } = await billingWorld()
		const run = (account: string, cookie = w.cookies.admin) => w.call('POST', `/api/admin/asaas-accounts/${account}/rehearsal`, { cookie })
		const ok = await run(CNPJ.rep)
		expect(ok.status).toBe(200)
		expect(ok.json.ok).toBe(true)
		expect(ok.json.verdict).toStartWith('Tudo certo')
		expect(ok.json.steps.length).toBeGreaterThan(5)
		expect(ok.json.installmentAmount).toBe('totalValue')
		// What it made at Asaas it removed again; the portal's carnês are untouched.
		expect(await carneRows(w)).toEqual([])
		// An account that wants `value`: the rehearsal says so, and still passes.
		w.asaas.setModes({ installmentAmount: 'value' })
		expect((await run(CNPJ.rep)).json.installmentAmount).toBe('value')
		expect((await run(CNPJ.rep, w.cookies.rep)).status).toBe(403)
		expect((await run(CNPJ.rep, w.cookies.gerente)).status).toBe(403)
		expect((await run('fornecedor')).status).toBe(422)
		await w.call('PUT', `/api/admin/asaas-configs/${CNPJ.rep2}`, {
			cookie: w.cookies.admin,
			body: { ativar_api_asaas: true, asaas_api_key: '$aact_prod_000000000000000000000000000000efgh', asaas_ambiente: 'production' }
		})
		const production = await run(CNPJ.rep2)
		expect(production.status).toBe(422)
		expect(production.json.message).toContain('só roda em contas de sandbox')
	})
})
