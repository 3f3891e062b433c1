import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, TEST_ORIGIN, type TestWorld, testWorld, runPortalJob } from '../../apps/server/testing'
import { activities } from '../activity'
import { listBackups } from '../system'
import { checkWebhooks } from './jobs'
import { asaasAccounts } from './schema'

const KEY = '$aact_hmlg_000000000000000000000000000000abcd'
/** PUBLIC_URL in these tests: the origin the test requests come from. */
const PORTAL = TEST_ORIGIN

const ownSave = (w: TestWorld, body: Record<string, unknown>, cookie = w.cookies.rep) =>
	w.call('PUT', '/api/representantes/asaas-config', { cookie, body })

/** The webhooks the portal registered on the stand-in account of this key. */
const hooksAt = (w: TestWorld, key: string) => [...(w.asaas.accounts.get(key)?.webhooks.values() ?? [])]

describe('a representative’s Asaas account', () => {
	it('is saved, masked in every answer, sealed at rest, and a masked key sent back keeps the saved one', async () => {
		const w = await testWorld()
		const saved = await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' })
		expect(saved.status).toBe(200)
		expect(saved.json.config).toMatchObject({
			ativar_api_asaas: 'S',
			asaas_api_key: '••••••••abcd',
			asaas_ambiente: 'sandbox',
			configurado: true
		})
		// A token is generated when none is given, and shown masked only.
		expect(saved.json.config.asaas_webhook_token).toMatch(/^•{8}.{4}$/)
		const row = (await w.db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, CNPJ.rep)))[0]!
		expect(row.api_key).toStartWith('enc:v1:abcd:')
		expect(row.api_key).not.toContain('000000000000')

		const again = await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: '••••••••abcd', asaas_ambiente: 'production' })
		expect(again.status).toBe(200)
		expect(w.ctx.secrets.open((await w.db.select().from(asaasAccounts))[0]!.api_key!)).toBe(KEY)
		for (const res of [saved, again, await w.call('GET', '/api/representantes/asaas-config', { cookie: w.cookies.rep })]) {
			expect(res.text).not.toContain(KEY)
		}
		expect(JSON.stringify(w.logs)).not.toContain(KEY)
		expect(JSON.stringify(listBackups(w.ctx.config))).not.toContain(KEY)
		const history = await w.db.select().from(activities)
		expect(history.length).toBeGreaterThan(0)
		expect(JSON.stringify(history)).not.toContain(KEY)
	})

	it('refuses an active integration without a key, and a malformed token, changing nothing', async () => {
		const w = await testWorld()
		const noKey = await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: '', asaas_ambiente: 'sandbox' })
		expect(noKey.status).toBe(400)
		expect(noKey.json.message).toBe('Campo obrigatório: A chave API do Asaas é obrigatória quando a integração está ativada.')
		const shortToken = await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_webhook_token: 'curto' })
		expect(shortToken.status).toBe(400)
		expect(shortToken.json.message).toContain('Token do webhook inválido')
		expect(await w.db.select().from(asaasAccounts)).toEqual([])
		// Off, a key may be left blank.
		expect((await ownSave(w, { ativar_api_asaas: 'N', asaas_ambiente: 'sandbox' })).status).toBe(200)
	})

	it('tests the key against its environment and says in Portuguese when it is wrong', async () => {
		const w = await testWorld()
		const missing = await w.call('POST', '/api/asaas/test-config', { cookie: w.cookies.rep })
		expect(missing.json).toEqual({ success: false, message: 'Configuração incompleta: Insira a chave API antes de testar a configuração.' })
		await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' })
		const ok = await w.call('POST', '/api/asaas/test-config', { cookie: w.cookies.rep })
		expect(ok.json).toMatchObject({ success: true })
		expect(ok.json.message).toContain('Chave válida no ambiente sandbox')
		await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: 'chave-que-nao-existe-no-asaas', asaas_ambiente: 'sandbox' })
		const wrong = await w.call('POST', '/api/asaas/test-config', { cookie: w.cookies.rep })
		expect(wrong.status).toBe(200)
		expect(wrong.json.success).toBe(false)
		expect(wrong.json.message).toMatch(/chave/i)
	})

	it('is the representative’s own: other roles are refused, and only an administrador sees every account', async () => {
		const w = await testWorld()
		for (const cookie of [w.cookies.admin, w.cookies.gerente]) {
			expect((await w.call('GET', '/api/representantes/asaas-config', { cookie })).status).toBe(403)
			expect((await ownSave(w, { ativar_api_asaas: 'N' }, cookie)).status).toBe(403)
			expect((await w.call('POST', '/api/asaas/test-config', { cookie })).status).toBe(403)
		}
		for (const cookie of [w.cookies.rep, w.cookies.gerente]) {
			expect((await w.call('GET', '/api/admin/asaas-configs', { cookie })).status).toBe(403)
			expect((await w.call('PUT', `/api/admin/asaas-configs/${CNPJ.rep2}`, { cookie, body: { ativar_api_asaas: false } })).status).toBe(403)
			expect((await w.call('GET', '/api/admin/asaas-vendor', { cookie })).status).toBe(403)
			expect((await w.call('GET', '/api/admin/financial-stats', { cookie })).status).toBe(403)
		}
		expect((await w.call('GET', '/api/representantes/asaas-config')).status).toBe(401)
	})
})

