/**
 * The cluster tests (issue 36): three real portal processes on one PostgreSQL, behind the front of front.ts, which
 * also hands every webhook delivery to all three. Run by the test command as its own step (scripts/test.ts), with
 * DATABASE_URL and TEST_POSTGRES_URL naming its throw-away server:
 *   DATABASE_URL=postgres://… TEST_POSTGRES_URL=postgres://… bun test ./apps/cluster/cluster.suite.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { and, count, eq, inArray } from 'drizzle-orm'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../db/seed'
import { asaasEvents } from '../../modules/billing'
import { companies } from '../../modules/companies'
import { addDaysIso, completeCnpj, isoDateInSaoPaulo, normalizeCnpj } from '../../modules/core'
import { creditConsumptions, creditPurchases, credits } from '../../modules/credits'
import { phoneKey } from '../../modules/evolution'
import { jobLeases } from '../../modules/jobs'
import { notificationSends } from '../../modules/messaging'
import { type Instance, type PortalCluster, startPortalCluster } from './harness'

/** A job's lease lasts this long in the cluster: how soon another instance takes a dead one's job. */
const LEASE_SECONDS = 5
const NOTIFICATIONS_JOB = 'messaging.whatsapp-notifications'

let cluster: PortalCluster
let origin: string

beforeAll(async () => {
	const serverUrl = process.env.TEST_POSTGRES_URL?.trim() || process.env.DATABASE_URL?.trim()
	if (!serverUrl) throw new Error('Os testes de cluster precisam de DATABASE_URL (e TEST_POSTGRES_URL) apontando para um PostgreSQL.')
	cluster = await startPortalCluster({
		serverUrl,
		fanOutWebhooks: true,
		env: { JOB_LEASE_SECONDS: String(LEASE_SECONDS), WHATSAPP_PAUSE_MS: '700' }
	})
	origin = cluster.front.url
}, 120_000)

afterAll(async () => {
	await cluster?.stop()
}, 30_000)

/** A call to one instance as a browser of the portal makes it (the portal's public origin is the front's). */
async function call(
	instance: Instance | string,
	method: string,
	path: string,
	init: { cookie?: string; body?: unknown; ip?: string } = {}
) {
	const base = typeof instance === 'string' ? instance : instance.url
	const headers: Record<string, string> = { origin, 'content-type': 'application/json' }
	if (init.cookie) headers.cookie = init.cookie
	if (init.ip) headers['x-forwarded-for'] = init.ip
	const res = await fetch(base + path, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) })
	const text = await res.text()
	let json: Record<string, unknown> | null = null
	try {
		json = text ? (JSON.parse(text) as Record<string, unknown>) : null
	} catch {}
	return { status: res.status, headers: res.headers, json, text }
}

/** The code of the company a POST /api/companies created. */
const codigoOf = (created: { json: Record<string, unknown> | null }) => (created.json as { company: { codigo: number } }).company.codigo

async function login(instance: Instance | string, cnpj: string, senha = DEMO_PASSWORD) {
	const res = await call(instance, 'POST', '/api/auth/login', { body: { cnpj, senha } })
	if (res.status !== 200) throw new Error(`login ${cnpj}: ${res.status} ${res.text}`)
	return (res.headers.get('set-cookie') ?? '').split(';')[0]
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
	const deadline = Date.now() + ms
	for (;;) {
		const value = await read()
		if (done(value)) return value
		if (Date.now() > deadline) {
			// What each instance said last, to tell why.
			for (const i of cluster.instances)
				console.error(
					`[portal ${i.index + 1}, pid ${i.pid}]\n${i.logs
						.slice(-20)
						.map((l) => l.line.slice(0, 400))
						.join('\n')}`
				)
			throw new Error(`esperando ${what}: ${JSON.stringify(value)}`)
		}
		await Bun.sleep(200)
	}
}

const instances = () => cluster.instances
const today = () => isoDateInSaoPaulo(new Date())

