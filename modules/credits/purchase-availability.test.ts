import { describe, expect, it } from 'bun:test'
import { TEST_ORIGIN, type TestWorld, testWorld, runPortalJob } from '../../apps/server/testing'
import { creditPurchases } from './schema'

const KEY = '$aact_hmlg_000000000000000000000000000000cafe'

const availability = (w: TestWorld, cookie = w.cookies.rep) => w.call('GET', '/api/credits/auto-purchase/status', { cookie })

describe('GET /api/credits/auto-purchase/status (issue 34, point 14)', () => {
	it('says the self-purchase is unavailable before anyone fills the form when the vendor has no account', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		const res = await availability(w)
		expect(res.status).toBe(200)
		expect(res.json).toEqual({ situacao: 'indisponivel', mensagem: expect.stringContaining('Sistema não configurado') })
		expect(await w.db.select().from(creditPurchases)).toHaveLength(0)
	})

	it('is "ativo" only while the vendor’s webhook is healthy; an interrupted queue says payments are credited late', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		const saved = await w.call('PUT', '/api/admin/asaas-vendor', {
			cookie: w.cookies.admin,
			body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
		})
		expect(saved.status).toBe(200)
		expect((await availability(w)).json).toEqual({ situacao: 'ativo', mensagem: null })

		const [hook] = [...w.asaas.accounts.get(KEY)!.webhooks.values()]
		hook.config.interrupted = true
		await runPortalJob(w, 'billing.webhook-check')
		expect((await availability(w)).json).toEqual({
			situacao: 'atrasado',
			mensagem: expect.stringContaining('os créditos podem levar alguns minutos')
		})

		// The administrador clears the vendor's key: unavailable again.
		const cleared = await w.call('PUT', '/api/admin/asaas-vendor', {
			cookie: w.cookies.admin,
			body: { asaas_api_key: '', asaas_ambiente: 'sandbox' }
		})
		expect(cleared.status).toBe(200)
		expect((await availability(w)).json.situacao).toBe('indisponivel')
	})

	it('answers only representatives, as the purchase itself', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		expect((await availability(w, w.cookies.admin)).status).toBe(403)
		expect((await availability(w, w.cookies.gerente)).status).toBe(403)
	})
})