describe('Admin Financeiro', () => {
	it('lists, creates and tests representatives’ accounts and the vendor’s, with the stats cards', async () => {
		const w = await testWorld()
		const created = await w.call('PUT', `/api/admin/asaas-configs/${CNPJ.rep2}`, {
			cookie: w.cookies.admin,
			body: { representante_cnpj: CNPJ.rep2, ativar_api_asaas: true, asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
		})
		expect(created.status).toBe(200)
		expect(created.json.config).toMatchObject({ representante_cnpj: CNPJ.rep2, representante_nome: 'Sara Rep', ativar_api_asaas: true })
		await w.call('PUT', `/api/admin/asaas-configs/${CNPJ.rep}`, {
			cookie: w.cookies.admin,
			body: { ativar_api_asaas: false, asaas_ambiente: 'production' }
		})
		const list = await w.call('GET', '/api/admin/asaas-configs', { cookie: w.cookies.admin })
		expect(
			list.json.map((c: { representante_nome: string; ativar_api_asaas: boolean }) => [c.representante_nome, c.ativar_api_asaas])
		).toEqual([
			['Rafael Rep', false],
			['Sara Rep', true]
		])
		expect((await w.call('GET', '/api/admin/financial-stats', { cookie: w.cookies.admin })).json).toEqual({
			totalConfiguracoes: 2,
			configuracoesAtivas: 1,
			carnesGerados: 0,
			valorTotalCarnes: 0
		})
		expect((await w.call('POST', `/api/admin/asaas-configs/${CNPJ.rep2}/test`, { cookie: w.cookies.admin })).json.success).toBe(true)
		expect(
			(await w.call('PUT', '/api/admin/asaas-configs/11111111111111', { cookie: w.cookies.admin, body: { ativar_api_asaas: false } }))
				.status
		).toBe(400)

		const vendor = await w.call('PUT', '/api/admin/asaas-vendor', {
			cookie: w.cookies.admin,
			body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox' }
		})
		expect(vendor.json.config).toMatchObject({ asaas_api_key: '••••••••abcd', configurado: true })
		expect((await w.call('POST', '/api/admin/asaas-vendor/test', { cookie: w.cookies.admin })).json.success).toBe(true)
		expect(JSON.stringify((await w.call('GET', '/api/configuracoes', { cookie: w.cookies.admin })).json)).not.toContain(KEY)
	})
})

describe('the portal’s webhook on each account', () => {
	it('gives its owner the saved token in clear on purpose (Guia de Configuração), and nobody else (issue 34, point 16)', async () => {
		const w = await testWorld({ config: { publicOrigin: PORTAL } })
		await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' })
		const [hook] = hooksAt(w, KEY)
		const view = (await w.call('GET', '/api/representantes/asaas-config', { cookie: w.cookies.rep })).json
		expect(view.asaas_webhook_token).not.toBe(hook.authToken)
		const reveal = (cookie: string) => w.call('GET', '/api/representantes/asaas-config/webhook-token', { cookie })
		expect((await reveal(w.cookies.rep)).json).toEqual({ token: hook.authToken })
		expect((await reveal(w.cookies.rep2)).json).toEqual({ token: null })
		expect((await reveal(w.cookies.admin)).status).toBe(403)
	})

	it('is registered on save when PUBLIC_URL is set: its URL, the payment events and a token of 32+ characters', async () => {
		const w = await testWorld({ config: { publicOrigin: PORTAL } })
		const res = await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' })
		expect(res.json.message).toContain('Webhook do portal registrado')
		const [hook] = hooksAt(w, KEY)
		expect(hook.config.url).toBe(`${PORTAL}/api/asaas/webhook/${CNPJ.rep}`)
		expect(hook.config.events).toContain('PAYMENT_RECEIVED')
		expect(hook.authToken!.length).toBeGreaterThanOrEqual(32)
		expect(w.ctx.secrets.open((await w.db.select().from(asaasAccounts))[0]!.webhook_token!)).toBe(hook.authToken!)
		expect(res.json.config.webhook).toMatchObject({ url: `${PORTAL}/api/asaas/webhook/${CNPJ.rep}`, status: 'ativo' })
		// Saving again updates the same webhook rather than adding one.
		await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: '••••••••abcd', asaas_ambiente: 'sandbox' })
		expect(hooksAt(w, KEY)).toHaveLength(1)
	})

	it('is recreated by the hourly check when it went missing, and an interrupted queue is shown and reactivated', async () => {
		const w = await testWorld({ config: { publicOrigin: PORTAL } })
		await ownSave(w, { ativar_api_asaas: 'S', asaas_api_key: KEY, asaas_ambiente: 'sandbox' })
		w.asaas.accounts.get(KEY)!.webhooks.clear()
		expect(await checkWebhooks(w.ctx)).toBe(1)
		const [hook] = hooksAt(w, KEY)
		expect(hook.config.url).toBe(`${PORTAL}/api/asaas/webhook/${CNPJ.rep}`)

		hook.config.interrupted = true
		await runPortalJob(w, 'billing.webhook-check')
		const view = (await w.call('GET', '/api/representantes/asaas-config', { cookie: w.cookies.rep })).json
		expect(view.webhook.status).toBe('interrompido')
		expect(view.webhook.message).toContain('interrompeu')
		// Another representative cannot touch it; its owner can.
		expect((await w.call('POST', `/api/asaas/accounts/${CNPJ.rep}/webhook/reactivate`, { cookie: w.cookies.rep2 })).status).toBe(404)
		const reactivated = await w.call('POST', `/api/asaas/accounts/${CNPJ.rep}/webhook/reactivate`, { cookie: w.cookies.rep })
		expect(reactivated.json).toMatchObject({ success: true, webhook: { status: 'ativo' } })
		expect(hook.config.interrupted).toBe(false)
	})
})
