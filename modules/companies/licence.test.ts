import { describe, expect, it } from 'bun:test'
import { getTableColumns } from 'drizzle-orm'
import { testWorld } from '../../apps/server/testing'
import { EXPIRING_SOON_DAYS, FLAG_COLUMNS, SYSTEM_CATALOGUE, SYSTEMS, extendedLicence, licenceState } from './model'
import { companies } from './schema'

const today = '2026-11-20'
const nowMs = Date.parse('2026-11-20T12:00:00.000Z')

describe('the systems catalogue', () => {
	it('is where the schema, the API names and the figures come from', () => {
		expect(SYSTEMS).toEqual(['K-RETA', 'K-PDV', 'K-CHEF', 'K-ATELIE', 'K-PRE VENDA'])
		const columns = Object.keys(getTableColumns(companies))
		for (const flag of FLAG_COLUMNS) expect(columns).toContain(flag)
		expect(new Set(SYSTEM_CATALOGUE.map((s) => s.key)).size).toBe(5)
	})
})

describe('licenceState (1-core §4)', () => {
	const at = (validade_licenca: string | null, liberacao_confianca_expira: string | null = null) =>
		licenceState({ validade_licenca, liberacao_confianca_expira }, today, nowMs)

	it('reads days left, expiry, the 5-day warning and a running trust release', () => {
		expect(at(null)).toMatchObject({ state: 'sem_licenca', days: null })
		expect(at('2026-11-20')).toMatchObject({ state: 'expirada', days: 0 })
		expect(at('2026-11-19', '2026-11-20T11:59:59.000Z')).toMatchObject({ state: 'expirada', days: -1 })
		expect(at('2026-11-19', '2026-11-21T00:00:00.000Z')).toMatchObject({
			state: 'liberada',
			releaseEndsMs: Date.parse('2026-11-21T00:00:00.000Z')
		})
		expect(at('2026-11-21')).toMatchObject({ state: 'expirando', days: 1 })
		expect(at(`2026-11-${20 + EXPIRING_SOON_DAYS}`)).toMatchObject({ state: 'expirando', days: EXPIRING_SOON_DAYS })
		expect(at(`2026-11-${21 + EXPIRING_SOON_DAYS}`)).toMatchObject({ state: 'ativa', days: EXPIRING_SOON_DAYS + 1 })
	})

	it('extends a licence from its date, or from today without one or once it has passed — the arithmetic the dialog previews', () => {
		expect(extendedLicence('2026-12-01', today, 3, 33)).toEqual({ from: '2026-12-01', to: '2027-03-10', days: 99 })
		expect(extendedLicence(null, today, 1, 30)).toEqual({ from: today, to: '2026-12-20', days: 30 })
		expect(extendedLicence('2026-09-01', today, 1, 30)).toEqual({ from: today, to: '2026-12-20', days: 30 })
		expect(extendedLicence(today, today, 1, 30)).toEqual({ from: today, to: '2026-12-20', days: 30 })
	})

	it('is the same reading in the list filters, the trust release and the licence check', async () => {
		const w = await testWorld()
		const make = (razao: string, validade_licenca: string | null) => w.company(w.cnpj.rep, razao, { validade_licenca })
		const expired = await make('Vencida', '2026-11-20')
		const soon = await make('Quase', '2026-11-23')
		const active = await make('Em dia', '2027-06-01')
		const none = await make('Sem data', null)
		const filter = async (status: string) =>
			(await w.call('GET', `/api/companies?status=${status}&limit=100`, { cookie: w.cookies.admin })).json.companies.map(
				(c: { razao: string }) => c.razao
			)
		expect(await filter('expiradas')).toEqual(['Vencida'])
		expect((await filter('ativas')).sort()).toEqual(['Em dia', 'Quase'])
		expect(await filter('expiring_soon')).toEqual(['Quase'])
		expect(await filter('no-license')).toEqual(['Sem data'])

		for (const c of [soon, active, none]) {
			const refused = await w.call('POST', `/api/companies/${c.codigo}/liberar-confianca`, { cookie: w.cookies.rep })
			expect(refused.status).toBe(422)
		}
		expect((await w.call('POST', `/api/companies/${expired.codigo}/liberar-confianca`, { cookie: w.cookies.rep })).status).toBe(200)

		const check = async (c: { cnpj: string; serial: string }) =>
			(
				await w.call('POST', '/api/licenca/verificar', {
					body: { cnpj: c.cnpj, chave: c.serial, sistema: 'K-PDV', mac: '00:1A:2B:3C:4D:5E' }
				})
			).json.status
		expect(await check(expired)).toBe('liberada_confianca')
		expect(await check(soon)).toBe('ativa')
		expect(await check(none)).toBe('expirada')
	})
})
