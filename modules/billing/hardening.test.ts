import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, TEST_ORIGIN, type TestWorld, testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { notifications } from '../messaging'
import { finishCarnes, UNFINISHED_CARNE_MS } from './carnes'
import { CLAIM_MS } from './inbox'
import { reconcileCarnes } from './sync'
import { asaasEvents, carneParcelas, carnes } from './schema'

/** Issue 33, points 1-4 and 13, through the Asaas stand-in's faults (no mock of the portal's code). */
const KEY = '$aact_hmlg_000000000000000000000000000000abcd'
const OTHER_KEY = '$aact_hmlg_000000000000000000000000000000zzzz'

async function billingWorld() {
	const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
	const saved = await w.call('PUT', '/api/representantes/asaas-config', {
		cookie: w.cookies.rep,
		body: { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
	})
	expect(saved.status).toBe(200)
	const empresa = w.company(CNPJ.rep, 'Padaria Pão Quente', { email: 'padaria@example.com' })
	return { w, empresa }
}
const body = (empresa: number) => ({
	empresa_codigo: empresa,
	valor_total: 300,
	numero_parcelas: 3,
	data_primeiro_vencimento: '2026-12-10',
	tipo_cobranca: 'BOLETO'
})
const create = (w: TestWorld, empresa: number) => w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: body(empresa) })
const plans = (w: TestWorld, key = KEY) => w.asaas.accounts.get(key)?.installments.size ?? 0
const carneRows = (w: TestWorld) => w.db.select().from(carnes).all()
const parcelRows = (w: TestWorld) => w.db.select().from(carneParcelas).all()
const later = (w: TestWorld, ms: number) => w.clock.set(new Date(w.clock.now().getTime() + ms).toISOString())
async function settle(w: TestWorld) {
	await w.asaas.settled()
	await Bun.sleep(5)
	await w.services.asaasInbox.processDue()
}

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
			expect(carneRows(w).map((c) => [c.status, c.asaas_installment_id])).toEqual([
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
			expect(carneRows(w).map((c) => c.status)).toEqual(['ativo'])
			expect(parcelRows(w)).toHaveLength(3)
			// The events Asaas sent while the carnê was being created were held back, not left 'sem dono', and a
			// payment to its boletos is recorded.
			w.asaas.resumeDeliveries()
			await settle(w)
			later(w, 10 * 60_000)
			await w.services.asaasInbox.processDue()
			w.asaas.confirm(parcelRows(w)[0].asaas_payment_id)
			await settle(w)
			expect(
				w.db
					.select()
					.from(asaasEvents)
					.all()
					.filter((e) => e.status !== 'processado')
			).toEqual([])
			expect(parcelRows(w)[0].status).not.toBe('PENDING')
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
		expect(carneRows(w).map((c) => [c.status, c.asaas_installment_id])).toEqual([['criando', null]])
		// Within the request's own time the job leaves it alone.
		expect(await finishCarnes(w.ctx)).toBe(0)
		later(w, UNFINISHED_CARNE_MS + 1000)
		expect(await finishCarnes(w.ctx)).toBe(1)
		expect(carneRows(w).map((c) => c.status)).toEqual(['ativo'])
		expect(plans(w)).toBe(1)

		// Not applied at all (the connection dropped before Asaas saw it) and the lookup failing too: removed later.
		const other = w.company(CNPJ.rep, 'Mercado Bom Preço', { email: 'mercado@example.com' })
		w.asaas.failNext({ method: 'POST', path: '/installments', mode: 'drop' })
		w.asaas.failNext({ method: 'GET', path: '/payments', mode: 'status', status: 500, times: 4 })
		const lost = await create(w, other.codigo)
		expect(lost.status).toBe(502)
		later(w, UNFINISHED_CARNE_MS + 1000)
		expect(await finishCarnes(w.ctx)).toBe(1)
		expect(carneRows(w).map((c) => c.empresa_codigo)).toEqual([empresa.codigo])
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
		expect(carneRows(w)).toEqual([])
		expect(plans(w)).toBe(0)
	})
})
