import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
	ASAAS_KEYS,
	CNPJ,
	TEST_ORIGIN,
	type TestWorld,
	billingWorld,
	carneBody,
	createTestApp,
	saveGateway,
	settleAsaas,
	runPortalJob
} from '../../apps/server/testing'
import { activities } from '../activity'
import { companies } from '../companies'
import { addDaysIso } from '../core'
import { applyDueRenewals, credits } from '../credits'
import { representatives } from '../resellers'
import { asaasAccount, asaasClient } from './accounts'
import { reconcileCarnes } from './sync'
import { asaasAccounts, carneParcelas, carneRenovacoes, historicoPagamentos } from './schema'

/** Issue 37, part 1: a paid parcel renews its company's licence, once, whatever Asaas, the portal and the clock do. */

const LICENCE = '2026-12-15'
/** app.valor_credito_dia's default. */
const DAYS = 33

type App = Pick<TestWorld, 'db' | 'ctx' | 'call' | 'services'>

const createCarne = (w: TestWorld, empresa: number, fields: Record<string, unknown> = {}, cookie = w.cookies.rep) =>
	w.call('POST', '/api/carnes', { cookie, body: carneBody(empresa, fields) })
const parcelsOf = async (w: Pick<TestWorld, 'db'>, carneId: number) =>
	(await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carneId))).sort((a, b) => a.numero - b.numero)
const parcelViews = async (w: TestWorld, carneId: number, cookie = w.cookies.rep) =>
	(await w.call('GET', `/api/carnes/${carneId}/parcelas`, { cookie })).json
const renewals = async (w: Pick<TestWorld, 'db'>) => (await w.db.select().from(carneRenovacoes)).sort((a, b) => a.parcela_id - b.parcela_id)
const licenceOf = async (w: Pick<TestWorld, 'db'>, codigo: number) =>
	(await w.db.select().from(companies).where(eq(companies.codigo, codigo)))[0]!.validade_licenca
const available = async (w: TestWorld, cookie = w.cookies.rep) =>
	(await w.call('GET', '/api/credits/available', { cookie })).json.total as number
const renewalLines = async (w: Pick<TestWorld, 'db'>) =>
	(await w.db.select().from(historicoPagamentos).where(eq(historicoPagamentos.tipo_evento, 'renovacao'))).map((e) => e.descricao)
const activityOf = async (w: Pick<TestWorld, 'db'>, event: string) =>
	(await w.db.select().from(activities).where(eq(activities.event, event))).map((a) => [a.title, a.subtitle])
const bell = async (w: TestWorld, title: string, cookie = w.cookies.rep) =>
	((await w.call('GET', '/api/notifications', { cookie })).json as { title: string; message: string; link?: string | null }[]).filter(
		(n) => n.title === title
	)
const tokenOf = async (w: App) =>
	w.ctx.secrets.open((await w.db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, CNPJ.rep)))[0]!.webhook_token!)
/** A webhook delivery as Asaas posts it: the portal reads the payment back, so the envelope is all that matters. */
const deliver = async (app: App, eventId: string, event: string, paymentId: string) =>
	app.call('POST', `/api/asaas/webhook/${CNPJ.rep}`, {
		headers: { origin: '', 'asaas-access-token': await tokenOf(app) },
		body: { id: eventId, event, dateCreated: '2026-11-20 09:00:00', payment: { object: 'payment', id: paymentId } }
	})
/** Rafael with `creditos` credits and his company with a licence until LICENCE. */
async function renewingWorld(creditos: number, options: { dbFile?: string } = {}) {
	const { w, empresa } = await billingWorld({}, options)
	await w.db.update(companies).set({ validade_licenca: LICENCE }).where(eq(companies.codigo, empresa.codigo))
	if (creditos > 0) await w.addCreditsVia(CNPJ.rep, creditos)
	return { w, empresa }
}

