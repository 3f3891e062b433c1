/** The only source of "now" on the server, so tests can fix and move time. */
export interface Clock {
	now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until a test moves it. */
export function fixedClock(start: string | Date) {
	let current = new Date(start).getTime()
	return {
		now: () => new Date(current),
		advance(ms: number) {
			current += ms
		},
		set(to: string | Date) {
			current = new Date(to).getTime()
		}
	}
}
export type FixedClock = ReturnType<typeof fixedClock>

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
