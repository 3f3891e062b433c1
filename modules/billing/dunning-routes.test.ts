import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CNPJ, billingWorld, carneBody, refusalOf, saveGateway, settleAsaas, testWorld } from '../../apps/server/testing'
import { activities } from '../activity'
import { formatCnpj } from '../core'
import { representatives } from '../resellers'
import { asaasAccount, asaasClient } from './accounts'
import { DEFAULT_STEP_DAYS, type DunningBody, defaultSteps } from './model'
import { reguasCobranca } from './schema'

/** A schedule as the screen saves it: the defaults with `changes`. */
const body = (changes: Partial<Record<keyof DunningBody, unknown>> = {}) => ({
	ativa: true,
	passos: defaultSteps(),
	horario_envio: '09:00:00',
	enviar_fins_semana: false,
	bloquear_apos_dias: null,
	...changes
})

describe('GET/PUT /api/regua-cobranca and POST /api/regua-cobranca/executar', () => {
	it('a representante reads and saves their own schedule; an administrador any one, naming it; nobody else', async () => {
		const w = await testWorld()
		const own = await w.call('GET', '/api/regua-cobranca', { cookie: w.cookies.rep })
		expect(own.status).toBe(200)
		expect(own.json).toMatchObject({
			representante_cnpj: CNPJ.rep,
			representante_nome: 'Rafael Rep',
			ativa: true,
			horario_envio: '09:00:00',
			enviar_fins_semana: false,
			bloquear_apos_dias: null,
			personalizada: false,
			instancia: null
		})
		expect(own.json.passos?.map((p) => p.dias)).toEqual([...DEFAULT_STEP_DAYS])

		// Saved in any order, kept in the order of the days.
		const steps = [
			{ dias: 2, template_mensagem: 'Olá {{empresa_nome}}, a parcela {{parcela}} está {{dias_atraso}} dia(s) atrasada.', ativo: true },
			{ dias: -5, template_mensagem: 'Vence em {{vencimento}}: {{valor}}. {{link_boleto}}', ativo: false }
		]
		const saved = await w.call('PUT', '/api/regua-cobranca', {
			cookie: w.cookies.rep,
			body: body({ passos: steps, horario_envio: '08:30', enviar_fins_semana: true, bloquear_apos_dias: 15 })
		})
		expect(saved.status).toBe(200)
		expect(saved.json.message).toBe('Régua de cobrança salva.')
		expect(saved.json.regua).toMatchObject({
			horario_envio: '08:30:00',
			enviar_fins_semana: true,
			bloquear_apos_dias: 15,
			personalizada: true
		})
		expect(saved.json.regua?.passos.map((p) => p.dias)).toEqual([-5, 2])

		// The administrador must say whose; names any representative; an unknown one is not found.
		const unnamed = await w.call('GET', '/api/regua-cobranca', { cookie: w.cookies.admin })
		expect(unnamed.status).toBe(400)
		expect(refusalOf(unnamed)).toEqual({ message: 'Informe de qual representante é a régua de cobrança (?representante=<CNPJ>).' })
		const asAdmin = await w.call('GET', `/api/regua-cobranca?representante=${encodeURIComponent(formatCnpj(CNPJ.rep))}`, {
			cookie: w.cookies.admin
		})
		expect(asAdmin.json).toMatchObject({ representante_cnpj: CNPJ.rep, bloquear_apos_dias: 15 })
		const edited = await w.call('PUT', `/api/regua-cobranca?representante=${CNPJ.rep2}`, {
			cookie: w.cookies.admin,
			body: body({ ativa: false })
		})
		expect(edited.json.regua).toMatchObject({ representante_cnpj: CNPJ.rep2, representante_nome: 'Sara Rep', ativa: false })
		expect((await w.call('GET', '/api/regua-cobranca?representante=11444777000161', { cookie: w.cookies.admin })).status).toBe(404)
		const log = (await w.db.select().from(activities)).filter((a) => a.event === 'billing.dunning-saved')
		expect(log.map((a) => [a.title, a.subtitle, a.user_nome])).toEqual([
			['Régua de cobrança atualizada', 'Rafael Rep · ativa · bloqueio após 15 dias de atraso', 'Rafael Rep'],
			['Régua de cobrança atualizada', 'Sara Rep · desligada · sem bloqueio', 'Ana Admin']
		])

		// A representante never reaches another's schedule; a gerente has none; nobody signed out.
		const other = await w.call('GET', `/api/regua-cobranca?representante=${CNPJ.rep2}`, { cookie: w.cookies.rep })
		expect(other.status).toBe(403)
		expect(other.json.message).toBe('Você só pode ver e alterar a sua própria régua de cobrança.')
		expect((await w.call('PUT', `/api/regua-cobranca?representante=${CNPJ.rep2}`, { cookie: w.cookies.rep, body: body() })).status).toBe(
			403
		)
		expect((await w.call('GET', '/api/regua-cobranca', { cookie: w.cookies.gerente })).status).toBe(403)
		expect((await w.call('GET', '/api/regua-cobranca')).status).toBe(401)
		expect((await w.call('GET', `/api/regua-cobranca?representante=${CNPJ.rep2}`, { cookie: w.cookies.admin })).json).toMatchObject({
			ativa: false
		})
		// Running every schedule at once is the administrador's.
		expect((await w.call('POST', '/api/regua-cobranca/executar', { cookie: w.cookies.rep })).status).toBe(403)
		expect((await w.call('POST', '/api/regua-cobranca/executar', { cookie: w.cookies.gerente })).status).toBe(403)
		const run = await w.call('POST', '/api/regua-cobranca/executar', { cookie: w.cookies.admin })
		expect(run.json).toEqual({
			message: 'Nada a enviar hoje.',
			escolhidas: 0,
			bloqueadas: 0,
			enviadas: 0,
			falhas: 0,
			ignoradas: 0,
			a_enviar: 0,
			em_andamento: false
		})
	})

	it('refuses a bad schedule with a clear message and changes nothing', async () => {
		const w = await testWorld()
		const refused = async (changes: Partial<Record<keyof DunningBody, unknown>>) => {
			const res = await w.call('PUT', '/api/regua-cobranca', { cookie: w.cookies.rep, body: body(changes) })
			expect(res.status).toBe(400)
			return res.json.message
		}
		const steps = defaultSteps()
		expect(
			await refused({ passos: [{ ...steps[0], template_mensagem: 'Olá {{empresa_nome}}, pague {{valor_total}} até {{data}}.' }] })
		).toBe(
			'Passo "3 dias antes do vencimento": Variável desconhecida no modelo: {{valor_total}}, {{data}}. Use: {{empresa_nome}}, {{parcela}}, {{total_parcelas}}, {{valor}}, {{vencimento}}, {{dias_atraso}}, {{linha_digitavel}}, {{pix_copia_cola}}, {{link_boleto}}, {{representante_nome}}.'
		)
		expect(await refused({ passos: [steps[1], { ...steps[2], dias: 0 }] })).toBe(
			'Dois passos no mesmo dia (no dia do vencimento): deixe um só.'
		)
		expect(await refused({ passos: [{ ...steps[0], dias: 120 }] })).toBe('O dia do passo vai de -30 (antes do vencimento) a 90 (após).')
		expect(await refused({ passos: [{ ...steps[0], dias: 1.5 }] })).toBe('O dia do passo deve ser um número inteiro.')
		expect(await refused({ passos: [{ ...steps[0], template_mensagem: '   ' }] })).toBe('Modelo da mensagem é obrigatório.')
		expect(await refused({ passos: Array.from({ length: 13 }, (_, i) => ({ ...steps[0], dias: i })) })).toBe(
			'No máximo 12 passos na régua.'
		)
		expect(await refused({ bloquear_apos_dias: 1 })).toBe('Bloqueio: de 2 a 90 dias de atraso.')
		expect(await refused({ bloquear_apos_dias: '10' })).toBe('Dias para o bloqueio deve ser um número (ou null para não bloquear).')
		expect(await refused({ horario_envio: '25:00' })).toBe('Horário de envio inválido: use HH:MM:SS, de 00:00:00 a 23:59:59.')
		expect(await refused({ ativa: 'sim' })).toBe('Régua ativa deve ser verdadeiro ou falso.')
		// Nothing was written: the representative still runs on the defaults.
		expect(await w.db.select().from(reguasCobranca)).toEqual([])
		expect((await w.call('GET', '/api/regua-cobranca', { cookie: w.cookies.rep })).json.personalizada).toBe(false)
	})

	it("keeps Asaas' own reminders off: a customer found with them on is switched off before the carnê is made", async () => {
		const { w, empresa } = await billingWorld()
		const client = asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!)
		// The company was already a customer of the account, made elsewhere with Asaas' notifications on.
		const before = await client.createCustomer({ name: empresa.razao, cpfCnpj: empresa.cnpj })
		expect(before.notificationDisabled).toBe(false)
		expect((await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo) })).status).toBe(201)
		expect((await client.getCustomer(before.id)).notificationDisabled).toBe(true)
		// A company new to Asaas is created with them off.
		const fresh = await w.company(CNPJ.rep, 'Mercado Novo', { fone: '85999990009' })
		expect((await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(fresh.codigo) })).status).toBe(201)
		expect((await client.findCustomerByCpfCnpj(fresh.cnpj))?.notificationDisabled).toBe(true)
	})

	it("sends through the representative's own WhatsApp instance, and the parcel's card lists what was sent and when", async () => {
		const { w, empresa } = await billingWorld(
			{},
			{ now: '2026-12-07T12:00:00.000Z', evolution: { instances: ['k-licencas', 'rafael-zap'] } }
		)
		expect((await saveGateway(w)).status).toBe(200)
		await w.db.update(representatives).set({ evo_instancia: 'rafael-zap' }).where(eq(representatives.cnpj, CNPJ.rep))
		expect((await w.call('GET', '/api/regua-cobranca', { cookie: w.cookies.rep })).json.instancia).toBe('rafael-zap')
		const created = await w.call('POST', '/api/carnes', {
			cookie: w.cookies.rep,
			body: carneBody(empresa.codigo, { data_primeiro_vencimento: '2026-12-10' })
		})
		expect(created.status).toBe(201)
		await settleAsaas(w)
		const run = await w.call('POST', '/api/regua-cobranca/executar', { cookie: w.cookies.admin })
		expect(run.json).toMatchObject({
			escolhidas: 1,
			enviadas: 1,
			a_enviar: 0,
			message: '1 mensagem(ns) enviada(s), 0 falha(s), 0 não enviada(s).'
		})
		const sent = w.evolution.sent.filter((s) => s.text?.includes('Lembrete de vencimento'))
		expect(sent.map((s) => [s.instance, s.number])).toEqual([['rafael-zap', '5585999990001']])
		const list = await w.call('GET', '/api/carnes/pagamentos', { cookie: w.cookies.rep })
		const card = list.json.parcelas?.find((p) => p.numeroParcela === 1)
		expect(card?.regua).toEqual([{ tipo: 'lembrete', dias: -3, status: 'enviada', em: '2026-12-07T12:00:00.000Z', erro: null }])
		expect(list.json.parcelas?.find((p) => p.numeroParcela === 2)?.regua).toEqual([])
	})
})
