import type { Clock } from './clock'
import { isoDateInSaoPaulo } from './format'

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
	const m = ISO_DATE.exec(value)
	if (!m) return false
	const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
	return date.toISOString().slice(0, 10) === value
}

/** Today's date in Brazil time. */
export function todayIso(clock: Clock): string {
	return isoDateInSaoPaulo(clock.now())
}

export function addDaysIso(isoDate: string, days: number): string {
	const [y, m, d] = isoDate.split('-').map(Number)
	return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
	return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/** How far ahead a licence may reach: far enough for any plan, near enough that no date leaves the four-digit years. */
export const LICENCE_HORIZON_YEARS = 20

/** The same day `years` on (both YYYY-MM-DD), or 28 February for a 29th that year has not. */
export function yearsLater(iso: string, years: number): string {
	const [y, m, d] = iso.split('-').map(Number)
	const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate()
	return new Date(Date.UTC(y + years, m - 1, Math.min(d, last))).toISOString().slice(0, 10)
}

/** The last licence date allowed on `today` (both YYYY-MM-DD): the same day 20 years on (28 February for a 29th). */
export function licenceHorizon(today: string): string {
	return yearsLater(today, LICENCE_HORIZON_YEARS)
}

/** The same day a month earlier (both YYYY-MM-DD), or that month's last day when it is shorter: 31 March → 28 February. */
export function oneMonthBefore(iso: string): string {
	const [y, m, d] = iso.split('-').map(Number)
	const last = new Date(Date.UTC(y, m - 1, 0)).getUTCDate()
	return new Date(Date.UTC(y, m - 2, Math.min(d, last))).toISOString().slice(0, 10)
}

/** The instant a day begins in Brazil (UTC−3, no daylight saving since 2019), as an ISO string: for ranges of instants. */
export function startOfDayInSaoPaulo(isoDate: string): string {
	return `${isoDate}T03:00:00.000Z`
}
