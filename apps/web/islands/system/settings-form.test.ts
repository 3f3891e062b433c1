import { describe, expect, it } from 'bun:test'
import { CNPJ, createTestApp } from '../../../server/testing'
import { numericSetting } from '../../../../modules/settings/model'
import { rangeOf, validate } from './settings-form'

describe('the settings form', () => {
	it('refuses what the server refuses, with the same words, for every numeric setting', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		const cookie = await t.login(CNPJ.admin)
		for (const [key, bad] of [
			['app.valor_credito_dia', '0'],
			['app.valor_credito_dia', '366'],
			['app.valor_credito_individual', '1.234'],
			['app.terminais_padrao', '101'],
			['app.intervalo_backup', '2.5']
		]) {
			const browser = validate({ [key]: bad })[key]
			expect(browser, `${key}=${bad}`).toBeDefined()
			const server = await t.call('POST', '/api/configuracoes/bulk', { cookie, body: { configuracoes: [{ chave: key, valor: bad }] } })
			expect(server.status).toBe(400)
			expect(server.json.message).toContain(browser)
		}
		expect(validate({ 'app.valor_credito_dia': '33', 'app.valor_credito_individual': '49.90' })).toEqual({})
		expect(rangeOf('app.valor_credito_individual')).toMatchObject({ min: 0.01, max: 9999.99, step: 0.01 })
	})

	it('reads a numeric setting, or its default while the list loads or holds no valid value', () => {
		expect(numericSetting(undefined, 'app.valor_credito_dia')).toBe(33)
		expect(numericSetting([{ chave: 'app.valor_credito_dia', valor: '30' }], 'app.valor_credito_dia')).toBe(30)
		expect(numericSetting([{ chave: 'app.valor_credito_dia', valor: 'x' }], 'app.valor_credito_dia')).toBe(33)
	})
})
