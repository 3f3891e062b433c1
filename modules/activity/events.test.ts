import { describe, expect, it } from 'bun:test'
import { createTestApp } from '../../apps/server/testing'
import { ACTIVITY_EVENTS, type ActivityEvent } from './events'
import { activities } from './schema'
import { logActivity } from './service'

describe('the activity event catalogue', () => {
	it('names every event module.action, and stores the event with the words it renders', async () => {
		const t = await createTestApp()
		for (const name of Object.keys(ACTIVITY_EVENTS)) expect(name).toMatch(/^[a-z]+\.[a-z-]+$/)
		await logActivity(
			t.db,
			t.clock,
			'credits.transferred',
			{ creditos: 3, razao: 'Padaria', sistema: 'K-PDV', dias: 99, validade: '2027-03-01' },
			{ entityId: 7 }
		)
		await logActivity(t.db, t.clock, 'companies.systems-changed', { razao: 'Padaria', blocked: true })
		const rows = await t.db.select().from(activities)
		expect(rows.map((r) => [r.event, r.type, r.icon, r.title, r.subtitle, r.entity, r.entity_id])).toEqual([
			[
				'credits.transferred',
				'success',
				'Coins',
				'3 créditos transferidos para Padaria',
				'K-PDV · +99 dias · licença até 01/03/2027',
				'empresa',
				'7'
			],
			['companies.systems-changed', 'warning', 'AlertTriangle', 'Sistemas atualizados', 'Padaria', 'empresa', null]
		])
	})

	it('gives system events the system icon, not the warning one', () => {
		const system = (Object.keys(ACTIVITY_EVENTS) as ActivityEvent[]).filter((e) => e.startsWith('system.') || e.startsWith('settings.'))
		expect(system.length).toBeGreaterThan(4)
		for (const name of system) expect(ACTIVITY_EVENTS[name].icon).toBe('Terminal')
	})
})