describe('the carnê’s renewal option', () => {
	it('is on by default when the representative has credits, off when not; the card and the parcels say it', async () => {
		const { w, empresa } = await renewingWorld(0)
		const without = await createCarne(w, empresa.codigo)
		expect(without.status).toBe(201)
		expect(without.json.carne).toMatchObject({ renovar_licenca: false, creditos_por_parcela: 1 })
		await w.addCreditsVia(CNPJ.rep, 1)
		const other = await w.company(CNPJ.rep, 'Mercado Bom Preço', { email: 'mercado@example.com' })
		const withCredits = await createCarne(w, other.codigo, { creditos_por_parcela: 3 })
		expect(withCredits.json.carne).toMatchObject({ renovar_licenca: true, creditos_por_parcela: 3 })
		// Said explicitly, it is what the representative chose.
		const third = await w.company(CNPJ.rep, 'Oficina do Zé', { email: 'ze@example.com' })
		expect((await createCarne(w, third.codigo, { renovar_licenca: false })).json.carne.renovar_licenca).toBe(false)
		const listed = (await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })).json.carnes
		expect(listed.map((c) => [c.empresa?.razao, c.renovar_licenca, c.creditos_por_parcela])).toEqual([
			['Oficina do Zé', false, 1],
			['Mercado Bom Preço', true, 3],
			['Padaria Pão Quente', false, 1]
		])
		expect((await parcelViews(w, withCredits.json.carne.id))[0]).toMatchObject({
			renovacao: null,
			renovou_ate: null,
			aguarda_creditos: false,
			renovacao_motivo: null
		})
	})

	it('refuses a bad option with a pt-BR message and issues nothing', async () => {
		const { w, empresa } = await renewingWorld(5)
		for (const [fields, message] of [
			[{ creditos_por_parcela: 0 }, /Créditos por parcela: use um número inteiro de 1 a 12/],
			[{ creditos_por_parcela: 13 }, /de 1 a 12/],
			[{ creditos_por_parcela: 1.5 }, /de 1 a 12/],
			[{ creditos_por_parcela: 'dois' }, /de 1 a 12/],
			[{ renovar_licenca: 'sim' }, /Renovar a licença: use verdadeiro ou falso/]
		] as const) {
			const res = await createCarne(w, empresa.codigo, fields)
			expect([res.status, res.json.message]).toEqual([400, expect.stringMatching(message)])
		}
		expect(w.asaas.accounts.get(ASAAS_KEYS.rep)?.installments.size ?? 0).toBe(0)
	})

	it('is changed while the carnê is ativo, only by who may see the carnê; refused when cancelled', async () => {
		const { w, empresa } = await renewingWorld(5)
		const { carne } = (await createCarne(w, empresa.codigo, { renovar_licenca: false })).json
		const patch = (body: unknown, cookie?: string, id = carne.id) => w.call('PATCH', `/api/carnes/${id}/renovacao`, { cookie, body })
		// Another representative, and a gerente who does not manage Rafael's… Sara's carnê is not Gabriel's.
		expect((await patch({ renovar_licenca: true, creditos_por_parcela: 2 }, w.cookies.rep2)).status).toBe(404)
		expect((await patch({ renovar_licenca: true }, undefined)).status).toBe(401)
		const sara = await w.company(CNPJ.rep2, 'Loja da Sara', { email: 'sara@example.com' })
		const saras = (await createCarne(w, sara.codigo, {}, w.cookies.rep2)).json.carne
		expect((await patch({ renovar_licenca: true }, w.cookies.gerente, saras.id)).status).toBe(404)
		expect((await patch({ renovar_licenca: true }, w.cookies.rep, saras.id)).status).toBe(404)
		expect((await w.call('GET', '/api/carnes', { cookie: w.cookies.rep })).json.carnes[0].renovar_licenca).toBe(false)
		// Bad bodies.
		for (const body of [{ renovar_licenca: true, creditos_por_parcela: 20 }, { creditos_por_parcela: 2 }, { renovar_licenca: 1 }]) {
			const res = await patch(body, w.cookies.rep)
			expect(res.status).toBe(400)
			expect(res.json.message).toMatch(/Créditos por parcela|Renovar a licença/)
		}
		// The owner and the owner's gerente may.
		const on = await patch({ renovar_licenca: true, creditos_por_parcela: 2 }, w.cookies.rep)
		expect(on.status).toBe(200)
		expect(on.json.message).toBe('Renovação automática ativada: cada parcela paga renova a licença com 2 créditos.')
		expect(on.json.carne).toMatchObject({ renovar_licenca: true, creditos_por_parcela: 2 })
		expect((await patch({ renovar_licenca: false }, w.cookies.gerente)).json.message).toBe('Renovação automática desativada.')
		expect(await activityOf(w, 'billing.carne-renewal-changed')).toEqual([
			[`Renovação automática ativada no Carnê nº ${carne.id}`, 'Padaria Pão Quente · 2 créditos por parcela paga'],
			[`Renovação automática desativada no Carnê nº ${carne.id}`, 'Padaria Pão Quente']
		])
		expect((await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })).status).toBe(200)
		const late = await patch({ renovar_licenca: true }, w.cookies.rep)
		expect([late.status, late.json.message]).toEqual([422, 'Só a renovação de um carnê ativo pode ser alterada.'])
	})
})

