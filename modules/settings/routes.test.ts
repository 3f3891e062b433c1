import { describe, expect, it } from 'bun:test'
import { TEST_ORIGIN, testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { openSetting } from './service'
import { settings } from './schema'

const KEY = '$aact_hmlg_000000000000000000000000000000abcd'
const entries = (values: Record<string, string>) => Object.entries(values).map(([chave, valor]) => ({ chave, valor }))

describe('one door for the vendor’s Asaas key (issue 32, point 6)', () => {
	it('the settings routes refuse the vendor’s Asaas keys and the bot’s secret, naming their screen, changing nothing of the batch', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		const bulk = (values: Record<string, string>) =>
			w.call('POST', '/api/configuracoes/bulk', { cookie: w.cookies.admin, body: { configuracoes: entries(values) } })
		const single = (chave: string, valor: string) =>
			w.call('POST', '/api/configuracoes', { cookie: w.cookies.admin, body: { chave, valor } })
		for (const [chave, valor] of [
			['app.asaas_api_key', KEY],
			['app.asaas_environment', 'production'],
			['app.asaas_webhook_token', 'Kx9mPq2Lw7Rt5Vb3Nc8Zh4Jd6Fg1Sa0Yq']
		]) {
			for (const res of [await bulk({ 'app.moeda': 'USD', [chave]: valor }), await single(chave, valor)]) {
				expect({ chave, status: res.status }).toEqual({ chave, status: 400 })
				expect(res.json.message).toContain('Admin Financeiro › Conta Asaas do fornecedor')
			}
		}
		const secret = await bulk({ 'app.moeda': 'USD', bot_webhook_secret: 'a'.repeat(20) + 'B'.repeat(20) })
		expect(secret.status).toBe(400)
		expect(secret.json.message).toContain('Bot WhatsApp')
		expect(w.db.select().from(settings).all()).toEqual([])
		expect(w.db.select().from(activities).all()).toEqual([])
		expect(w.asaas.accounts.get(KEY)?.webhooks.size ?? 0).toBe(0)

		// The one door: Admin Financeiro saves the key, tests it and registers the portal's webhook on the account.
		const vendor = await w.call('PUT', '/api/admin/asaas-vendor', {
			cookie: w.cookies.admin,
			body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox', asaas_webhook_token: '' }
		})
		expect(vendor.status).toBe(200)
		expect(openSetting(w.db, w.ctx.secrets, 'app.asaas_api_key')).toBe(KEY)
		// The settings screen's own keys still save in one batch.
		expect((await bulk({ 'app.moeda': 'USD', evolution_instance_name: 'k-licencas' })).status).toBe(200)
	})
})
