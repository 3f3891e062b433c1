import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
	CNPJ,
	type TestWorld,
	createTestApp,
	billingWorld,
	carneBody,
	saveGateway,
	settleAsaas,
	runPortalJob
} from '../../apps/server/testing'
import { activities } from '../activity'
import { availableCredits } from '../credits'
import { blockForNonPayment, companies } from '../companies'
import { writeTransaction } from '../core/server'
import { isoDateInSaoPaulo } from '../core'
import { phoneKey } from '../evolution'
import { acquireLease } from '../jobs'
import { representatives } from '../resellers'
import { DEFAULT_STEP_DAYS, defaultSteps } from './model'
import { DUNNING_JOB, chooseDay, runDunning, stepsDueOn } from './dunning'
import { reconcileCarnes } from './sync'
import { carneParcelas, carneRenovacoes, reguaEnvios } from './schema'

type World = TestWorld & { clock: { set(to: string): void } }

/** 09:00 in Brazil (12:00 UTC) of a day: the schedule's default send time. */
const nineAm = (date: string) => `${date}T12:00:00.000Z`
/** 15:00 in Brazil of a day: after that day's run. */
const afternoon = (date: string) => `${date}T18:00:00.000Z`
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay()

const PHONE = '5585999990001'

/**
 * The billing world with the WhatsApp gateway saved (the Evolution stand-in) and the bot on, so a client's PARAR reaches
 * the portal as it would from a phone.
 */
async function dunningWorld(options: { now?: string; instances?: string[] } = {}) {
	const { w, empresa } = await billingWorld({}, { now: options.now ?? '2026-11-20T12:00:00.000Z' })
	expect((await saveGateway(w)).status).toBe(200)
	return { w: w as World, empresa }
}

async function newCarne(w: TestWorld, empresa: number, fields: Record<string, unknown> = {}) {
	const created = await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa, fields) })
	expect(created.status).toBe(201)
	await settleAsaas(w)
	const parcels = (await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, created.json.carne!.id))).sort(
		(a, b) => a.numero - b.numero
	)
	return { carne: created.json.carne!, parcels }
}

/** A day of the portal: the job at 09:00 in Brazil (twice: a second tick adds nothing), the webhooks handled. */
async function jobAt(w: World, date: string) {
	w.clock.set(nineAm(date))
	w.asaas.tick()
	await settleAsaas(w)
	await runPortalJob(w, DUNNING_JOB)
	await runPortalJob(w, DUNNING_JOB)
}

/** The client pays a parcel in the afternoon; Asaas' webhooks reach the portal. */
async function pays(w: World, date: string, paymentId: string) {
	w.clock.set(afternoon(date))
	w.asaas.confirm(paymentId)
	await settleAsaas(w)
}

/** The client writes to the portal's WhatsApp (the bot answers PARAR and VOLTAR). */
async function clientSays(w: World, date: string, text: string) {
	w.clock.set(afternoon(date))
	const { delivery } = await w.evolution.deliverInbound({ from: PHONE, text })
	expect(delivery?.status).toBe(200)
	await w.services.bot.idle()
	await w.evolution.settled()
}

/** The schedule's messages: parcel number, kind, step day, the Brazil day it was chosen, status; by day and parcel. */
async function sends(w: TestWorld) {
	const parcels = new Map((await w.db.select().from(carneParcelas)).map((p) => [p.id, p.numero]))
	return (await w.db.select().from(reguaEnvios))
		.map((r) => ({ n: parcels.get(r.parcela_id)!, day: isoDateInSaoPaulo(new Date(r.criado_em)), row: r }))
		.sort((a, b) => a.day.localeCompare(b.day) || a.n - b.n)
		.map(({ n, day, row }): (string | number)[] => [n, row.tipo, row.dias, day, row.status])
}