describe('a paid parcel renews the licence exactly once', () => {
	it('with every webhook delivered five times at once and out of order, the reconciliation, and a restart in between', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-renewal-')), 'portal.sqlite')
		const { w, empresa } = await renewingWorld(10, { dbFile })
		const { carne } = (await createCarne(w, empresa.codigo, { renovar_licenca: true, creditos_por_parcela: 2 })).json
		await settleAsaas(w)
		const [first, second, third] = await parcelsOf(w, carne.id)
		// Asaas' own deliveries wait: the test delivers, in its own order.
		w.asaas.pauseDeliveries()
		w.asaas.confirm(first.asaas_payment_id)
		const storm = (app: App, paymentId: string, tag: string) =>
			[
				deliver(app, `evt_${tag}_received`, 'PAYMENT_RECEIVED', paymentId),
				deliver(app, `evt_${tag}_updated`, 'PAYMENT_UPDATED', paymentId),
				deliver(app, `evt_${tag}_received`, 'PAYMENT_RECEIVED', paymentId),
				deliver(app, `evt_${tag}_confirmed`, 'PAYMENT_CONFIRMED', paymentId),
				deliver(app, `evt_${tag}_created`, 'PAYMENT_CREATED', paymentId)
			].reverse()
		await Promise.all([...storm(w, first.asaas_payment_id, 'p1'), reconcileCarnes(w.ctx, { all: true })])
		await settleAsaas(w)
		expect((await renewals(w)).map((r) => [r.parcela_id, r.estado, r.renovou_ate])).toEqual([
			[first.id, 'aplicada', addDaysIso(LICENCE, 2 * DAYS)]
		])

		// The portal restarts on the same database: the old process is gone, a new one takes the rest, while a second
		// process (the old one, still running) gets the same deliveries and runs the reconciliation and the job too.
		const restarted = await createTestApp({ dbFile })
		restarted.ctx.gateways.asaas = w.ctx.gateways.asaas
		w.asaas.confirm(second.asaas_payment_id)
		await Promise.all([
			...storm(restarted, second.asaas_payment_id, 'p2'),
			...storm(w, second.asaas_payment_id, 'p2'),
			...storm(restarted, first.asaas_payment_id, 'p1'),
			reconcileCarnes(restarted.ctx, { all: true }),
			reconcileCarnes(w.ctx, { all: true }),
			applyDueRenewals(restarted.ctx),
			applyDueRenewals(w.ctx)
		])
		await settleAsaas(restarted)
		await settleAsaas(w)
		// Asaas delivers its own events late; the job runs again.
		w.asaas.resumeDeliveries()
		await settleAsaas(w)
		expect(await applyDueRenewals(restarted.ctx)).toBe(0)
		expect(await applyDueRenewals(w.ctx)).toBe(0)

		const until1 = addDaysIso(LICENCE, 2 * DAYS)
		const until2 = addDaysIso(until1, 2 * DAYS)
		expect(
			(await renewals(restarted)).map((r) => [r.parcela_id, r.estado, r.creditos, r.dias, r.validade_anterior, r.renovou_ate])
		).toEqual([
			[first.id, 'aplicada', 2, 2 * DAYS, LICENCE, until1],
			[second.id, 'aplicada', 2, 2 * DAYS, until1, until2]
		])
		expect(await licenceOf(restarted, empresa.codigo)).toBe(until2)
		// Four credits left the pool, in two transfers to the company, nothing else.
		expect(await available(w)).toBe(6)
		const transfers = (await restarted.db.select().from(credits).where(eq(credits.origem, 'transferencia'))).map((c) => [
			c.valor,
			c.fk_empresa,
			c.sistema
		])
		expect(transfers).toEqual([
			[2, empresa.codigo, null],
			[2, empresa.codigo, null]
		])
		// The history and the activity log say which parcel renewed what, up to which date.
		const carneName = `Carnê nº ${carne.id}`
		expect(await renewalLines(restarted)).toEqual([
			`Parcela 1/3 do ${carneName} renovou a licença de Padaria Pão Quente até ${fmt(until1)} (2 créditos, +66 dias)`,
			`Parcela 2/3 do ${carneName} renovou a licença de Padaria Pão Quente até ${fmt(until2)} (2 créditos, +66 dias)`
		])
		expect(await activityOf(restarted, 'billing.licence-renewed')).toEqual([
			[`Licença de Padaria Pão Quente renovada até ${fmt(until1)}`, `Parcela 1/3 do ${carneName} paga · 2 créditos · +66 dias`],
			[`Licença de Padaria Pão Quente renovada até ${fmt(until2)}`, `Parcela 2/3 do ${carneName} paga · 2 créditos · +66 dias`]
		])
		expect((await bell(w, 'Licença renovada')).map((n) => n.message)).toEqual([
			`Parcela 2/3 do ${carneName} paga: licença de Padaria Pão Quente renovada até ${fmt(until2)} (2 créditos, +66 dias).`,
			`Parcela 1/3 do ${carneName} paga: licença de Padaria Pão Quente renovada até ${fmt(until1)} (2 créditos, +66 dias).`
		])
		// Each parcel says what it renewed; the unpaid one, nothing.
		expect((await parcelViews(w, carne.id)).map((p) => [p.numero, p.renovacao, p.renovou_ate, p.aguarda_creditos])).toEqual([
			[1, 'aplicada', until1, false],
			[2, 'aplicada', until2, false],
			[3, null, null, false]
		])
		expect(third.status).toBe('PENDING')
		restarted.db.$client.close()
	}, 60_000)
})