describe('sessions and sign-in across instances', () => {
	it('refuses the sixth wrong password however the five before were spread over the three instances', async () => {
		const ip = '203.0.113.61'
		const cnpj = DEMO_ACCOUNTS.gerente.cnpj
		for (let i = 0; i < 5; i++) {
			const res = await call(instances()[i % 3], 'POST', '/api/auth/login', { ip, body: { cnpj, senha: 'errada-123' } })
			expect(res.status).toBe(401)
		}
		for (const instance of instances()) {
			const res = await call(instance, 'POST', '/api/auth/login', { ip, body: { cnpj, senha: DEMO_PASSWORD } })
			expect(res.status).toBe(429)
			expect(String(res.json?.message)).toContain('Muitas tentativas de login')
		}
	})

	it('refuses a session on every instance from the first request after it logged out on one', async () => {
		const [a, b, c] = instances()
		const cookie = await login(a, DEMO_ACCOUNTS.representante.cnpj)
		expect((await call(b, 'GET', '/api/auth/me', { cookie })).status).toBe(200)
		expect((await call(a, 'POST', '/api/auth/logout', { cookie })).status).toBe(200)
		expect((await call(b, 'GET', '/api/auth/me', { cookie })).status).toBe(401)
		expect((await call(c, 'GET', '/api/auth/me', { cookie })).status).toBe(401)
	})
})

describe('credits across instances', () => {
	it('1,000 transfers spread over the three instances: no credit spent twice, none lost', async () => {
		const norte = normalizeCnpj('99.ABC.000/0005-36')
		const admin = await login(instances()[0], DEMO_ACCOUNTS.administrador.cnpj)
		// Five companies: a licence takes at most 20 years of credits (about 220), and 600 are spent here.
		const empresas: number[] = []
		for (let i = 0; i < 5; i++) {
			const created = await call(instances()[i % 3], 'POST', '/api/companies', {
				cookie: admin,
				body: { razao: `Mercado do Cluster ${i}`, cnpj: completeCnpj(String(551234000001 + i)), cnpj_representante: norte, nterminais: 2 }
			})
			expect(created.status).toBe(201)
			empresas.push(codigoOf(created))
		}
		const available = async () => Number((await call(instances()[2], 'GET', '/api/credits/available', { cookie: rep })).json?.total)
		const rep = await login(instances()[2], norte)
		const before = await available()
		const added = await call(instances()[0], 'POST', '/api/credits', {
			cookie: admin,
			body: { representanteId: norte, amount: 600, unitValue: 50 }
		})
		expect(added.status).toBe(201)
		const pool = before + 600
		expect(await available()).toBe(pool)

		const answers: { empresa: number; status: number; dias?: number; message?: string }[] = []
		let next = 0
		// 24 at a time, each to the next instance in turn.
		await Promise.all(
			Array.from({ length: 24 }, async () => {
				while (next < 1_000) {
					const n = next++
					const empresa = empresas[n % empresas.length]
					const res = await call(instances()[n % 3], 'POST', '/api/credits/transfer-to-company', {
						cookie: rep,
						body: { empresaCodigo: empresa, sistema: 'K-PDV', creditos: 1 }
					})
					answers.push({ empresa, status: res.status, dias: res.json?.dias as number | undefined, message: res.json?.message as string })
				}
			})
		)
		const done = answers.filter((a) => a.status === 200 || a.status === 201)
		// Every answer is an acceptance or the refusal for want of credits: nothing failed on the way.
		expect(answers.filter((a) => a.status !== 422 && a.status !== 200 && a.status !== 201).map((a) => `${a.status} ${a.message}`)).toEqual(
			[]
		)
		expect(answers.filter((a) => a.status === 422)).toHaveLength(1_000 - pool)
		expect(done).toHaveLength(pool)
		expect(await available()).toBe(0)

		// The ledger says the same: as many credits moved as were accepted, every batch consistent, none negative.
		const rows = await cluster.db.select().from(credits).where(eq(credits.representante_id, norte))
		const transfers = rows.filter((r) => r.origem === 'transferencia')
		expect(transfers.reduce((s, r) => s + r.valor, 0)).toBe(pool)
		const parts = await cluster.db
			.select()
			.from(creditConsumptions)
			.where(
				inArray(
					creditConsumptions.transfer_id,
					transfers.map((t) => t.id)
				)
			)
		for (const batch of rows.filter((r) => r.origem !== 'transferencia')) {
			const consumed = parts.filter((p) => p.batch_id === batch.id).reduce((s, p) => s + p.quantidade, 0)
			expect(batch.valor).toBeGreaterThanOrEqual(0)
			expect(batch.valor + consumed).toBe(batch.valor_original ?? batch.valor)
		}
		// Each licence moved by exactly the days of its accepted transfers.
		for (const empresa of empresas) {
			const company = (await cluster.db.select().from(companies).where(eq(companies.codigo, empresa)))[0]
			const days = done.filter((a) => a.empresa === empresa).reduce((s, a) => s + (a.dias ?? 0), 0)
			expect(company.validade_licenca).toBe(addDaysIso(today(), days))
		}
	}, 240_000)
})

