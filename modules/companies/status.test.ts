import { describe, expect, it } from 'bun:test'
import { anySystemActive, canTrustRelease, dateTone, licenceBadge } from './status'

const base = {
	bloqueado: 'N',
	bloqueadopdv: 'N',
	bloqueado_kchef: 'N',
	bloqueado_katelie: 'N',
	bloqueado_kprevenda: 'N',
	liberacao_confianca_expira: null,
	validade_licenca: null as string | null
}
const today = '2026-11-20'
const now = new Date('2026-11-20T12:00:00Z')

describe('licence badge (1-core §4)', () => {
	it('words each state', () => {
		expect(licenceBadge({ ...base, bloqueado: 'S', validade_licenca: '2027-01-01' }, today, now)).toEqual({
			label: 'Bloqueada',
			tone: 'error'
		})
		expect(licenceBadge(base, today, now).label).toBe('Sem licença')
		expect(licenceBadge({ ...base, validade_licenca: '2026-11-20' }, today, now).label).toBe('Expirada')
		expect(licenceBadge({ ...base, validade_licenca: '2026-11-21' }, today, now).label).toBe('Expira em 1 dia')
		expect(licenceBadge({ ...base, validade_licenca: '2026-11-25' }, today, now).label).toBe('Expira em 5 dias')
		expect(licenceBadge({ ...base, validade_licenca: '2026-11-26' }, today, now).label).toBe('Ativa (6 dias)')
		expect(
			licenceBadge({ ...base, validade_licenca: '2026-11-01', liberacao_confianca_expira: '2026-11-21T02:30:00Z' }, today, now).label
		).toBe('Liberada (15h restantes)')
	})

	it('colours dates and decides the trust release and all-systems toggle', () => {
		expect(dateTone('2026-11-19', today)).toBe('error')
		expect(dateTone('2026-12-20', today)).toBe('warning')
		expect(dateTone('2026-12-21', today)).toBe('success')
		expect(canTrustRelease({ ...base, validade_licenca: '2026-11-20' }, today, now)).toBe(true)
		expect(canTrustRelease({ ...base, validade_licenca: '2026-11-21' }, today, now)).toBe(false)
		expect(
			canTrustRelease({ ...base, validade_licenca: '2026-11-01', liberacao_confianca_expira: '2026-11-21T00:00:00Z' }, today, now)
		).toBe(false)
		expect(
			anySystemActive({
				...base,
				bloqueado: 'S',
				bloqueadopdv: 'S',
				bloqueado_kchef: 'S',
				bloqueado_katelie: 'S',
				bloqueado_kprevenda: 'S'
			})
		).toBe(false)
		expect(anySystemActive({ ...base, bloqueado: 'S' })).toBe(true)
	})
})
