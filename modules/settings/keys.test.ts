import { sqlRows } from '../../db/query'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'bun:test'
import { CNPJ, TEST_ORIGIN, testWorld } from '../../apps/server/testing'
import { settings } from './schema'

const HOSTILE_KEYS = [
	'\u0000\u202e',
	'$aact_hmlg_0000\u202e0000',
	'$aact_hmlg_00000000\u0000',
	'$aact hmlg 0000',
	'$aact_hmlg_0000\u200b0000',
	'chave-çã'
]
const TOKEN = 'Kx9mPq2Lw7Rt5Vb3Nc8Zh4Jd6Fg1Sa0Yq'

/** The saved rows of the portal's settings and of the Asaas accounts: what a refused save must leave as it was. */
const snapshot = async (w: Awaited<ReturnType<typeof testWorld>>) => ({
	settings: await w.db.select().from(settings),
	accounts: await sqlRows(w.db, sql`select * from asaas_accounts`),
	representatives: await sqlRows(w.db, sql`select cnpj, ativar_api_asaas from representatives`)
})

describe('keys, tokens and the bot’s PIX key (issue 33, point 12)', () => {
	it('refuse control, bidi, space and non-ASCII characters in every API key and token field, saving nothing', async () => {
		const w = await testWorld({ config: { publicOrigin: TEST_ORIGIN } })
		const before = await snapshot(w)
		const saves = {
			vendor: (key: string, token = '') =>
				w.call('PUT', '/api/admin/asaas-vendor', {
					cookie: w.cookies.admin,
					body: { asaas_api_key: key, asaas_ambiente: 'sandbox', asaas_webhook_token: token }
				}),
			own: (key: string, token = '') =>
				w.call('PUT', '/api/representantes/asaas-config', {
					cookie: w.cookies.rep,
					body: { ativar_api_asaas: 'S', asaas_api_key: key, asaas_ambiente: 'sandbox', asaas_webhook_token: token }
				}),
			admin: (key: string, token = '') =>
				w.call('PUT', `/api/admin/asaas-configs/${CNPJ.rep2}`, {
					cookie: w.cookies.admin,
					body: { ativar_api_asaas: true, asaas_api_key: key, asaas_ambiente: 'sandbox', asaas_webhook_token: token }
				}),
			evolution: (key: string) =>
				w.call('POST', '/api/configuracoes/bulk', {
					cookie: w.cookies.admin,
					body: { configuracoes: [{ chave: 'evolution_api_key', valor: key }] }
				})
		}
		for (const [name, save] of Object.entries(saves))
			for (const key of HOSTILE_KEYS) {
				const res = await save(key)
				expect({ name, key, status: res.status }).toEqual({ name, key, status: 400 })
				expect(res.json.message).toContain('ASCII')
			}
		for (const save of [saves.vendor, saves.own, saves.admin]) {
			const res = await save('$aact_hmlg_000000000000000000000000000000abcd', `${TOKEN}\u202e`)
			expect(res.status).toBe(400)
			expect(res.json.message).toContain('Token do webhook')
		}
		expect(await snapshot(w)).toEqual(before)
		// A key with spaces around it is the key: trimmed, then saved.
		expect((await saves.evolution('  evolution-key-01  ')).status).toBe(200)
		expect(
			(await w.call('GET', '/api/configuracoes', { cookie: w.cookies.admin })).json.find((s) => s.chave === 'evolution_api_key')!.valor
		).toBe('••••••••y-01')
	})

	it('refuse a PIX key with a control or format character, and a random key that is not an EVP (UUID)', async () => {
		const w = await testWorld()
		const save = (valor: string) =>
			w.call('POST', '/api/configuracoes', { cookie: w.cookies.admin, body: { chave: 'bot_chave_pix', valor } })
		for (const key of [
			'\u0000\u202e12345678',
			'chave-k-sistemas',
			'financeiro\u0000@ksistemas.com.br',
			'123e4567-e89b-12d3-a456-426614174000\u202e',
			'\u2066529.982.247-25'
		]) {
			const res = await save(key)
			expect({ key, status: res.status }).toEqual({ key, status: 400 })
			expect(res.json.message).toContain('Chave PIX inválida')
		}
		expect(await w.db.select().from(settings)).toEqual([])
		expect((await save('123e4567-e89b-12d3-a456-426614174000')).status).toBe(200)
		expect((await save('financeiro@ksistemas.com.br')).status).toBe(200)
	})
})