const fmt = (iso: string) => iso.split('-').reverse().join('/')

describe('a representative without credits', () => {
	it('sees the renewals wait, is told once (top bar, log, WhatsApp with the way to buy), and an administrador’s credits apply them oldest first', async () => {
		const { w, empresa } = await renewingWorld(0)
		expect((await saveGateway(w)).status).toBe(200)
		await w.db.update(representatives).set({ whatsapp: '85988887777' }).where(eq(representatives.cnpj, CNPJ.rep))
		const { carne } = (await createCarne(w, empresa.codigo, { renovar_licenca: true, creditos_por_parcela: 2 })).json
		await settleAsaas(w)
		const [first, second] = await parcelsOf(w, carne.id)
		w.asaas.confirm(first.asaas_payment_id)
		await settleAsaas(w)
		w.asaas.confirm(second.asaas_payment_id)
		await settleAsaas(w)
		// More events and job runs change nothing and tell nobody again.
		await reconcileCarnes(w.ctx, { all: true })
		await runPortalJob(w, 'credits.carne-renewals')
		await runPortalJob(w, 'credits.carne-renewals')
		expect(await licenceOf(w, empresa.codigo)).toBe(LICENCE)
		expect((await renewals(w)).map((r) => r.estado)).toEqual(['aguardando', 'aguardando'])
		const carneName = `Carnê nº ${carne.id}`
		const waiting = await bell(w, 'Renovação aguardando créditos')
		expect(waiting.map((n) => [n.message, n.link])).toEqual([
			[
				`A parcela 2/3 do ${carneName} (Padaria Pão Quente) foi paga, mas a licença não foi renovada: faltam créditos (4 créditos necessários, 0 créditos disponíveis). Compre créditos: a renovação é aplicada assim que eles chegarem.`,
				'/autocompra-creditos'
			],
			[
				`A parcela 1/3 do ${carneName} (Padaria Pão Quente) foi paga, mas a licença não foi renovada: faltam créditos (2 créditos necessários, 0 créditos disponíveis). Compre créditos: a renovação é aplicada assim que eles chegarem.`,
				'/autocompra-creditos'
			]
		])
		expect(await activityOf(w, 'billing.renewal-waiting')).toEqual([
			[
				'Renovação de Padaria Pão Quente aguardando créditos',
				`Parcela 1/3 do ${carneName} paga · faltam créditos (2 créditos necessários)`
			],
			['Renovação de Padaria Pão Quente aguardando créditos', `Parcela 2/3 do ${carneName} paga · faltam créditos (2 créditos necessários)`]
		])
		// WhatsApp: to the representative's own number, once per renewal, with the page that sells credits.
		const toRep = w.evolution.sent.filter((m) => m.number.endsWith('85988887777'))
		expect(toRep.map((m) => m.text)).toEqual([
			[
				'Olá, Rafael Rep! Uma parcela paga não renovou a licença dos seus clientes por falta de créditos:',
				`• parcela 1/3 do ${carneName} (Padaria Pão Quente): 2 créditos`,
				`São necessários 2 créditos. Compre créditos em ${TEST_ORIGIN}/autocompra-creditos: as renovações são aplicadas assim que eles chegarem.`
			].join('\n'),
			[
				'Olá, Rafael Rep! Uma parcela paga não renovou a licença dos seus clientes por falta de créditos:',
				`• parcela 2/3 do ${carneName} (Padaria Pão Quente): 2 créditos`,
				`São necessários 2 créditos. Compre créditos em ${TEST_ORIGIN}/autocompra-creditos: as renovações são aplicadas assim que eles chegarem.`
			].join('\n')
		])
		// The parcels, Credits and the Dashboard's read say it; another representative sees none of it.
		expect((await parcelViews(w, carne.id)).map((p) => [p.renovacao, p.aguarda_creditos])).toEqual([
			['aguardando', true],
			['aguardando', true],
			[null, false]
		])
		const listed = (await w.call('GET', '/api/carnes/renovacoes', { cookie: w.cookies.rep })).json
		expect(listed).toMatchObject({ total: 2, creditos: 4 })
		expect(listed.renovacoes.map((r) => [r.parcela, r.totalParcelas, r.creditos, r.aguardaCreditos, r.empresa.razao])).toEqual([
			[1, 3, 2, true, 'Padaria Pão Quente'],
			[2, 3, 2, true, 'Padaria Pão Quente']
		])
		expect((await w.call('GET', '/api/carnes/renovacoes', { cookie: w.cookies.rep2 })).json).toEqual({
			total: 0,
			creditos: 0,
			renovacoes: []
		})
		expect((await w.call('GET', '/api/carnes/renovacoes', { cookie: w.cookies.admin })).json.total).toBe(2)

		// Three credits: the oldest renewal (2) is applied, the next (2) still waits; nobody is told again.
		const three = await w.addCreditsVia(CNPJ.rep, 3)
		expect(three.message).toBe('3 créditos adicionados com sucesso. Uma renovação de licença que aguardava créditos foi aplicada.')
		const until1 = addDaysIso(LICENCE, 2 * DAYS)
		expect(await licenceOf(w, empresa.codigo)).toBe(until1)
		expect((await renewals(w)).map((r) => r.estado)).toEqual(['aplicada', 'aguardando'])
		expect(await available(w)).toBe(1)
		expect(await bell(w, 'Renovação aguardando créditos')).toHaveLength(2)
		expect(w.evolution.sent.filter((m) => m.number.endsWith('85988887777'))).toHaveLength(2)
		// One more: the second is applied; the job finds nothing left.
		expect((await w.addCreditsVia(CNPJ.rep, 1)).message).toContain('Uma renovação de licença que aguardava créditos foi aplicada')
		expect(await applyDueRenewals(w.ctx)).toBe(0)
		expect((await renewals(w)).map((r) => [r.estado, r.renovou_ate])).toEqual([
			['aplicada', until1],
			['aplicada', addDaysIso(until1, 2 * DAYS)]
		])
		expect(await available(w)).toBe(0)
		expect((await w.call('GET', '/api/carnes/renovacoes', { cookie: w.cookies.rep })).json.total).toBe(0)
	})

	it('a confirmed self-purchase applies the waiting renewal in its own transaction', async () => {
		const { w, empresa } = await renewingWorld(0)
		const VENDOR_KEY = '$aact_hmlg_000000000000000000000000000000cafe'
		expect(
			(
				await w.call('PUT', '/api/admin/asaas-vendor', {
					cookie: w.cookies.admin,
					body: { asaas_api_key: VENDOR_KEY, asaas_ambiente: 'sandbox' }
				})
			).status
		).toBe(200)
		w.asaas.registerPixKey(VENDOR_KEY)
		const { carne } = (await createCarne(w, empresa.codigo, { renovar_licenca: true })).json
		await settleAsaas(w)
		const [first] = await parcelsOf(w, carne.id)
		w.asaas.confirm(first.asaas_payment_id)
		await settleAsaas(w)
		expect((await renewals(w)).map((r) => r.estado)).toEqual(['aguardando'])
		const bought = await w.call('POST', '/api/credits/auto-purchase', {
			cookie: w.cookies.rep,
			body: { quantidade: 2, metodoPagamento: 'PIX' }
		})
		expect(bought.status).toBe(201)
		w.asaas.confirm(bought.json.chargeId)
		await settleAsaas(w)
		expect((await renewals(w)).map((r) => [r.estado, r.renovou_ate])).toEqual([['aplicada', addDaysIso(LICENCE, DAYS)]])
		expect(await licenceOf(w, empresa.codigo)).toBe(addDaysIso(LICENCE, DAYS))
		expect(await available(w)).toBe(1)
		// The webhook of the purchase again, and the job: nothing more.
		await runPortalJob(w, 'credits.carne-renewals')
		expect(await available(w)).toBe(1)
		expect(await activityOf(w, 'billing.licence-renewed')).toHaveLength(1)
	})

	it('a renewal waits again with the new credits per parcel, and goes when the option is switched off', async () => {
		const { w, empresa } = await renewingWorld(1)
		const { carne } = (await createCarne(w, empresa.codigo, { renovar_licenca: true, creditos_por_parcela: 3 })).json
		await settleAsaas(w)
		const [first, second] = await parcelsOf(w, carne.id)
		w.asaas.confirm(first.asaas_payment_id)
		await settleAsaas(w)
		expect((await renewals(w)).map((r) => [r.estado, r.creditos])).toEqual([['aguardando', 3]])
		// One credit per parcel: the representative can pay for it now (the job tries it again at once).
		const patch = (body: unknown) => w.call('PATCH', `/api/carnes/${carne.id}/renovacao`, { cookie: w.cookies.rep, body })
		expect((await patch({ renovar_licenca: true, creditos_por_parcela: 1 })).status).toBe(200)
		expect(await applyDueRenewals(w.ctx)).toBe(1)
		expect(await licenceOf(w, empresa.codigo)).toBe(addDaysIso(LICENCE, DAYS))
		// The next parcel waits (no credits left); switched off, it goes and credits arriving later spend nothing.
		w.asaas.confirm(second.asaas_payment_id)
		await settleAsaas(w)
		expect((await renewals(w)).map((r) => r.estado)).toEqual(['aplicada', 'aguardando'])
		expect((await patch({ renovar_licenca: false })).status).toBe(200)
		await w.addCreditsVia(CNPJ.rep, 5)
		expect((await renewals(w)).map((r) => [r.estado, r.motivo])).toEqual([
			['aplicada', null],
			['cancelada', 'Renovação automática desligada no carnê.']
		])
		expect(await available(w)).toBe(5)
		expect(await licenceOf(w, empresa.codigo)).toBe(addDaysIso(LICENCE, DAYS))
	})
})

