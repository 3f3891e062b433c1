import { describe, expect, it } from 'bun:test'
import { CNPJ, createTestApp } from '../../apps/server/testing'
import { HOUR } from '../core'
import { cleanupSessions } from './jobs'
import { sessions } from './schema'

describe('auth.sessions-cleanup', () => {
	it('removes only the sessions past their end, by the clock it is given', async () => {
		const t = await createTestApp()
		await t.createUser({ cnpj: CNPJ.admin, tipo: 'administrador' })
		await t.login(CNPJ.admin)
		expect(await cleanupSessions(t.ctx)).toBe(0)
		t.clock.advance(13 * HOUR)
		await t.login(CNPJ.admin)
		expect(await cleanupSessions(t.ctx)).toBe(1)
		expect(await t.db.select().from(sessions)).toHaveLength(1)
		expect(t.logs).toContainEqual({ event: 'sessions.cleanup', fields: { removed: 1 } })
	})
})
