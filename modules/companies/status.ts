import { daysBetween } from '../core'

/** The licence facts the screens and the filters classify (1-core §4). */
export interface LicenceFacts {
	validade_licenca: string | null
	bloqueado: string
	bloqueadopdv: string
	bloqueado_kchef: string
	bloqueado_katelie: string
	bloqueado_kprevenda: string
	liberacao_confianca_expira: string | null
}

export type Tone = 'success' | 'warning' | 'error' | 'neutral' | 'info'

export const SYSTEM_COLUMNS = [
	{ flag: 'bloqueado', name: 'K-RETA', short: 'RETA' },
	{ flag: 'bloqueadopdv', name: 'K-PDV', short: 'PDV' },
	{ flag: 'bloqueado_kchef', name: 'K-CHEF', short: 'CHEF' },
	{ flag: 'bloqueado_katelie', name: 'K-ATELIE', short: 'ATELIE' },
	{ flag: 'bloqueado_kprevenda', name: 'K-PRE VENDA', short: 'PRÉ' }
] as const

export function licenceDays(validade: string | null, today: string): number | null {
	return validade ? daysBetween(today, validade) : null
}

/** The status badge: Bloqueada, Liberada (Nh restantes), Expirada, Expira em N dias, Ativa (N dias), Sem licença. */
export function licenceBadge(c: LicenceFacts, today: string, now: Date): { label: string; tone: Tone } {
	if (c.bloqueado === 'S') return { label: 'Bloqueada', tone: 'error' }
	const days = licenceDays(c.validade_licenca, today)
	if (days === null) return { label: 'Sem licença', tone: 'neutral' }
	if (days <= 0) {
		const left = c.liberacao_confianca_expira ? Date.parse(c.liberacao_confianca_expira) - now.getTime() : 0
		if (left > 0) return { label: `Liberada (${Math.ceil(left / 3_600_000)}h restantes)`, tone: 'info' }
		return { label: 'Expirada', tone: 'error' }
	}
	if (days <= 5) return { label: `Expira em ${days} ${days === 1 ? 'dia' : 'dias'}`, tone: 'warning' }
	return { label: `Ativa (${days} dias)`, tone: 'success' }
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
	return SYSTEM_COLUMNS.some((s) => c[s.flag] === 'N')
}

/** A trust release is offered only when the licence date has passed and no release is running. */
export function canTrustRelease(c: LicenceFacts, today: string, now: Date): boolean {
	const days = licenceDays(c.validade_licenca, today)
	const running = !!c.liberacao_confianca_expira && Date.parse(c.liberacao_confianca_expira) > now.getTime()
	return days !== null && days <= 0 && !running
}