describe('a refund or chargeback of a parcel that renewed', () => {
	it('takes nothing back and is shown with the renewal it paid for; a refund before the renewal drops it', async () => {
		const { w, empresa } = await renewingWorld(1)
		const { carne } = (await createCarne(w, empresa.codigo, { renovar_licenca: true })).json
		await settleAsaas(w)
		const [first, second] = await parcelsOf(w, carne.id)
		w.asaas.confirm(first.asaas_payment_id)
		await settleAsaas(w)
		const renewedTo = addDaysIso(LICENCE, DAYS)
		expect(await licenceOf(w, empresa.codigo)).toBe(renewedTo)
		const client = asaasClient(w.ctx, (await asaasAccount(w.db, w.ctx.secrets, CNPJ.rep))!)
		await client.refundPayment(first.asaas_payment_id)
		await settleAsaas(w)
		await reconcileCarnes(w.ctx, { all: true })
		// Nothing taken back: the licence, the credits, the renewal.
		expect(await licenceOf(w, empresa.codigo)).toBe(renewedTo)
		expect(await available(w)).toBe(0)
		expect((await renewals(w)).map((r) => [r.estado, r.renovou_ate])).toEqual([['aplicada', renewedTo]])
		// Pagamentos de Parcelas and the history show the refund with the renewal it paid for.
		const monitor = (await w.call('GET', '/api/carnes/pagamentos', { cookie: w.cookies.rep })).json.parcelas
		expect(monitor.find((p) => p.id === first.id)).toMatchObject({ status: 'REFUNDED', renovacao: 'aplicada', renovou_ate: renewedTo })
		const refund = (await w.db.select().from(historicoPagamentos).where(eq(historicoPagamentos.tipo_evento, 'estorno')))[0]
		expect(refund.descricao).toBe(
			`Parcela 1/3 do Carnê nº ${carne.id} estornada (R$ 100,00): a renovação da licença até ${fmt(renewedTo)} que ela pagou foi mantida`
		)
		expect((await bell(w, 'Parcela estornada')).map((n) => n.message)).toEqual([
			`Parcela 1/3 de Padaria Pão Quente estornada — R$ 100,00: a renovação da licença até ${fmt(renewedTo)} que ela pagou foi mantida`
		])

		// The second parcel waits for credits; it is charged back before they arrive: the renewal goes, nothing is spent.
		w.asaas.confirm(second.asaas_payment_id)
		await settleAsaas(w)
		expect((await renewals(w)).map((r) => r.estado)).toEqual(['aplicada', 'aguardando'])
		w.asaas.chargeback(second.asaas_payment_id)
		await settleAsaas(w)
		await w.addCreditsVia(CNPJ.rep, 2)
		expect((await renewals(w)).map((r) => [r.estado, r.motivo])).toEqual([
			['aplicada', null],
			['cancelada', 'Pagamento contestado (chargeback) antes da renovação.']
		])
		expect(await available(w)).toBe(2)
		expect(await licenceOf(w, empresa.codigo)).toBe(renewedTo)
		expect((await parcelViews(w, carne.id))[1]).toMatchObject({
			renovacao: 'cancelada',
			renovou_ate: null,
			aguarda_creditos: false,
			renovacao_motivo: 'Pagamento contestado (chargeback) antes da renovação.'
		})
		// A dispute won is money kept: the renewal is due again, and the credits now there apply it with the webhook.
		w.asaas.chargebackWon(second.asaas_payment_id)
		await settleAsaas(w)
		expect(await applyDueRenewals(w.ctx)).toBe(0)
		expect(await licenceOf(w, empresa.codigo)).toBe(addDaysIso(renewedTo, DAYS))
		expect(await available(w)).toBe(1)
	})
})
