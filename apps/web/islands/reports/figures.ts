/** The dashboard figures of 1-core §4. */

/** Active companies as a percentage of all (0 when there are none). */
export const activePercent = (active: number, total: number) => (total === 0 ? 0 : (active / total) * 100)

/** 'Days remaining' on the credits card: availableCredits × 33, rounded down. */
export const daysRemaining = (credits: number) => Math.floor(credits * 33)

/** A system's bar: active / (active + blocked) × 100, 0 when both are 0. */
export const systemBar = (s: { active: number; blocked: number }) =>
	s.active + s.blocked === 0 ? 0 : (s.active / (s.active + s.blocked)) * 100
