/** The only source of "now" on the server, so tests can fix and move time. */
export interface Clock {
	now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until a test moves it, or, once told to run(), moves with real time from where it is. */
export function fixedClock(start: string | Date) {
	let current = new Date(start).getTime()
	let runningSince: number | null = null
	const elapsed = () => (runningSince === null ? 0 : performance.now() - runningSince)
	return {
		now: () => new Date(current + elapsed()),
		advance(ms: number) {
			current += ms
		},
		set(to: string | Date) {
			current = new Date(to).getTime()
			if (runningSince !== null) runningSince = performance.now()
		},
		run() {
			runningSince = performance.now()
		}
	}
}
export type FixedClock = ReturnType<typeof fixedClock>

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
