import { describe, expect, it } from 'bun:test'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { CNPJ, EVOLUTION_TEST_KEY, type TestWorld, createTestApp, testWorld } from '../../apps/server/testing'
import { companies } from '../companies'
import { acquireLease } from '../jobs'
import { saveSettings } from '../settings'
import { type TemplateValues, renderTemplate, unknownVariables } from './model'
import { chooseRecipients, runNotifications, sendDue, setOptOut } from './notifications'
import { notificationSends } from './schema'

// 2026-11-20 is a Friday; 12:00 UTC is 09:00 in Brazil (America/Sao_Paulo, UTC-3).
const FRIDAY_9H = '2026-11-20T12:00:00.000Z'
const HOUR = 3_600_000
const DAY = 24 * HOUR

async function world(now = FRIDAY_9H) {
	const w = await testWorld({ now })
	await saveSettings(w.db, w.clock, w.ctx.secrets, [
		{ chave: 'evolution_api_url', valor: 'http://evolution.local' },
		{ chave: 'evolution_api_key', valor: EVOLUTION_TEST_KEY },
		{ chave: 'evolution_instance_name', valor: 'k-licencas' },
		{ chave: 'app.fornecedor_nome', valor: 'Kaizen Sistemas' }
	])
	return w
}

const turnOn = async (w: TestWorld, body: Record<string, unknown>) => {
	const res = await w.call('POST', '/api/notification-settings', { cookie: w.cookies.admin, body: { ativo: true, ...body } })
	if (res.status !== 201) throw new Error(`turn on: ${res.status} ${res.text}`)
	return res.json
}

const sends = async (w: TestWorld) => await w.db.select().from(notificationSends).orderBy(notificationSends.id)
const sentTo = (w: TestWorld) => w.evolution.sent.map((m) => m.number)
const run = (w: TestWorld) => runNotifications(w.ctx)

