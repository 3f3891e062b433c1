import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createTestApp } from '../../apps/server/testing'
import { sealSigningKeys, signingKeys } from '../licensing'
import { settings } from './schema'
import { getSetting, openSetting, sealPlaintextSettings } from './service'

describe('secrets saved in clear by an older version', () => {
	it('are sealed at the next start, and still open to what they were', async () => {
		const t = await createTestApp()
		await t.db
			.insert(settings)
			.values({ chave: 'app.asaas_api_key', valor: '$aact_prod_0000000000wxyz', updated_at: '2026-01-01T00:00:00Z' })
		await t.db
			.insert(signingKeys)
			.values({ public_key: 'pub', private_key: '-----BEGIN PRIVATE KEY-----x', created_at: '2026-01-01T00:00:00Z' })
		expect(await sealPlaintextSettings(t.db, t.ctx.secrets)).toBe(1)
		expect(await sealSigningKeys(t.db, t.ctx.secrets)).toBe(1)
		expect(await getSetting(t.db, 'app.asaas_api_key')).toStartWith('enc:v1:wxyz:')
		expect(await openSetting(t.db, t.ctx.secrets, 'app.asaas_api_key')).toBe('$aact_prod_0000000000wxyz')
		expect(t.ctx.secrets.open((await t.db.select().from(signingKeys).where(eq(signingKeys.public_key, 'pub')))[0]!.private_key)).toBe(
			'-----BEGIN PRIVATE KEY-----x'
		)
		// A second start has nothing left to seal.
		expect(await sealPlaintextSettings(t.db, t.ctx.secrets)).toBe(0)
		expect(await sealSigningKeys(t.db, t.ctx.secrets)).toBe(0)
	})
})
