import { describe, expect, it } from 'bun:test'
import { EVOLUTION_TEST_KEY, testWorld, saveGateway, TEST_GATEWAY } from '../../apps/server/testing'

describe('the WhatsApp gateway (Notificações › API and Teste)', () => {
	it('says it is not configured, then connected once the three settings are saved; the key never comes back in clear', async () => {
		const w = await testWorld()
		const before = await w.call('GET', '/api/evolution-api/status', { cookie: w.cookies.admin })
		expect(before.json).toMatchObject({ connected: false, status: 'nao_configurado' })
		expect((await saveGateway(w)).status).toBe(200)
		expect((await w.call('GET', '/api/evolution-api/status', { cookie: w.cookies.admin })).json).toEqual({
			connected: true,
			status: 'open',
			message: null
		})
		w.evolution.setConnectionState('close')
		expect((await w.call('GET', '/api/evolution-api/status', { cookie: w.cookies.admin })).json).toMatchObject({
			connected: false,
			status: 'close'
		})
		const listed = (await w.call('GET', '/api/configuracoes', { cookie: w.cookies.admin })).text
		expect(listed).not.toContain(EVOLUTION_TEST_KEY)
	})

	it('reports a wrong key in Portuguese instead of failing', async () => {
		const w = await testWorld()
		await saveGateway(w, { ...TEST_GATEWAY, evolution_api_key: 'outra-chave' })
		const status = (await w.call('GET', '/api/evolution-api/status', { cookie: w.cookies.admin })).json
		expect(status).toMatchObject({ connected: false, status: 'erro' })
		expect(status.message).toMatch(/chave/i)
	})

	it('sends a test message that reaches the gateway, and refuses incomplete input with the spec’s message', async () => {
		const w = await testWorld()
		await saveGateway(w)
		const sent = await w.call('POST', '/api/evolution-api/test', {
			cookie: w.cookies.admin,
			body: { phone: '55 (85) 99999-0001', message: 'Teste do portal' }
		})
		expect(sent.status).toBe(200)
		expect(sent.json).toMatchObject({ success: true, error: null })
		expect(w.evolution.sent.map((m) => [m.number, m.text, m.id])).toEqual([['5585999990001', 'Teste do portal', sent.json.messageId]])
		// Each missing field in its own words (issue 34, point 7).
		for (const [body, message] of [
			[{ phone: '', message: 'x' }, 'Informe o telefone.'],
			[{ phone: '5585999990001', message: '   ' }, 'Escreva a mensagem.'],
			[{}, 'Informe o telefone.']
		] as const) {
			const refused = await w.call('POST', '/api/evolution-api/test', { cookie: w.cookies.admin, body })
			expect([refused.status, refused.json.message]).toEqual([400, message])
		}
		w.evolution.setConnectionState('close')
		const closed = await w.call('POST', '/api/evolution-api/test', {
			cookie: w.cookies.admin,
			body: { phone: '5585999990001', message: 'x' }
		})
		expect(closed.json.success).toBe(false)
		expect(closed.json.error).toBeTruthy()
		expect(w.evolution.sent).toHaveLength(1)
	})

	it('is for administradores only', async () => {
		const w = await testWorld()
		for (const cookie of [w.cookies.gerente, w.cookies.rep]) {
			expect((await w.call('GET', '/api/evolution-api/status', { cookie })).status).toBe(403)
			expect((await w.call('POST', '/api/evolution-api/test', { cookie, body: { phone: '5585999990001', message: 'x' } })).status).toBe(403)
		}
	})
})