describe('notification settings (Notificações › Notificações)', () => {
	it('turning a type on creates it with the spec’s defaults and our own template signed with the vendor’s name', async () => {
		const w = await world()
		const created = await turnOn(w, { tipo: 'whatsapp_expiracao' })
		expect(created).toMatchObject({
			tipo: 'whatsapp_expiracao',
			ativo: true,
			dias_antecedencia: 7,
			horario_envio: '09:00:00',
			enviar_fins_semana: false
		})
		expect(created.template_mensagem).toContain('{{data_vencimento}}')
		expect(created.template_mensagem).toContain('Kaizen Sistemas')
		expect(unknownVariables(created.template_mensagem)).toEqual([])
		const edited = await w.call('PUT', `/api/notification-settings/${created.id}`, {
			cookie: w.cookies.admin,
			body: { dias_antecedencia: 10, horario_envio: '08:30' }
		})
		expect(edited.status).toBe(200)
		expect(edited.json).toMatchObject({ dias_antecedencia: 10, horario_envio: '08:30:00', ativo: true })
		const listed = await w.call('GET', '/api/notification-settings', { cookie: w.cookies.admin })
		expect(listed.json).toHaveLength(1)
		expect(listed.json[0]).toMatchObject({ id: created.id, dias_antecedencia: 10 })
		// Posting the same type again updates the one row (the unique type), it does not add a second.
		await turnOn(w, { tipo: 'whatsapp_expiracao', ativo: false })
		expect((await w.call('GET', '/api/notification-settings', { cookie: w.cookies.admin })).json).toMatchObject([
			{ id: created.id, ativo: false, dias_antecedencia: 10 }
		])
	})

	it('refuses bad input with a pt-BR message and saves nothing', async () => {
		const w = await world()
		const created = await turnOn(w, { tipo: 'whatsapp_expiracao' })
		const bad: [Record<string, unknown>, RegExp][] = [
			[{ dias_antecedencia: 0 }, /de 1 a 30/],
			[{ dias_antecedencia: 31 }, /de 1 a 30/],
			[{ dias_antecedencia: 2.5 }, /inteiro/],
			[{ dias_antecedencia: '7' }, /número/],
			[{ horario_envio: '24:00:00' }, /Horário de envio inválido/],
			[{ horario_envio: '9h' }, /Horário de envio inválido/],
			[{ horario_envio: '09:00:60' }, /Horário de envio inválido/],
			[{ template_mensagem: '   ' }, /obrigatório/],
			[{ template_mensagem: 'x'.repeat(4001) }, /no máximo 4000/],
			[{ template_mensagem: 'Olá\u202E{{empresa_nome}}' }, /caracteres não permitidos/],
			[{ template_mensagem: 'Olá {{cliente}}, vence {{ data_vencimento }}' }, /\{\{cliente\}\}.*\{\{empresa_nome\}\}/],
			[{ ativo: 'sim' }, /verdadeiro ou falso/],
			[{}, /Nada para alterar/]
		]
		for (const [body, message] of bad) {
			const res = await w.call('PUT', `/api/notification-settings/${created.id}`, { cookie: w.cookies.admin, body })
			expect(res.status, JSON.stringify(body)).toBe(400)
			expect(res.json.message).toMatch(message)
		}
		const refusedType = await w.call('POST', '/api/notification-settings', {
			cookie: w.cookies.admin,
			body: { tipo: 'sms_expiracao', ativo: true }
		})
		expect(refusedType.status).toBe(400)
		expect(refusedType.json.message).toContain('Tipo inválido')
		expect((await w.call('PUT', '/api/notification-settings/999', { cookie: w.cookies.admin, body: { ativo: true } })).status).toBe(404)
		const [unchanged] = (await w.call('GET', '/api/notification-settings', { cookie: w.cookies.admin })).json
		expect(unchanged).toEqual(created)
	})

	it('every route is the administrador’s alone', async () => {
		const w = await world()
		const created = await turnOn(w, { tipo: 'whatsapp_expiracao' })
		const routes: [string, string, unknown?][] = [
			['GET', '/api/notification-settings'],
			['POST', '/api/notification-settings', { tipo: 'whatsapp_expirada', ativo: true }],
			['PUT', `/api/notification-settings/${created.id}`, { ativo: false }],
			['GET', '/api/notification-settings/preview'],
			['POST', '/api/notification-settings/run'],
			['GET', '/api/notification-settings/log']
		]
		for (const [method, path, body] of routes) {
			expect((await w.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
			for (const cookie of [w.cookies.gerente, w.cookies.rep]) {
				expect((await w.call(method, path, { cookie, body })).status, `${method} ${path}`).toBe(403)
			}
		}
		const [still] = (await w.call('GET', '/api/notification-settings', { cookie: w.cookies.admin })).json
		expect(still.ativo).toBe(true)
		expect(w.evolution.sent).toHaveLength(0)
	})
})

describe('templates', () => {
	const values: TemplateValues = {
		empresa_nome: 'Padaria Pão Quente LTDA',
		sistema: 'K-PDV, K-CHEF',
		data_vencimento: '27/11/2026',
		dias_restantes: '7',
		representante_nome: 'Rafael Rep'
	}
	it('fills every variable, with or without spaces inside the braces', () => {
		expect(
			renderTemplate(
				'{{empresa_nome}}|{{ sistema }}|{{data_vencimento}}|{{dias_restantes}}|{{representante_nome}}|{{empresa_nome}}',
				values
			)
		).toBe('Padaria Pão Quente LTDA|K-PDV, K-CHEF|27/11/2026|7|Rafael Rep|Padaria Pão Quente LTDA')
	})
	it('names the unknown variables once each', () => {
		expect(unknownVariables('{{nome}} {{empresa_nome}} {{nome}} {{ valor }} {{constructor}}')).toEqual(['nome', 'valor', 'constructor'])
		expect(unknownVariables('Sem variáveis, só {chaves} simples.')).toEqual([])
	})
	it('renders a real company in the preview: its name, systems, date in pt-BR, days left and representative', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Padaria Pão Quente', {
			fone: '(85) 99999-0001',
			validade_licenca: '2026-11-27',
			bloqueado: 'S',
			bloqueado_katelie: 'S',
			bloqueado_kprevenda: 'S'
		})
		await turnOn(w, {
			tipo: 'whatsapp_expiracao',
			template_mensagem: '{{empresa_nome}} / {{sistema}} / {{data_vencimento}} / {{dias_restantes}} / {{representante_nome}}'
		})
		const preview = await w.call('GET', '/api/notification-settings/preview', { cookie: w.cookies.admin })
		expect(preview.json).toEqual([
			{
				tipo: 'whatsapp_expiracao',
				empresa_codigo: expect.any(Number),
				empresa: 'Padaria Pão Quente',
				telefone: '5585999990001',
				motivo: null,
				texto: 'Padaria Pão Quente / K-PDV, K-CHEF / 27/11/2026 / 7 / Rafael Rep'
			}
		])
		// The preview sends nothing and writes nothing.
		expect(w.evolution.sent).toHaveLength(0)
		expect(await sends(w)).toHaveLength(0)
	})
})

