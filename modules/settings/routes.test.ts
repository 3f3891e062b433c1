import { describe, expect, it } from 'bun:test'
import { TEST_ORIGIN, testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { ROLES } from '../core'
import { type Definition, SETTING_DEFINITIONS, type SettingKey } from './definitions'
import { openSetting, readsSetting } from './service'
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
		expect(await w.db.select().from(settings)).toEqual([])
		expect(await w.db.select().from(activities)).toEqual([])
		expect(w.asaas.accounts.get(KEY)?.webhooks.size ?? 0).toBe(0)

		// The one door: Admin Financeiro saves the key, tests it and registers the portal's webhook on the account.
		const vendor = await w.call('PUT', '/api/admin/asaas-vendor', {
			cookie: w.cookies.admin,
			body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox', asaas_webhook_token: '' }
		})
		expect(vendor.status).toBe(200)
		expect(await openSetting(w.db, w.ctx.secrets, 'app.asaas_api_key')).toBe(KEY)
		// The settings screen's own keys still save in one batch.
		expect((await bulk({ 'app.moeda': 'USD', evolution_instance_name: 'k-licencas' })).status).toBe(200)
	})
})

describe('GET /api/configuracoes per role (issue 33, point 14)', () => {
	const CREDIT_FIGURES = ['app.terminais_padrao', 'app.valor_credito_dia', 'app.valor_credito_individual']
	const SETTINGS_SCREEN = [
		...CREDIT_FIGURES,
		'app.backup_automatico',
		'app.backups_manter',
		'app.formato_data',
		'app.fuso_horario',
		'app.idioma',
		'app.intervalo_backup',
		'app.moeda',
		'app.notificacoes_habilitadas',
		'tema.cor_destaque',
		'tema.cor_primaria',
		'tema.cor_secundaria',
		'tema.modo',
		'tema.modo_compacto',
		'tema.tamanho_fonte'
	]

	it('gives each role only the settings its screens read: no gateway address, instance or PIX key below the administrador', async () => {
		const w = await testWorld()
		const gateway = {
			evolution_api_url: 'http://10.0.0.7:8080',
			evolution_instance_name: 'k-licencas',
			bot_chave_pix: 'financeiro@ksistemas.com.br'
		}
		expect(
			(await w.call('POST', '/api/configuracoes/bulk', { cookie: w.cookies.admin, body: { configuracoes: entries(gateway) } })).status
		).toBe(200)
		const read = async (cookie: string) => {
			const res = await w.call('GET', '/api/configuracoes', { cookie })
			expect(res.status).toBe(200)
			return { keys: (res.json as { chave: string }[]).map((e) => e.chave).sort(), text: res.text }
		}
		const rep = await read(w.cookies.rep)
		expect(rep.keys).toEqual(CREDIT_FIGURES)
		const gerente = await read(w.cookies.gerente)
		expect(gerente.keys).toEqual(SETTINGS_SCREEN.sort())
		for (const { text } of [rep, gerente]) for (const value of Object.values(gateway)) expect(text).not.toContain(value)
		const admin = await read(w.cookies.admin)
		expect(admin.keys).toEqual(Object.keys(SETTING_DEFINITIONS).sort())
		expect(admin.text).toContain('10.0.0.7')
	})

	it('hides a setting from everyone but the administrador unless its definition names the roles that read it', () => {
		for (const [key, definition] of Object.entries(SETTING_DEFINITIONS as Record<string, Definition>)) {
			const roles = ROLES.filter((role) => readsSetting(role, key as SettingKey))
			expect({ key, roles }).toEqual({ key, roles: ['administrador', ...(definition.readers ?? [])] })
		}
		expect(readsSetting('gerente', 'evolution_api_url')).toBe(false)
		expect(readsSetting('representante', 'app.asaas_environment')).toBe(false)
	})
})