describe('the reminder schedule (régua de cobrança)', () => {
	it('stores the default "every 7 days while overdue, up to 30" as the explicit steps 8, 15, 22 and 29', () => {
		expect([...DEFAULT_STEP_DAYS]).toEqual([-3, 0, 1, 8, 15, 22, 29])
		expect(defaultSteps().every((s) => s.ativo && s.template_mensagem.includes('{{empresa_nome}}'))).toBe(true)
	})

	it('reminds a due date of the latest step whose day has come, up to 3 days late, and of nothing else', () => {
		// On Monday 2027-04-12: a parcel due on Saturday (2 days ago) gets the "1 day after" step, not "on the day".
		const due = stepsDueOn('2027-04-12', [-3, 0, 1, 8])
		expect(due.get('2027-04-10')).toBe(1)
		expect(due.get('2027-04-15')).toBe(-3)
		expect(due.get('2027-04-12')).toBe(0)
		expect(due.get('2027-04-04')).toBe(8)
		// Due 5 days ago: step 1's three late days are over and step 8 has not come.
		expect(due.has('2027-04-07')).toBe(false)
		expect(stepsDueOn('2027-04-12', []).size).toBe(0)
	})

	it('a 12-parcel carnê through a simulated year: exactly the expected messages, none after payment, none after PARAR, no weekend', async () => {
		const { w, empresa } = await dunningWorld()
		expect((await w.call('POST', '/api/whatsapp/bot-enable', { cookie: w.cookies.admin })).status).toBe(200)
		await w.services.bot.idle()
		// The carnê renews the licence with each paid parcel (issue 37, part 1): 11 of its 12 parcels will be paid.
		await w.addCreditsVia(CNPJ.rep, 20)
		const { carne, parcels } = await newCarne(w, empresa.codigo, {
			valor_total: 1800,
			numero_parcelas: 12,
			data_primeiro_vencimento: '2026-12-10',
			renovar_licenca: true,
			creditos_por_parcela: 1
		})
		expect(carne).toMatchObject({ renovar_licenca: true, creditos_por_parcela: 1 })
		expect(parcels.map((p) => p.vencimento)).toEqual([
			'2026-12-10',
			...Array.from({ length: 11 }, (_, i) => `2027-${String(i + 1).padStart(2, '0')}-10`)
		])
		const pay = (n: number) => parcels[n - 1].asaas_payment_id
		// Parcel 2 paid two days early, parcel 3 two days late, parcel 5 forty days late, parcel 12 never; the others on
		// their due day.
		const late: Record<number, string> = { 2: '2027-01-08', 3: '2027-02-12', 5: '2027-05-20' }
		const payments = new Map<string, number[]>()
		for (let n = 1; n <= 11; n++) {
			const date = late[n] ?? parcels[n - 1].vencimento
			payments.set(date, [...(payments.get(date) ?? []), n])
		}
		const paidAt = new Map([...payments].flatMap(([date, ns]) => ns.map((n) => [n, afternoon(date)] as const)))
		for (let date = '2026-11-20'; date <= '2027-12-20'; date = addDays(date, 1)) {
			await jobAt(w, date)
			for (const n of payments.get(date) ?? []) await pays(w, date, pay(n))
			// The client says PARAR the day before parcel 3's due date, and VOLTAR two days after it.
			if (date === '2027-02-09') await clientSays(w, date, 'PARAR')
			if (date === '2027-02-12') await clientSays(w, date, 'VOLTAR')
		}
		const reminder = (n: number, dias: number, date: string, status = 'enviada') => [n, 'lembrete', dias, date, status]
		expect(await sends(w)).toEqual([
			reminder(1, -3, '2026-12-07'),
			reminder(1, 0, '2026-12-10'),
			reminder(2, -3, '2027-01-07'),
			// Due Wednesday 10/02: the "3 days before" falls on Sunday and goes on Monday; PARAR holds the next two.
			reminder(3, -3, '2027-02-08'),
			reminder(3, 0, '2027-02-10', 'ignorada'),
			reminder(3, 1, '2027-02-11', 'ignorada'),
			reminder(4, -3, '2027-03-08'),
			reminder(4, 0, '2027-03-10'),
			// Due Saturday 10/04 and paid 40 days late: the on-the-day step is past when Monday comes; every 7 days after.
			reminder(5, -3, '2027-04-07'),
			reminder(5, 1, '2027-04-12'),
			reminder(5, 8, '2027-04-19'),
			reminder(5, 15, '2027-04-26'),
			reminder(5, 22, '2027-05-03'),
			reminder(6, -3, '2027-05-07'),
			reminder(5, 29, '2027-05-10'),
			reminder(6, 0, '2027-05-10'),
			reminder(7, -3, '2027-06-07'),
			reminder(7, 0, '2027-06-10'),
			// Due on Saturday and paid that day: nothing on the weekend.
			reminder(8, -3, '2027-07-07'),
			reminder(9, -3, '2027-08-09'),
			reminder(9, 0, '2027-08-10'),
			reminder(10, -3, '2027-09-07'),
			reminder(10, 0, '2027-09-10'),
			reminder(11, -3, '2027-10-07'),
			// Never paid: every step up to 29 days, and then nothing.
			reminder(12, -3, '2027-11-08'),
			reminder(12, 0, '2027-11-10'),
			reminder(12, 1, '2027-11-11'),
			reminder(12, 8, '2027-11-18'),
			reminder(12, 15, '2027-11-25'),
			reminder(12, 22, '2027-12-02'),
			reminder(12, 29, '2027-12-09')
		])
		const rows = await w.db.select().from(reguaEnvios)
		for (const r of rows.filter((r) => r.status === 'ignorada')) expect(r.erro).toBe('Número descadastrado pelo cliente (PARAR).')
		const sent = rows.filter((r) => r.status === 'enviada')
		// What the phone received is exactly the sent rows, through the portal's number, never on a weekend, never after
		// the parcel was paid.
		const atPhone = w.evolution.sent.filter((s) => phoneKey(s.number) === phoneKey(PHONE) && sent.some((r) => r.message_id === s.id))
		expect(atPhone).toHaveLength(sent.length)
		expect(new Set(atPhone.map((s) => s.instance))).toEqual(new Set(['k-licencas']))
		const numberOf = new Map(parcels.map((p) => [p.id, p.numero]))
		for (const r of sent) {
			expect([0, 6]).not.toContain(weekday(isoDateInSaoPaulo(new Date(r.enviado_em!))))
			const paid = paidAt.get(numberOf.get(r.parcela_id)!)
			if (paid) expect(r.enviado_em! < paid).toBe(true)
		}
		// The message is the step's template filled in with the parcel's values.
		const first = sent.find((r) => numberOf.get(r.parcela_id) === 12 && r.dias === 8)!
		expect(first.texto).toContain('A parcela 12/12 de *R$ 150,00* venceu em *10/11/2027* e está em aberto há 8 dia(s).')
		expect(first.texto).toContain(`Boleto: ${parcels[11].boleto_url}`)
		expect(first.texto).toContain(`PIX copia e cola: ${parcels[11].pix_copia_cola}`)
		expect(first.texto).toEndWith('_Rafael Rep_')
		expect(first.telefone).toBe(PHONE)

		// Every paid parcel renewed the licence once, 33 days each, in the order they were paid; the unpaid one did not.
		const renewals = (await w.db.select().from(carneRenovacoes).where(eq(carneRenovacoes.carne_id, carne.id))).sort(
			(a, b) => a.aplicada_em!.localeCompare(b.aplicada_em!) || a.id - b.id
		)
		expect(renewals.map((r) => [numberOf.get(r.parcela_id), r.estado, r.creditos, r.dias])).toEqual(
			[...paidAt].sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0]).map(([n]) => [n, 'aplicada', 1, 33])
		)
		for (let i = 1; i < renewals.length; i++) expect(renewals[i].renovou_ate! > renewals[i - 1].renovou_ate!).toBe(true)
		const company = (await w.db.select().from(companies).where(eq(companies.codigo, empresa.codigo)))[0]!
		expect(company.validade_licenca).toBe(renewals.at(-1)!.renovou_ate)
		expect(await availableCredits(w.db, CNPJ.rep)).toBe(20 - 11)
	}, 120_000)

	it('an overdue parcel first warns, then blocks for non-payment; its payment unblocks within the webhook and says so once; a block by hand stays', async () => {
		const { w, empresa } = await dunningWorld()
		await w.db.update(representatives).set({ whatsapp: '85988887777' }).where(eq(representatives.cnpj, CNPJ.rep))
		const schedule = await w.call('GET', '/api/regua-cobranca', { cookie: w.cookies.rep })
		const saved = await w.call('PUT', '/api/regua-cobranca', {
			cookie: w.cookies.rep,
			body: { ...schedule.json, bloquear_apos_dias: 10 } as unknown as Record<string, unknown>
		})
		expect(saved.status).toBe(200)
		// A: K-PDV blocked by hand before, licence valid. B: licence expired (it gets a trust release). C: the
		// administrador blocks it by hand after the schedule did.
		await w.db.update(companies).set({ validade_licenca: '2027-06-30', bloqueadopdv: 'S' }).where(eq(companies.codigo, empresa.codigo))
		const b = await w.company(CNPJ.rep, 'Bazar B', { fone: '85999990002', validade_licenca: '2026-12-01' })
		const c = await w.company(CNPJ.rep, 'Confeitaria C', { fone: '85999990003', validade_licenca: '2027-06-30' })
		const first = async (codigo: number) => (await newCarne(w, codigo)).parcels[0]
		const [pa, pb, pc] = [await first(empresa.codigo), await first(b.codigo), await first(c.codigo)]
		expect(pa.vencimento).toBe('2026-12-10')
		const check = async (company: typeof b, sistema = 'K-RETA') =>
			(
				await w.call('POST', '/api/licenca/verificar', {
					body: { cnpj: company.cnpj, chave: company.serial, sistema, mac: 'AA:BB:CC:00:00:01' }
				})
			).json
		const flags = async (codigo: number) =>
			(await w.db.select().from(companies).where(eq(companies.codigo, codigo))).map((r) => [
				r.bloqueado,
				r.bloqueadopdv,
				r.bloqueado_kchef,
				r.bloqueado_katelie,
				r.bloqueado_kprevenda,
				r.bloqueio_inadimplencia
			])[0]

		for (let date = '2026-11-20'; date <= '2026-12-18'; date = addDays(date, 1)) await jobAt(w, date)
		// Blocking after 10 days: the warning 3 days before, on day 7 (Thursday 17/12), once per company.
		const warned = (await w.db.select().from(reguaEnvios).orderBy(reguaEnvios.parcela_id)).filter((r) => r.tipo === 'aviso_bloqueio')
		expect(warned.map((r) => [r.parcela_id, isoDateInSaoPaulo(new Date(r.criado_em)), r.status])).toEqual([
			[pa.id, '2026-12-17', 'enviada'],
			[pb.id, '2026-12-17', 'enviada'],
			[pc.id, '2026-12-17', 'enviada']
		])
		expect(warned[0].texto).toContain('sua licença será bloqueada em 3 dias (20/12/2026) se o pagamento não for feito')
		expect((await check(empresa)).status).toBe('ativa')

		// Day 10 is a Sunday (weekends off): the block comes on Monday.
		await jobAt(w, '2026-12-19')
		await jobAt(w, '2026-12-20')
		expect((await flags(empresa.codigo))?.[5]).toBeNull()
		await jobAt(w, '2026-12-21')
		expect(await flags(empresa.codigo)).toEqual([
			'S',
			'S',
			'S',
			'S',
			'S',
			'bloqueado,bloqueado_kchef,bloqueado_katelie,bloqueado_kprevenda'
		])
		const answer = await check(empresa)
		expect(answer).toMatchObject({ status: 'bloqueada', permitido: false, motivo_bloqueio: 'falta_de_pagamento' })
		expect(answer.mensagem).toContain('falta de pagamento')
		expect(answer.mensagem).toContain('Rafael Rep pelo telefone (85) 98888-7777')
		// K-PDV was blocked by hand: its check says so.
		expect(await check(empresa, 'K-PDV')).toMatchObject({ status: 'bloqueada', motivo_bloqueio: 'manual' })
		// A month has passed since the sign-in: the representative signs in again.
		const rep = await w.login(CNPJ.rep)
		const listed = (await w.call('GET', '/api/companies?search=Padaria', { cookie: rep })).json.companies[0]
		expect(listed?.bloqueio_inadimplencia).toBe('bloqueado,bloqueado_kchef,bloqueado_katelie,bloqueado_kprevenda')
		const bell = (await w.call('GET', '/api/notifications', { cookie: rep })).json.map((n) => n.title)
		expect(bell.filter((t) => t === 'Empresa bloqueada por falta de pagamento')).toHaveLength(3)
		expect((await w.db.select().from(activities)).filter((a) => a.event === 'companies.blocked-for-non-payment')).toHaveLength(3)
		// Another run the same day, and the next day's, block nothing twice.
		await runDunning(w.ctx, { force: true })
		await jobAt(w, '2026-12-22')
		expect((await w.db.select().from(activities)).filter((a) => a.event === 'companies.blocked-for-non-payment')).toHaveLength(3)

		// B's licence had expired: its trust release works as the specification says, and the block still wins.
		w.clock.set('2026-12-22T13:00:00.000Z')
		expect((await w.call('POST', `/api/companies/${b.codigo}/liberar-confianca`, { cookie: await w.login(CNPJ.rep) })).status).toBe(200)
		expect(await check(b)).toMatchObject({ status: 'bloqueada', motivo_bloqueio: 'falta_de_pagamento' })
		// C: the administrador blocks it by hand; the block is theirs from now on.
		const byHand = await w.call('PATCH', `/api/companies/${c.codigo}`, {
			cookie: await w.login(CNPJ.admin),
			body: { bloqueado: 'S', bloqueadopdv: 'S', bloqueado_kchef: 'S', bloqueado_katelie: 'S', bloqueado_kprevenda: 'S' }
		})
		expect(byHand.status).toBe(200)

		// The three clients pay in the afternoon: the webhook lifts what the schedule blocked, at once.
		for (const p of [pa, pb, pc]) await pays(w, '2026-12-22', p.asaas_payment_id)
		expect(await flags(empresa.codigo)).toEqual(['N', 'S', 'N', 'N', 'N', null])
		expect(await check(empresa)).toMatchObject({ status: 'ativa', permitido: true })
		expect(await check(b)).toMatchObject({ status: 'liberada_confianca', permitido: true })
		expect(await flags(c.codigo)).toEqual(['S', 'S', 'S', 'S', 'S', null])
		expect(await check(c)).toMatchObject({ status: 'bloqueada', motivo_bloqueio: 'manual' })
		// One message each to A and B, sent by the next run; repeated webhooks and the reconciliation add nothing.
		await reconcileCarnes(w.ctx, { all: true })
		await settleAsaas(w)
		w.clock.set('2026-12-22T18:01:00.000Z')
		await runPortalJob(w, DUNNING_JOB)
		await runPortalJob(w, DUNNING_JOB)
		const unblocked = (await w.db.select().from(reguaEnvios).orderBy(reguaEnvios.parcela_id)).filter((r) => r.tipo === 'desbloqueio')
		expect(unblocked.map((r) => [r.parcela_id, r.status])).toEqual([
			[pa.id, 'enviada'],
			[pb.id, 'enviada']
		])
		expect(unblocked[0].texto).toContain('os seus sistemas já estão liberados de novo')
		expect(
			w.evolution.sent
				.filter((s) => s.text?.includes('Sistemas liberados'))
				.map((s) => s.number)
				.sort()
		).toEqual([PHONE, '5585999990002'])
		expect((await w.db.select().from(activities)).filter((a) => a.event === 'companies.unblocked-after-payment')).toHaveLength(2)
	}, 60_000)

	it('sends each message once: the job run twice, two portal processes at once, a send cut short by a crash', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-dunning-')), 'portal.sqlite')
		const { w, empresa } = await billingWorld({}, { now: '2026-12-07T12:00:00.000Z', dbFile })
		expect((await saveGateway(w)).status).toBe(200)
		const other = await createTestApp({ dbFile, now: '2026-12-07T12:00:00.000Z' })
		// Three companies with parcels due in 3 days: three "3 days before" messages today.
		const more = [
			await w.company(CNPJ.rep, 'Loja 2', { fone: '85999990002' }),
			await w.company(CNPJ.rep, 'Loja 3', { fone: '85999990003' })
		]
		for (const codigo of [empresa.codigo, ...more.map((m) => m.codigo)])
			await newCarne(w, codigo, { data_primeiro_vencimento: '2026-12-10' })
		// Both processes, twice each, at once, without the job's lease (which would keep them apart anyway).
		await Promise.all([runDunning(w.ctx), runDunning(other.ctx), runDunning(w.ctx), runDunning(other.ctx)])
		const rows = await w.db.select().from(reguaEnvios)
		expect(rows.map((r) => [r.tipo, r.dias, r.status])).toEqual([
			['lembrete', -3, 'enviada'],
			['lembrete', -3, 'enviada'],
			['lembrete', -3, 'enviada']
		])
		const delivered = [...w.evolution.sent, ...other.evolution.sent].filter((s) => s.text?.includes('Lembrete de vencimento'))
		expect(delivered).toHaveLength(3)
		expect(new Set(delivered.map((s) => s.number)).size).toBe(3)
		// 'Executar agora' while the scheduled run holds the lease: it sends nothing and says a run is sending.
		expect(await acquireLease(other.db, other.clock, DUNNING_JOB, 'scheduled', 60_000)).not.toBeNull()
		const busy = await w.call('POST', '/api/regua-cobranca/executar', { cookie: w.cookies.admin })
		expect(busy.json).toMatchObject({ em_andamento: true, enviadas: 0 })

		// The next day's message is claimed and the process dies mid-send: it is set aside as uncertain, never resent.
		w.clock.set('2026-12-10T12:00:00.000Z')
		await chooseDay(w.ctx)
		const claimed = await w.db
			.update(reguaEnvios)
			.set({ status: 'enviando', tentativas: 1, proxima_tentativa: w.clock.now().toISOString() })
			.where(eq(reguaEnvios.status, 'pendente'))
			.returning()
		expect(claimed).toHaveLength(3)
		w.clock.set('2026-12-10T12:11:00.000Z')
		const before = w.evolution.sent.length
		await runPortalJob(w, DUNNING_JOB)
		expect((await w.db.select().from(reguaEnvios)).filter((r) => r.status === 'incerta')).toHaveLength(3)
		expect(w.evolution.sent.length).toBe(before)
	}, 60_000)

	it('a company blocked for non-payment whose overdue parcel is removed is unblocked too, and told so once', async () => {
		const { w, empresa } = await dunningWorld({ now: '2026-12-15T12:00:00.000Z' })
		const { parcels } = await newCarne(w, empresa.codigo, { data_primeiro_vencimento: '2026-12-16' })
		// Overdue since the 16th, blocked by the schedule (as its day would have done).
		w.clock.set('2026-12-28T12:00:00.000Z')
		w.asaas.tick()
		await settleAsaas(w)
		await writeTransaction(w.db, (tx) => blockForNonPayment(tx, w.clock, empresa.codigo, 'parcela 1/3 vencida em 16/12/2026'))
		// The representative removes the overdue parcel: nothing is overdue any more.
		const removed = await w.call('DELETE', `/api/carnes/pagamentos/${parcels[0].id}`, { cookie: await w.login(CNPJ.rep) })
		expect(removed.status).toBe(200)
		const company = (await w.db.select().from(companies).where(eq(companies.codigo, empresa.codigo)))[0]
		expect([company.bloqueado, company.bloqueio_inadimplencia]).toEqual(['N', null])
		await runPortalJob(w, DUNNING_JOB)
		const told = (await w.db.select().from(reguaEnvios)).filter((r) => r.tipo === 'desbloqueio')
		expect(told.map((r) => [r.parcela_id, r.status])).toEqual([[parcels[0].id, 'enviada']])
		expect(told[0].texto).toContain('Não há mais parcelas em atraso')
		expect((await w.db.select().from(activities)).find((a) => a.event === 'companies.unblocked-after-payment')?.subtitle).toBe(
			'Padaria Pão Quente · nenhuma parcela em atraso'
		)
	})
})
