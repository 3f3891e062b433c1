import { describe, expect, it } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CNPJ, createTestApp, testWorld } from '../../apps/server/testing'
import { MINUTE } from '../core'
import { openSetting } from '../settings'
import type { InboxEvent, PaymentEventHandler } from './inbox'
import { asaasEvents } from './schema'

const KEY = '$aact_hmlg_000000000000000000000000000000abcd'

/** A handler that owns every payment whose id starts with pay_mine, and counts what it got. */
function watcher(behaviour: (e: InboxEvent) => Promise<void> = async () => {}) {
	const seen: string[] = []
	const handler: PaymentEventHandler = {
		name: 'test',
		async handle(event) {
			if (!event.paymentId?.startsWith('pay_mine')) return false
			seen.push(event.eventId)
			await behaviour(event)
			return true
		}
	}
	return { seen, handler }
}

async function portalWith(handler: PaymentEventHandler, dbFile?: string) {
	const w = await testWorld({ paymentHandlers: [handler], dbFile })
	await w.call('PUT', '/api/admin/asaas-vendor', { cookie: w.cookies.admin, body: { asaas_api_key: KEY, asaas_ambiente: 'sandbox' } })
	const token = await openSetting(w.db, w.ctx.secrets, 'app.asaas_webhook_token')
	const deliver = (body: unknown, headers: Record<string, string> = { 'asaas-access-token': token }) =>
		w.call('POST', '/api/asaas/webhook/fornecedor', { body, headers: { origin: '', ...headers } })
	return { w, token, deliver }
}

const event = (id: string, paymentId = 'pay_mine_1', type = 'PAYMENT_RECEIVED') => ({
	id,
	event: type,
	dateCreated: '2026-11-20 09:00:00',
	payment: { object: 'payment', id: paymentId, status: 'RECEIVED', value: 100 }
})

/** Waits for the inbox's background work to reach a state (however busy the machine), then the test checks it. */
async function until(reached: () => boolean | Promise<boolean>) {
	const deadline = performance.now() + 10_000
	while (!(await reached()) && performance.now() < deadline) await Bun.sleep(5)
}

describe('POST /api/asaas/webhook/{account}', () => {
	it('refuses a missing or wrong token, or an unknown account, with 401 and stores nothing', async () => {
		const { w, token, deliver } = await portalWith(watcher().handler)
		expect((await deliver(event('evt_1'), {})).status).toBe(401)
		// The real token with its last character changed (to another character whatever the random token ends with).
		const wrong = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`
		expect((await deliver(event('evt_1'), { 'asaas-access-token': wrong })).status).toBe(401)
		expect((await deliver(event('evt_1'), { 'asaas-access-token': token.slice(1) })).status).toBe(401)
		const other = await w.call('POST', `/api/asaas/webhook/${CNPJ.rep}`, {
			body: event('evt_1'),
			headers: { origin: '', 'asaas-access-token': token }
		})
		expect(other.status).toBe(401)
		expect(await w.db.select().from(asaasEvents)).toEqual([])
	})

	it('stores the same event delivered 20 times at once exactly once, and hands it to its module once, answering 200 each time', async () => {
		const { w, seen, deliver } = await (async () => {
			const watch = watcher()
			return { ...(await portalWith(watch.handler)), seen: watch.seen }
		})()
		const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(event('evt_same'))))
		expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
		await until(async () => (await w.db.select().from(asaasEvents))[0]?.status === 'processado')
		expect(await w.db.select().from(asaasEvents)).toHaveLength(1)
		expect(seen).toEqual(['evt_same'])
		expect((await w.db.select().from(asaasEvents))[0]).toMatchObject({ status: 'processado', attempts: 1 })
	})

	it('answers without waiting for the module handling it', async () => {
		let release!: () => void
		const slow = watcher(() => new Promise<void>((resolve) => (release = resolve)))
		const { w, deliver } = await portalWith(slow.handler)
		// The handler never finishes until release(): an answer that waited for it would never come.
		const res = await deliver(event('evt_slow'))
		expect(res.status).toBe(200)
		await until(() => slow.seen.length > 0)
		expect(slow.seen).toEqual(['evt_slow'])
		expect((await w.db.select().from(asaasEvents))[0]?.status).toBe('pendente')
		release()
		await until(async () => (await w.db.select().from(asaasEvents))[0]?.status !== 'pendente')
		expect((await w.db.select().from(asaasEvents))[0]?.status).toBe('processado')
	})

	it('keeps what no module owns, marked so, and sets aside an authenticated delivery it cannot read', async () => {
		const { w, deliver } = await portalWith(watcher().handler)
		expect((await deliver(event('evt_x', 'pay_someone_else'))).status).toBe(200)
		expect((await deliver({ hello: 'world' })).status).toBe(200)
		await until(async () => (await w.db.select().from(asaasEvents)).every((r) => r.status !== 'pendente'))
		const rows = await w.db.select().from(asaasEvents).orderBy(asaasEvents.id)
		expect(rows.map((r) => [r.event, r.status])).toEqual([
			['PAYMENT_RECEIVED', 'sem_dono'],
			['INVALIDO', 'sem_dono']
		])
	})

	it('retries a failing handling with growing delays, then gives up and says so in the log', async () => {
		let failures = 0
		const failing = watcher(async () => {
			failures++
			throw new Error('banco ocupado')
		})
		const { w, deliver } = await portalWith(failing.handler)
		await deliver(event('evt_fail'))
		const row = async () => (await w.db.select().from(asaasEvents))[0]!
		await until(async () => (await row())?.last_error !== null)
		expect(await row()).toMatchObject({ status: 'pendente', attempts: 1, last_error: 'banco ocupado' })
		// Not due yet: nothing happens before the first delay.
		expect(await w.services.asaasInbox.processDue()).toBe(0)
		for (let i = 0; i < 10 && (await row()).status === 'pendente'; i++) {
			w.clock.set((await row()).next_attempt_at)
			await w.services.asaasInbox.processDue()
		}
		expect((await row()).status).toBe('falhou')
		expect(failures).toBe(8)
		expect(w.logs.some((l) => l.event === 'asaas.event_failed')).toBe(true)
	})

	it('loses nothing to a restart between the answer and the handling, and handles it once', async () => {
		const dbFile = join(mkdtempSync(join(tmpdir(), 'kportal-inbox-')), 'portal.sqlite')
		const first = watcher()
		const { w: before, token } = await portalWith(first.handler, dbFile)
		// The first process stores the event and answers, then dies before handling it.
		expect(await before.services.asaasInbox.receive('fornecedor', token, event('evt_restart'))).not.toBeNull()
		const second = watcher()
		const after = await createTestApp({ dbFile, paymentHandlers: [second.handler] })
		after.clock.advance(MINUTE)
		expect(await after.services.asaasInbox.processDue()).toBe(1)
		expect(await after.services.asaasInbox.processDue()).toBe(0)
		expect(second.seen).toEqual(['evt_restart'])
		expect(first.seen).toEqual([])
	})
})
