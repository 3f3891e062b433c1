import { afterAll, describe, expect, it } from 'bun:test'
import { EVOLUTION_TEST_KEY, testWorld } from '../../apps/server/testing'
import { phoneKey } from './webhook'
import { STANDIN_VERSIONS, startEvolutionStandin } from './standin'

const KEY = 'evo-check-key'
const stops: (() => unknown)[] = []
afterAll(async () => {
	for (const stop of stops) await stop()
})

/** `bun run check:evolution` as a vendor runs it, against a stand-in. */
async function checkEvolution(env: Record<string, string>) {
	const proc = Bun.spawn(['bun', 'run', 'check:evolution'], {
		cwd: `${import.meta.dir}/../..`,
		env: { ...process.env, ...env },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
	return { code, lines: out.trim().split('\n'), err }
}

function standin(version: (typeof STANDIN_VERSIONS)[number]) {
	const evo = startEvolutionStandin({ apiKey: KEY, instances: ['loja'], version })
	stops.push(evo.stop)
	const env = {
		EVOLUTION_CHECK_URL: evo.url,
		EVOLUTION_CHECK_KEY: KEY,
		EVOLUTION_CHECK_INSTANCE: 'loja',
		EVOLUTION_CHECK_PHONE: '5585999990001'
	}
	return { evo, env }
}

describe('check:evolution', () => {
	for (const version of STANDIN_VERSIONS) {
		it(`passes against Evolution ${version}: one line per step, the webhook body of that version, exit 0`, async () => {
			const { evo, env } = standin(version)
			const { code, lines } = await checkEvolution(env)
			expect(code).toBe(0)
			expect(lines.filter((l) => /^[✔✘!] /.test(l)).map((l) => l.split(':')[0])).toEqual([
				'✔ Versão',
				'✔ Conexão',
				'✔ Envio de texto',
				'✔ Webhook',
				'✔ Eco do envio'
			])
			expect(lines[0]).toContain(`versão ${version}`)
			const webhook = lines.find((l) => l.startsWith('✔ Webhook'))!
			const body = {
				'2.3.6': '{"webhook":{"enabled":true,"url":"https://SEU-PORTAL/api/whatsapp/webhook","headers"',
				'2.1.1': '{"webhook":{"enabled":true,"url":"https://SEU-PORTAL/api/whatsapp/webhook","headers"',
				'2.1.0': '{"webhook":{"enabled":true,"url":"https://SEU-PORTAL/api/whatsapp/webhook?token=<segredo>","byEvents"',
				'2.0.10': '{"enabled":true,"url":"https://SEU-PORTAL/api/whatsapp/webhook?token=<segredo>","webhookByEvents"',
				'1.8.6': '{"enabled":true,"url":"https://SEU-PORTAL/api/whatsapp/webhook?token=<segredo>","webhook_by_events"'
			}[version]
			expect(webhook).toContain(body)
			expect(lines.at(-1)).toBe('Aprovado: o portal consegue usar esta Evolution API.')
			// One text reached the operator's number; the live webhook was not touched.
			expect(evo.sent.map((s) => phoneKey(s.number))).toEqual([phoneKey('5585999990001')])
			expect(evo.instances.get('loja')!.webhook).toBeNull()
		})
	}

	it('fails (exit 1) naming the step when the WhatsApp is disconnected, the key is wrong, or a variable is missing', async () => {
		const { evo, env } = standin('2.3.6')
		await evo.setConnectionState('close')
		const closed = await checkEvolution(env)
		expect(closed.code).toBe(1)
		expect(closed.lines).toContain(
			'✘ Conexão: connectionState → close — Conecte o WhatsApp da instância (leia o QR code no gerenciador da Evolution).'
		)
		expect(closed.lines.at(-1)).toContain('Reprovado: Conexão, Envio de texto falhou')
		const wrongKey = await checkEvolution({ ...env, EVOLUTION_CHECK_KEY: 'outra' })
		expect(wrongKey.code).toBe(1)
		expect(wrongKey.lines.find((l) => l.startsWith('✘ Versão'))).toBeUndefined()
		expect(wrongKey.lines.find((l) => l.startsWith('✘ Conexão'))).toContain('recusou a chave')
		const missing = await checkEvolution({ ...env, EVOLUTION_CHECK_PHONE: '' })
		expect(missing.code).toBe(1)
		expect(missing.err).toContain('Faltam variáveis: EVOLUTION_CHECK_PHONE. Exemplo:')
	})
})

describe('Ensaio completo (Notificações › Teste)', () => {
	for (const version of STANDIN_VERSIONS) {
		it(`runs the same steps against the saved gateway (Evolution ${version}) and sees the echo as the portal's own send`, async () => {
			const w = await testWorld({ config: { publicOrigin: 'http://localhost' }, evolution: { version } })
			await w.call('POST', '/api/configuracoes/bulk', {
				cookie: w.cookies.admin,
				body: {
					configuracoes: [
						{ chave: 'evolution_api_url', valor: 'http://evolution.local' },
						{ chave: 'evolution_api_key', valor: EVOLUTION_TEST_KEY },
						{ chave: 'evolution_instance_name', valor: 'k-licencas' }
					]
				}
			})
			await w.call('POST', '/api/whatsapp/bot-enable', { cookie: w.cookies.admin })
			await w.services.bot.idle()
			const res = await w.call('POST', '/api/evolution-api/rehearsal', { cookie: w.cookies.admin, body: { phone: '5585999990001' } })
			expect(res.status).toBe(200)
			expect(res.json).toMatchObject({ ok: true, verdict: 'Aprovado: o portal consegue usar esta Evolution API.' })
			const echo = res.json.steps.find((s) => s.step === 'Eco do envio')!
			expect(echo.answer).toBe('voltou como messages.upsert (fromMe)')
			expect(res.json.steps.find((s) => s.step === 'Webhook')!.note).toContain('http://localhost/api/whatsapp/webhook')
			// The echo did not pause the operator's conversation with the bot.
			await w.evolution.settled()
			await w.services.bot.idle()
			const paused = (await w.call('GET', '/api/whatsapp/paused-conversations', { cookie: w.cookies.admin })).json
			expect(paused).toEqual([])
		})
	}

	it('is for administradores only, and says so when the gateway is not configured', async () => {
		const w = await testWorld()
		for (const cookie of [w.cookies.gerente, w.cookies.rep])
			expect((await w.call('POST', '/api/evolution-api/rehearsal', { cookie, body: { phone: '5585999990001' } })).status).toBe(403)
		const res = await w.call('POST', '/api/evolution-api/rehearsal', { cookie: w.cookies.admin, body: { phone: '5585999990001' } })
		expect(res.json).toMatchObject({ ok: false, verdict: 'Reprovado: configure a Evolution API antes do ensaio.' })
		const bad = await w.call('POST', '/api/evolution-api/rehearsal', { cookie: w.cookies.admin, body: { phone: 'abc' } })
		expect(bad.status).toBe(400)
	})
})