describe('webhooks delivered to every instance', () => {
	it('the same Asaas event, ten times to each of the three: one inbox row, one credit', async () => {
		const [a, b, c] = instances()
		const rep = await login(a, DEMO_ACCOUNTS.representante.cnpj)
		const available = async (instance: Instance) =>
			Number((await call(instance, 'GET', '/api/credits/available', { cookie: rep })).json?.total)
		const before = await available(b)
		const purchases = async () =>
			(
				await cluster.db
					.select({ n: count() })
					.from(credits)
					.where(and(eq(credits.origem, 'compra'), eq(credits.representante_id, DEMO_ACCOUNTS.representante.cnpj)))
			)[0].n
		const batchesBefore = await purchases()
		const bought = await call(b, 'POST', '/api/credits/auto-purchase', { cookie: rep, body: { quantidade: 2, metodoPagamento: 'PIX' } })
		expect(bought.status).toBe(201)
		const chargeId = String(bought.json?.chargeId)
		// Asaas confirms the PIX: its delivery reaches all three instances at once (the front fans it out).
		cluster.asaas.confirm(chargeId)
		const delivery = await until(
			'a entrega do Asaas',
			async () => cluster.front.webhooks.find((w) => w.path.startsWith('/api/asaas/webhook/') && w.body.includes(chargeId)),
			Boolean
		)
		// Asaas retrying, ten times to each instance, all at once.
		const { host: _host, 'content-length': _length, ...headers } = delivery!.headers
		const answers = await Promise.all(
			Array.from({ length: 30 }, (_, i) =>
				fetch(instances()[i % 3].url + delivery!.path, { method: 'POST', headers, body: delivery!.body }).then((r) => r.status)
			)
		)
		expect(answers.every((s) => s === 200)).toBe(true)
		const eventId = (JSON.parse(delivery!.body) as { id: string }).id
		await until(
			'o crédito da compra',
			() => available(c),
			(n) => n === before + 2
		)
		// A moment more for any late handling: still one event row, one batch of two credits.
		await Bun.sleep(1_500)
		const rows = await cluster.db.select().from(asaasEvents).where(eq(asaasEvents.event_id, eventId))
		expect(rows).toHaveLength(1)
		const purchase = (await cluster.db.select().from(creditPurchases).where(eq(creditPurchases.charge_id, chargeId)))[0]
		expect(purchase.batch_id).not.toBeNull()
		expect(await purchases()).toBe(batchesBefore + 1)
		for (const instance of instances()) expect(await available(instance)).toBe(before + 2)
		// The top bar of every instance shows it (the screens read the database, whichever instance took the event).
		const bars = await Promise.all(
			instances().map(async (i) => JSON.stringify((await call(i, 'GET', '/api/notifications', { cookie: rep })).json))
		)
		expect(new Set(bars).size).toBe(1)
	}, 60_000)

	it('the same WhatsApp message delivered to the three instances (and again): one reply', async () => {
		const phone = '5585977770001'
		const sentTo = () => cluster.evolution.sent.filter((s) => phoneKey(s.number) === phoneKey(phone))
		const { id } = await cluster.evolution.deliverInbound({ from: phone, text: 'Oi' })
		await until(
			'a resposta do bot',
			async () => sentTo().length,
			(n) => n >= 1
		)
		// Evolution delivering it again, to all three.
		await cluster.evolution.deliverInbound({ from: phone, text: 'Oi', id })
		await cluster.evolution.settled()
		await Bun.sleep(3_000)
		expect(sentTo()).toHaveLength(1)
		expect(sentTo()[0].text).toContain('assistente virtual')
	}, 60_000)
})