describe('the daily run', () => {
	it('tells each licence about to end once, on the right days only', async () => {
		const w = await world()
		const in3 = await w.company(CNPJ.rep, 'Em 3 dias', { fone: '85999990003', validade_licenca: '2026-11-23' })
		const in7 = await w.company(CNPJ.rep, 'Em 7 dias', { fone: '85999990007', validade_licenca: '2026-11-27' })
		await w.company(CNPJ.rep, 'Em 8 dias', { fone: '85999990008', validade_licenca: '2026-11-28' })
		await w.company(CNPJ.rep, 'Vencida ontem', { fone: '85999990009', validade_licenca: '2026-11-19' })
		await w.company(CNPJ.rep, 'Sem data', { fone: '85999990010' })
		await turnOn(w, { tipo: 'whatsapp_expiracao', enviar_fins_semana: true })
		expect(await run(w)).toEqual({ enviadas: 2, falhas: 0, ignoradas: 0 })
		expect(sentTo(w)).toEqual(['5585999990003', '5585999990007'])
		expect(w.evolution.sent[0].text).toContain('23/11/2026')
		expect((await sends(w)).map((s) => [s.empresa_codigo, s.data_licenca, s.status, s.tentativas])).toEqual([
			[in3.codigo, '2026-11-23', 'enviada', 1],
			[in7.codigo, '2026-11-27', 'enviada', 1]
		])
		// Again the same day, and every minute after: nothing new.
		for (let i = 0; i < 3; i++) {
			w.clock.advance(60_000)
			await run(w)
		}
		expect(w.evolution.sent).toHaveLength(2)
		// Saturday: the licence of the 28th is now 7 days away.
		w.clock.advance(DAY)
		await run(w)
		expect(sentTo(w)).toEqual(['5585999990003', '5585999990007', '5585999990008'])
	})

	it('sends from the configured time on, in Brazil time, and on weekends only when allowed', async () => {
		// Friday 08:59 in Brazil.
		const w = await world('2026-11-20T11:59:00.000Z')
		await w.company(CNPJ.rep, 'Sexta', { fone: '85999990001', validade_licenca: '2026-11-25' })
		const setting = await turnOn(w, { tipo: 'whatsapp_expiracao' })
		await run(w)
		expect(w.evolution.sent).toHaveLength(0)
		expect((await w.call('GET', '/api/notification-settings/preview', { cookie: w.cookies.admin })).json).toEqual([])
		w.clock.advance(60_000)
		await run(w)
		expect(sentTo(w)).toEqual(['5585999990001'])
		// Saturday and Sunday 10:00: a licence entering the window waits for Monday.
		await w.company(CNPJ.rep, 'Fim de semana', { fone: '85999990002', validade_licenca: '2026-11-28' })
		w.clock.set('2026-11-21T13:00:00.000Z')
		await run(w)
		w.clock.set('2026-11-22T13:00:00.000Z')
		await run(w)
		expect(w.evolution.sent).toHaveLength(1)
		w.clock.set('2026-11-23T12:00:00.000Z')
		await run(w)
		expect(sentTo(w)).toEqual(['5585999990001', '5585999990002'])
		// With weekends allowed, Saturday sends.
		const allowed = await w.call('PUT', `/api/notification-settings/${setting.id}`, {
			cookie: await w.login(CNPJ.admin),
			body: { enviar_fins_semana: true }
		})
		expect(allowed.json.enviar_fins_semana).toBe(true)
		await w.company(CNPJ.rep, 'Sábado', { fone: '85999990004', validade_licenca: '2026-12-03' })
		w.clock.set('2026-11-28T12:00:00.000Z')
		await run(w)
		expect(sentTo(w)).toContain('5585999990004')
	})

	it('sends nothing while the global switch is off, and catches up once it is back on', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Empresa', { fone: '85999990001', validade_licenca: '2026-11-25' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		await saveSettings(w.db, w.clock, w.ctx.secrets, [{ chave: 'app.notificacoes_habilitadas', valor: 'false' }])
		expect(await run(w)).toEqual({ enviadas: 0, falhas: 0, ignoradas: 0 })
		expect((await w.call('GET', '/api/notification-settings/preview', { cookie: w.cookies.admin })).json).toEqual([])
		expect(await sends(w)).toHaveLength(0)
		await saveSettings(w.db, w.clock, w.ctx.secrets, [{ chave: 'app.notificacoes_habilitadas', valor: 'true' }])
		w.clock.advance(60_000)
		await run(w)
		expect(sentTo(w)).toEqual(['5585999990001'])
	})

	it('tells an expired licence once per date, and a renewal re-arms both notices for the new date', async () => {
		const w = await world()
		const c = await w.company(CNPJ.rep, 'Renovada', { fone: '85999990001', validade_licenca: '2026-11-18' })
		await w.company(CNPJ.rep, 'Vencida há muito', { fone: '85999990002', validade_licenca: '2026-09-01' })
		await turnOn(w, { tipo: 'whatsapp_expiracao', enviar_fins_semana: true })
		await turnOn(w, { tipo: 'whatsapp_expirada', enviar_fins_semana: true, template_mensagem: 'Venceu em {{data_vencimento}}' })
		await run(w)
		expect(w.evolution.sent.map((m) => [m.number, m.text])).toEqual([['5585999990001', 'Venceu em 18/11/2026']])
		w.clock.advance(DAY)
		await run(w)
		expect(w.evolution.sent).toHaveLength(1)
		// Renewed until 2026-12-25: nothing until that date is 7 days away, then one notice before and one after.
		await w.db.update(companies).set({ validade_licenca: '2026-12-25' }).where(eq(companies.codigo, c.codigo))
		w.clock.set('2026-12-17T12:00:00.000Z')
		await run(w)
		expect(w.evolution.sent).toHaveLength(1)
		w.clock.set('2026-12-18T12:00:00.000Z')
		await run(w)
		expect(w.evolution.sent).toHaveLength(2)
		expect(w.evolution.sent[1].text).toContain('25/12/2026')
		w.clock.set('2026-12-26T12:00:00.000Z')
		await run(w)
		expect(w.evolution.sent.map((m) => m.text).slice(2)).toEqual(['Venceu em 25/12/2026'])
		expect((await sends(w)).map((s) => [s.tipo, s.data_licenca])).toEqual([
			['whatsapp_expirada', '2026-11-18'],
			['whatsapp_expiracao', '2026-12-25'],
			['whatsapp_expirada', '2026-12-25']
		])
	})

	it('welcomes only the companies registered after the type was turned on, once each', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Antiga', { fone: '85999990001', validade_licenca: '2027-06-01', data: '2026-11-20' })
		await turnOn(w, { tipo: 'whatsapp_boas_vindas', enviar_fins_semana: true })
		await w.companyVia({ razao: 'Nova Cliente', fone: '(85) 99999-0002' })
		await run(w)
		expect(sentTo(w)).toEqual(['5585999990002'])
		expect(w.evolution.sent[0].text).toContain('Nova Cliente')
		w.clock.advance(DAY)
		await run(w)
		expect(w.evolution.sent).toHaveLength(1)
	})

	it('skips companies without a valid phone or that opted out, recording why', async () => {
		const w = await world()
		const none = await w.company(CNPJ.rep, 'Sem telefone', { validade_licenca: '2026-11-25' })
		const bad = await w.company(CNPJ.rep, 'Telefone errado', { fone: '1234', validade_licenca: '2026-11-25' })
		const out = await w.company(CNPJ.rep, 'Descadastrada', { fone: '(85) 9999-0003', validade_licenca: '2026-11-25' })
		const ok = await w.company(CNPJ.rep, 'Certa', { fone: '(85) 3222-0004', validade_licenca: '2026-11-25' })
		await setOptOut(w.db, w.clock.now(), '5585999990003', true)
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		const preview = (await w.call('GET', '/api/notification-settings/preview', { cookie: w.cookies.admin })).json
		expect(preview.map((p: { empresa: string; motivo: string | null }) => [p.empresa, p.motivo])).toEqual([
			['Sem telefone', 'Empresa sem telefone cadastrado.'],
			['Telefone errado', 'Telefone da empresa inválido.'],
			['Descadastrada', 'Número descadastrado pelo cliente (PARAR).'],
			['Certa', null]
		])
		expect(await run(w)).toEqual({ enviadas: 1, falhas: 0, ignoradas: 3 })
		expect(sentTo(w)).toEqual(['558532220004'])
		expect((await sends(w)).map((s) => [s.empresa_codigo, s.status])).toEqual([
			[none.codigo, 'ignorada'],
			[bad.codigo, 'ignorada'],
			[out.codigo, 'ignorada'],
			[ok.codigo, 'enviada']
		])
	})

	it('settles each message when it goes: a renewal, a deletion or a type turned off in the meantime is not sent', async () => {
		const w = await world()
		const renewed = await w.company(CNPJ.rep, 'Renovou', { fone: '85999990001', validade_licenca: '2026-11-25' })
		const deleted = await w.company(CNPJ.rep, 'Excluída', { fone: '85999990002', validade_licenca: '2026-11-25' })
		const renamed = await w.company(CNPJ.rep, 'Nome antigo', { fone: '85999990003', validade_licenca: '2026-11-25' })
		await w.company(CNPJ.rep, 'Vencida', { fone: '85999990004', validade_licenca: '2026-11-19' })
		await turnOn(w, { tipo: 'whatsapp_expiracao', template_mensagem: '{{empresa_nome}}' })
		const expired = await turnOn(w, { tipo: 'whatsapp_expirada' })
		expect(await chooseRecipients(w.ctx)).toBe(4)
		await w.db.update(companies).set({ validade_licenca: '2027-01-25' }).where(eq(companies.codigo, renewed.codigo))
		await w.db.delete(companies).where(eq(companies.codigo, deleted.codigo))
		await w.db.update(companies).set({ razao: 'Nome novo' }).where(eq(companies.codigo, renamed.codigo))
		await w.call('PUT', `/api/notification-settings/${expired.id}`, { cookie: w.cookies.admin, body: { ativo: false } })
		expect(await sendDue(w.ctx)).toEqual({ enviadas: 1, falhas: 0, ignoradas: 3 })
		expect(w.evolution.sent.map((m) => [m.number, m.text])).toEqual([['5585999990003', 'Nome novo']])
		expect((await sends(w)).map((s) => [s.status, s.tentativas, s.erro])).toEqual([
			['ignorada', 0, expect.stringContaining('renovação')],
			['ignorada', 0, 'A empresa foi excluída antes do envio.'],
			['enviada', 1, null],
			['ignorada', 0, 'O tipo de notificação foi desligado antes do envio.']
		])
	})

	it('paces its sends a few seconds apart with jitter, never a burst', async () => {
		const w = await world()
		w.ctx.config.whatsappPauseMs = 3000
		for (let i = 1; i <= 4; i++) await w.company(CNPJ.rep, `Empresa ${i}`, { fone: `8599999000${i}`, validade_licenca: '2026-11-25' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		const pauses: number[] = []
		const sentBefore: number[] = []
		await chooseRecipients(w.ctx)
		await sendDue(w.ctx, {
			sleep: async (ms) => {
				pauses.push(ms)
				sentBefore.push(w.evolution.sent.length)
			}
		})
		expect(w.evolution.sent).toHaveLength(4)
		expect(sentBefore).toEqual([1, 2, 3])
		for (const ms of pauses) expect(ms >= 3000 && ms < 6000).toBe(true)
	})

	it('retries a failing send with growing delays and gives up after 5 attempts', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Sem WhatsApp', { fone: '85999990001', validade_licenca: '2026-11-25' })
		w.evolution.withoutWhatsapp.add('5585999990001')
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		expect(await run(w)).toEqual({ enviadas: 0, falhas: 1, ignoradas: 0 })
		const attempts = async () => (await sends(w))[0]
		expect(await attempts()).toMatchObject({ status: 'pendente', tentativas: 1 })
		const gaps: number[] = []
		let last = w.clock.now().getTime()
		while ((await attempts()).status === 'pendente') {
			const next = Date.parse((await attempts()).proxima_tentativa)
			// Not before it is due.
			w.clock.set(new Date(next - 1000))
			await run(w)
			expect((await attempts()).tentativas).toBe(gaps.length + 1)
			w.clock.set(new Date(next))
			await run(w)
			gaps.push(next - last)
			last = next
		}
		expect(gaps).toEqual([60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000])
		expect(await attempts()).toMatchObject({ status: 'falhou', tentativas: 5 })
		expect((await attempts()).erro).toBeTruthy()
		w.clock.advance(DAY)
		await run(w)
		expect((await attempts()).tentativas).toBe(5)
		expect(w.evolution.sent).toHaveLength(0)
	})

	it('stops when the gateway is disconnected or fails several times in a row, leaving the rest for later', async () => {
		const w = await world()
		for (let i = 1; i <= 5; i++) await w.company(CNPJ.rep, `Empresa ${i}`, { fone: `8599999000${i}`, validade_licenca: '2026-11-25' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		w.evolution.setConnectionState('close')
		expect(await run(w)).toEqual({ enviadas: 0, falhas: 0, ignoradas: 0 })
		expect((await sends(w)).map((s) => s.status)).toEqual(Array(5).fill('pendente'))
		w.evolution.setConnectionState('open')
		for (let i = 1; i <= 4; i++) w.evolution.withoutWhatsapp.add(`558599999000${i}`)
		expect(await run(w)).toEqual({ enviadas: 0, falhas: 3, ignoradas: 0 })
		expect((await sends(w)).map((s) => s.tentativas)).toEqual([1, 1, 1, 0, 0])
		for (let i = 1; i <= 4; i++) w.evolution.withoutWhatsapp.delete(`558599999000${i}`)
		w.clock.advance(60_000)
		expect(await run(w)).toEqual({ enviadas: 5, falhas: 0, ignoradas: 0 })
		expect(new Set(sentTo(w)).size).toBe(5)
	})

	it('two runs at once, and the manual run beside the scheduled one, send each message once', async () => {
		const w = await world()
		for (let i = 1; i <= 6; i++) await w.company(CNPJ.rep, `Empresa ${i}`, { fone: `8599999000${i}`, validade_licenca: '2026-11-25' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		const [a, b] = await Promise.all([run(w), run(w)])
		expect(a.enviadas + b.enviadas).toBe(6)
		expect(w.evolution.sent).toHaveLength(6)
		expect(new Set(sentTo(w)).size).toBe(6)
		// While a run holds the job, 'Enviar agora' says so instead of sending beside it.
		expect(await acquireLease(w.db, w.clock, 'messaging.whatsapp-notifications', 'cron-1', 60_000)).not.toBeNull()
		const busy = await w.call('POST', '/api/notification-settings/run', { cookie: w.cookies.admin })
		expect(busy.json).toEqual({ enviadas: 0, falhas: 0, ignoradas: 0, em_andamento: true })
		w.clock.advance(61_000)
		const now = await w.call('POST', '/api/notification-settings/run', { cookie: w.cookies.admin })
		expect(now.json).toEqual({ enviadas: 0, falhas: 0, ignoradas: 0, em_andamento: false })
		expect(w.evolution.sent).toHaveLength(6)
	})

	it('never repeats a send that may have reached the gateway: a lost answer or a crash mid-send', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Resposta perdida', { fone: '85999990001', validade_licenca: '2026-11-25' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		// The gateway gets the message, and the answer is lost on the way back.
		const deliver = w.ctx.gateways.evolution
		w.ctx.gateways.evolution = async (url, init) => {
			const answer = await deliver(url, init)
			if (url.includes('/message/sendText/')) throw new TypeError('fetch failed: connection reset')
			return answer
		}
		expect(await run(w)).toEqual({ enviadas: 0, falhas: 1, ignoradas: 0 })
		w.ctx.gateways.evolution = deliver
		expect((await sends(w))[0]).toMatchObject({ status: 'incerta', tentativas: 1 })
		w.clock.advance(DAY)
		await run(w)
		expect(w.evolution.sent).toHaveLength(1)
		expect((await sends(w))[0].status).toBe('incerta')
	})

	it('after a restart, sends nothing twice: a send cut short is set aside, the rest goes once', async () => {
		const file = join(tmpdir(), `kportal-notify-${crypto.randomUUID()}.db`)
		try {
			const w = await testWorld({ now: FRIDAY_9H, dbFile: file })
			await saveSettings(w.db, w.clock, w.ctx.secrets, [
				{ chave: 'evolution_api_url', valor: 'http://evolution.local' },
				{ chave: 'evolution_api_key', valor: EVOLUTION_TEST_KEY },
				{ chave: 'evolution_instance_name', valor: 'k-licencas' }
			])
			for (let i = 1; i <= 3; i++) await w.company(CNPJ.rep, `Empresa ${i}`, { fone: `8599999000${i}`, validade_licenca: '2026-11-25' })
			await turnOn(w, { tipo: 'whatsapp_expiracao' })
			// The first process sends one, takes the second in hand and dies during the call.
			await sendDueOnce(w)
			expect(w.evolution.sent).toHaveLength(1)
			await w.db.update(notificationSends).set({ status: 'enviando', tentativas: 1 }).where(eq(notificationSends.id, 2))
			w.db.$client.close()
			// The new process, some minutes later.
			const restarted = await createTestApp({ now: '2026-11-20T12:15:00.000Z', dbFile: file })
			await chooseRecipients(restarted.ctx)
			expect(await runNotifications(restarted.ctx)).toEqual({ enviadas: 1, falhas: 0, ignoradas: 0 })
			expect(restarted.evolution.sent.map((m) => m.number)).toEqual(['5585999990003'])
			const rows = await restarted.db.select().from(notificationSends).orderBy(notificationSends.id)
			expect(rows.map((r) => r.status)).toEqual(['enviada', 'incerta', 'enviada'])
			expect(rows[1].erro).toContain('pode ter sido enviada')
			restarted.clock.advance(DAY)
			await runNotifications(restarted.ctx)
			expect(restarted.evolution.sent).toHaveLength(1)
			restarted.db.$client.close()
		} finally {
			for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
		}
	})
})

/** Chooses today's recipients and sends exactly one of them (the process 'dies' after it). */
async function sendDueOnce(w: TestWorld) {
	await chooseRecipients(w.ctx)
	const ids = (await sends(w)).map((s) => s.id)
	// Holding back all but the first keeps this run to one send.
	await w.db
		.update(notificationSends)
		.set({ proxima_tentativa: '2099-01-01T00:00:00.000Z' })
		.where(eq(notificationSends.status, 'pendente'))
	await w.db.update(notificationSends).set({ proxima_tentativa: FRIDAY_9H }).where(eq(notificationSends.id, ids[0]))
	await sendDue(w.ctx)
	await w.db.update(notificationSends).set({ proxima_tentativa: FRIDAY_9H }).where(eq(notificationSends.status, 'pendente'))
}

describe('Enviar agora and the send log', () => {
	it('the run answers what it did, and the log lists it by type and status, newest first', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Enviada', { fone: '85999990001', validade_licenca: '2026-11-25' })
		await w.company(CNPJ.rep, 'Sem telefone', { validade_licenca: '2026-11-24' })
		await w.company(CNPJ.rep, 'Vencida', { fone: '85999990003', validade_licenca: '2026-11-19' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		await turnOn(w, { tipo: 'whatsapp_expirada' })
		const ran = await w.call('POST', '/api/notification-settings/run', { cookie: w.cookies.admin })
		expect(ran.status).toBe(200)
		expect(ran.json).toEqual({ enviadas: 2, falhas: 0, ignoradas: 1, em_andamento: false })
		const log = await w.call('GET', '/api/notification-settings/log?page=1&limit=2', { cookie: w.cookies.admin })
		expect(log.status).toBe(200)
		expect(log.json.pagination).toMatchObject({ page: 1, limit: 2, total: 3 })
		expect(log.json.entries).toHaveLength(2)
		const all = (await w.call('GET', '/api/notification-settings/log', { cookie: w.cookies.admin })).json.entries
		expect(all[0].id).toBeGreaterThan(all[1].id)
		const sent = all.find((e) => e.empresa === 'Enviada')!
		expect(sent).toMatchObject({ status: 'enviada', tentativas: 1, telefone: '5585999990001', data_licenca: '2026-11-25' })
		expect(sent.message_id).toBe(w.evolution.sent.find((m) => m.number === '5585999990001')!.id)
		const expired = await w.call('GET', '/api/notification-settings/log?tipo=whatsapp_expirada', { cookie: w.cookies.admin })
		expect(expired.json.entries.map((e) => e.empresa)).toEqual(['Vencida'])
		const skipped = await w.call('GET', '/api/notification-settings/log?status=ignorada', { cookie: w.cookies.admin })
		expect(skipped.json.entries.map((e) => [e.empresa, e.erro])).toEqual([['Sem telefone', 'Empresa sem telefone cadastrado.']])
		for (const query of ['status=talvez', 'tipo=sms', 'page=0', 'limit=500', 'limit=abc']) {
			const bad = await w.call('GET', `/api/notification-settings/log?${query}`, { cookie: w.cookies.admin })
			expect(bad.status, query).toBe(400)
			expect(bad.json.message).toBeTruthy()
		}
	})
})

describe('the template preview’s sample companies (issue 34, point 10)', () => {
	const samples = async (w: TestWorld, id: number) =>
		(await w.call('GET', `/api/notification-settings/${id}/amostras`, { cookie: w.cookies.admin })).json

	it('are companies the type would really tell today, with true days and dates; a labelled example when there is none', async () => {
		// Friday 08:50 in Brazil: before the sending hour, the samples are still today's.
		const w = await world('2026-11-20T11:50:00.000Z')
		const expiring = await turnOn(w, { tipo: 'whatsapp_expiracao', dias_antecedencia: 7 })
		const expired = await turnOn(w, { tipo: 'whatsapp_expirada' })
		// None yet: a clearly labelled example, dated as the type would date it, never a past date with 0 days.
		expect(await samples(w, expiring.id)).toEqual([
			{
				empresa_codigo: null,
				empresa: 'Empresa Exemplo (nenhuma empresa recebe este aviso hoje)',
				exemplo: true,
				valores: {
					empresa_nome: 'Empresa Exemplo Ltda',
					sistema: 'K-PDV, K-CHEF',
					data_vencimento: '27/11/2026',
					dias_restantes: '7',
					representante_nome: 'seu representante'
				}
			}
		])
		expect((await samples(w, expired.id))[0]).toMatchObject({
			exemplo: true,
			valores: { data_vencimento: '19/11/2026', dias_restantes: '0' }
		})

		const in3 = await w.company(CNPJ.rep, 'Em 3 dias', { fone: '85999990003', validade_licenca: '2026-11-23' })
		await w.company(CNPJ.rep, 'Em 8 dias', { fone: '85999990008', validade_licenca: '2026-11-28' })
		const lapsed = await w.company(CNPJ.rep, 'Vencida ontem', { fone: '85999990009', validade_licenca: '2026-11-19' })
		await w.company(CNPJ.rep, 'Vencida há 2 meses', { fone: '85999990010', validade_licenca: '2026-09-19' })
		expect(await samples(w, expiring.id)).toEqual([
			{
				empresa_codigo: in3.codigo,
				empresa: 'Em 3 dias',
				exemplo: false,
				valores: expect.objectContaining({ empresa_nome: 'Em 3 dias', data_vencimento: '23/11/2026', dias_restantes: '3' })
			}
		])
		expect((await samples(w, expired.id)).map((s) => s.empresa_codigo)).toEqual([lapsed.codigo])
		// Already told today: still the company the type tells today.
		w.clock.advance(11 * 60_000)
		await run(w)
		expect(sentTo(w)).toEqual(['5585999990003', '5585999990009'])
		expect((await samples(w, expiring.id)).map((s) => s.empresa_codigo)).toEqual([in3.codigo])
		expect((await w.call('GET', '/api/notification-settings/999/amostras', { cookie: w.cookies.admin })).status).toBe(404)
		expect((await w.call('GET', `/api/notification-settings/${expiring.id}/amostras`, { cookie: w.cookies.rep })).status).toBe(403)
	})
})

describe('“Envios de hoje” and “Enviar agora” agree (issue 34, point 11)', () => {
	const today = async (w: TestWorld) => (await w.call('GET', '/api/notification-settings/hoje', { cookie: w.cookies.admin })).json

	it('says how many went out today and when; a run already going out is reported as such, never as an error', async () => {
		const w = await world()
		await w.company(CNPJ.rep, 'Em 3 dias', { fone: '85999990003', validade_licenca: '2026-11-23' })
		await w.company(CNPJ.rep, 'Em 5 dias', { fone: '85999990005', validade_licenca: '2026-11-25' })
		await turnOn(w, { tipo: 'whatsapp_expiracao' })
		expect(await today(w)).toEqual({ enviadas: 0, ultimo_envio: null, a_enviar: 0, em_andamento: false })
		const ran = await w.call('POST', '/api/notification-settings/run', { cookie: w.cookies.admin })
		expect(ran.json).toEqual({ enviadas: 2, falhas: 0, ignoradas: 0, em_andamento: false })
		const after = await today(w)
		expect(after).toEqual({ enviadas: 2, ultimo_envio: expect.stringMatching(/^2026-11-20T12:00/), a_enviar: 0, em_andamento: false })
		// Nothing left to send: the preview is empty and the screen can say why (both went out).
		expect((await w.call('GET', '/api/notification-settings/preview', { cookie: w.cookies.admin })).json).toEqual([])

		// The scheduled run holds the job: 'Enviar agora' says messages are going out, with 200, and sends nothing beside it.
		expect(await acquireLease(w.db, w.clock, 'messaging.whatsapp-notifications', 'cron-1', 60_000)).not.toBeNull()
		const busy = await w.call('POST', '/api/notification-settings/run', { cookie: w.cookies.admin })
		expect(busy.status).toBe(200)
		expect(busy.json).toEqual({ enviadas: 0, falhas: 0, ignoradas: 0, em_andamento: true })
		expect((await today(w)).em_andamento).toBe(true)
		expect(w.evolution.sent).toHaveLength(2)
		// Yesterday's sends are not today's.
		w.clock.advance(24 * HOUR)
		await w.login(CNPJ.admin).then((cookie) => (w.cookies.admin = cookie))
		expect((await today(w)).enviadas).toBe(0)
	})
})
