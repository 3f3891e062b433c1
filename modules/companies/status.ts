import { addDaysIso, daysBetween } from '../core'
import { FLAG_COLUMNS, type FlagColumn, SYSTEM_CATALOGUE } from './systems'

/** The licence facts the screens and the filters classify (1-core §4). */
export interface LicenceFacts {
	validade_licenca: string | null
	bloqueado: string
	bloqueadopdv: string
	bloqueado_kchef: string
	bloqueado_katelie: string
	bloqueado_kprevenda: string
	liberacao_confianca_expira: string | null
	/** Set while the reminder schedule holds the company blocked for non-payment (payment-block.ts). */
	bloqueio_inadimplencia?: string | null
}

export type Tone = 'success' | 'warning' | 'error' | 'neutral' | 'info'

/** 'Expira em N dias' from this many days left down (1-core §4). */
export const EXPIRING_SOON_DAYS = 5
/** How long a liberação em confiança lasts (1-core §4). */
export const TRUST_RELEASE_HOURS = 24

/**
 * The one reading of a company's licence on a day (1-core §4), used by the badge, the list filters, the trust
 * release and the licence check. Days left = the difference from today (Brazil) to the licence date; a date of
 * today or earlier has expired; a running trust release lets an expired licence run.
 */
export type LicenceState = 'sem_licenca' | 'expirada' | 'liberada' | 'expirando' | 'ativa'

export function licenceState(
	facts: Pick<LicenceFacts, 'validade_licenca' | 'liberacao_confianca_expira'>,
	today: string,
	nowMs: number
): { state: LicenceState; days: number | null; releaseEndsMs: number | null } {
	const days = facts.validade_licenca ? daysBetween(today, facts.validade_licenca) : null
	const releaseEnd = facts.liberacao_confianca_expira ? Date.parse(facts.liberacao_confianca_expira) : Number.NaN
	const releaseEndsMs = releaseEnd > nowMs ? releaseEnd : null
	if (days === null) return { state: 'sem_licenca', days, releaseEndsMs }
	if (days <= 0) return { state: releaseEndsMs === null ? 'expirada' : 'liberada', days, releaseEndsMs }
	return { state: days <= EXPIRING_SOON_DAYS ? 'expirando' : 'ativa', days, releaseEndsMs }
}

/**
 * A licence extended by credits (1-core §2.11): counted from its current date, or from today when it has none or it
 * has passed (days bought now are days from now: issue 37). The transfer dialog previews it, the credit transfer and a
 * carnê's renewal apply it.
 */
export function extendedLicence(current: string | null, today: string, credits: number, daysPerCredit: number) {
	const days = credits * daysPerCredit
	const from = current && current > today ? current : today
	return { from, to: addDaysIso(from, days), days }
}

/** The status badge: Bloqueada (por falta de pagamento), Liberada (Nh restantes), Expirada, Expira em N dias, Ativa (N dias), Sem licença. */
export function licenceBadge(c: LicenceFacts, today: string, now: Date): { label: string; tone: Tone } {
	if (c.bloqueado === 'S') return { label: c.bloqueio_inadimplencia ? 'Bloqueada por falta de pagamento' : 'Bloqueada', tone: 'error' }
	const { state, days, releaseEndsMs } = licenceState(c, today, now.getTime())
	switch (state) {
		case 'sem_licenca':
			return { label: 'Sem licença', tone: 'neutral' }
		case 'expirada':
			return { label: 'Expirada', tone: 'error' }
		case 'liberada':
			return { label: `Liberada (${Math.ceil((releaseEndsMs! - now.getTime()) / 3_600_000)}h restantes)`, tone: 'info' }
		case 'expirando':
			return { label: `Expira em ${days} ${days === 1 ? 'dia' : 'dias'}`, tone: 'warning' }
		case 'ativa':
			return { label: `Ativa (${days} dias)`, tone: 'success' }
	}
}

/** The systems' flag columns a block for non-payment holds (bloqueio_inadimplencia, comma-separated); empty when none. */
export function nonPaymentFlags(value: string | null | undefined): FlagColumn[] {
	if (!value) return []
	const held = value.split(',')
	return FLAG_COLUMNS.filter((flag) => held.includes(flag))
}

/** Red if past, yellow within 30 days, green otherwise. */
export function dateTone(date: string | null, today: string): Tone {
	if (!date) return 'neutral'
	const days = daysBetween(today, date)
	if (days < 0) return 'error'
	if (days <= 30) return 'warning'
	return 'success'
}

export function anySystemActive(c: LicenceFacts): boolean {
	return SYSTEM_CATALOGUE.some((s) => c[s.flag] === 'N')
}

/** A trust release is offered only when the licence date has passed and no release is running. */
export function canTrustRelease(c: LicenceFacts, today: string, now: Date): boolean {
	return licenceState(c, today, now.getTime()).state === 'expirada'
}