describe('scheduled jobs across instances', () => {
	/** The notification job's lease row: who holds it, its token, until when. */
	const lease = async () => (await cluster.db.select().from(jobLeases).where(eq(jobLeases.name, NOTIFICATIONS_JOB)))[0]
	/** The instance a lease holder names (`<pid>-<uuid>` or `manual-<pid>-<uuid>`). */
	const holderOf = (holder: string) => instances().find((i) => holder.match(/(\d+)-[0-9a-f-]{36}$/)?.[1] === String(i.pid))
	const held = async () => {
		const row = await lease()
		return row && Date.parse(row.expires_at) > Date.now() ? { ...row, instance: holderOf(row.holder) } : null
	}

	it('a notification job due on all three sends one message per company; a killed holder’s job passes on, a late one’s writes are refused', async () => {
		const admin = await login(instances()[0], DEMO_ACCOUNTS.administrador.cnpj)
		const due = addDaysIso(today(), 3)
		const phones: string[] = []
		const ours: number[] = []
		for (let i = 0; i < 30; i++) {
			const fone = `(85) 9${7100 + i}-${2000 + i}`
			phones.push(fone)
			const res = await call(instances()[i % 3], 'POST', '/api/companies', {
				cookie: admin,
				body: {
					razao: `Aviso ${i}`,
					cnpj: completeCnpj(String(661000000000 + i)),
					cnpj_representante: DEMO_ACCOUNTS.representante.cnpj,
					nterminais: 1,
					fone,
					validade_licenca: due
				}
			})
			expect(res.status).toBe(201)
			ours.push(codigoOf(res))
		}
		// Due from midnight, every day: every instance's minute tick finds it due.
		const on = await call(instances()[1], 'POST', '/api/notification-settings', {
			cookie: admin,
			body: { tipo: 'whatsapp_expiracao', ativo: true, horario_envio: '00:00:00', enviar_fins_semana: true, dias_antecedencia: 7 }
		})
		expect(on.status).toBe(201)
		const keys = new Set(phones.map((fone) => phoneKey(`55${fone.replace(/\D/g, '')}`)))
		const messagesTo = (fone: string) =>
			cluster.evolution.sent.filter((s) => phoneKey(s.number) === phoneKey(`55${fone.replace(/\D/g, '')}`))
		const ourMessages = () => cluster.evolution.sent.filter((s) => keys.has(phoneKey(s.number))).length
		/** "Enviar agora" on an instance, not waited for (it answers when its run ends; a killed one never does). */
		const runNow = (instance: Instance) => call(instance, 'POST', '/api/notification-settings/run', { cookie: admin }).catch(() => null)

		// "Enviar agora" on every instance at once, besides their minute ticks: one run goes, the others say so.
		const runs = instances().map(runNow)
		const first = await until('um envio em curso', held, (row) => !!row?.instance && ourMessages() > 0)
		const killed = first!.instance!
		// kill -9 of the holder, mid-run.
		killed.signal('SIGKILL')
		await until(
			'o fim da instância',
			async () => killed.alive(),
			(alive) => !alive
		)
		const survivors = instances().filter((i) => i !== killed)
		// Its lease expires; then a survivor takes the job (its minute tick, or "Enviar agora" asked now and then), with the
		// next token.
		const second = await until(
			'outra instância com o trabalho',
			async () => {
				void runNow(survivors[0])
				return held()
			},
			(row) => !!row?.instance && row.instance !== killed && row.token > first!.token,
			60_000
		)
		expect(Date.parse(second!.expires_at)).toBeGreaterThan(Date.now())

		// Now the new holder freezes (SIGSTOP) past its lease; a third run takes over; the frozen one wakes up late.
		const sentBefore = ourMessages()
		await until(
			'mais um envio',
			async () => ourMessages(),
			(n) => n > sentBefore,
			30_000
		)
		const frozen = (await held())!.instance!
		frozen.signal('SIGSTOP')
		await Bun.sleep((LEASE_SECONDS + 1) * 1_000)
		const other = survivors.find((i) => i !== frozen)!
		await until(
			'a terceira vez do trabalho',
			async () => {
				void runNow(other)
				return held()
			},
			(row) => row?.instance === other,
			60_000
		)
		frozen.signal('SIGCONT')
		await until(
			'a escrita recusada da instância atrasada',
			async () => frozen.logs.some((l) => l.json?.event === 'job.fenced'),
			Boolean,
			30_000
		)

		// Every company told once at most, and all told in the end but the sends cut short (left 'enviando', never repeated).
		const sends = () => cluster.db.select().from(notificationSends).where(inArray(notificationSends.empresa_codigo, ours))
		await until(
			'o fim dos envios',
			async () => {
				void runNow(other)
				return (await sends()).filter((s) => s.status === 'pendente').length
			},
			(n) => n === 0,
			120_000
		)
		const rows = await sends()
		expect(rows).toHaveLength(30)
		for (const fone of phones) expect(messagesTo(fone).length).toBeLessThanOrEqual(1)
		const told = phones.filter((fone) => messagesTo(fone).length === 1).length
		expect(told).toBeGreaterThanOrEqual(30 - 2)
		expect(rows.filter((s) => s.status === 'enviada').length).toBeLessThanOrEqual(told)
		await Promise.allSettled(runs)
	}, 300_000)
})
