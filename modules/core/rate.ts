/**
 * Events per key within a sliding window, for the rate limits kept in memory (logins, licence checks).
 * Each key keeps at most `limit + 1` event times, oldest first: enough to tell "over the limit" and when
 * it ends. Expired times leave from the front as a key is read, and keys gone quiet are swept at most
 * once per window, so every call costs O(1) amortised however many keys are live.
 */
export class SlidingWindow {
	private readonly events = new Map<string, number[]>()
	private nextSweep = 0

	constructor(
		readonly windowMs: number,
		readonly limit: number,
		/**
		 * Past this many keys the oldest ones still under their limit are forgotten, so a flood of new keys cannot
		 * exhaust memory. A key over its limit is never forgotten early: junk keys cannot lift a block.
		 */
		private readonly maxKeys = 100_000
	) {}

	/** Events of `key` inside the window at `now`. */
	count(key: string, now: number): number {
		return this.live(key, now)?.length ?? 0
	}

	/** Records an event; true when it takes `key` over the limit. */
	hit(key: string, now: number): boolean {
		this.sweep(now)
		let list = this.live(key, now)
		if (!list) {
			list = []
			this.events.set(key, list)
		}
		list.push(now)
		if (list.length > this.limit + 1) list.shift()
		return list.length > this.limit
	}

	/** Milliseconds until `key` may have one more event (0 when it may now). */
	waitMs(key: string, now: number): number {
		const list = this.live(key, now)
		if (!list || list.length < this.limit) return 0
		return list[list.length - this.limit] + this.windowMs - now
	}

	/** When the newest event of `key` inside the window happened, or null when it has none. */
	newest(key: string, now: number): number | null {
		const list = this.live(key, now)
		return list ? list[list.length - 1] : null
	}

	/** Takes back the newest event of `key` (an attempt counted in advance that turned out fine). */
	undo(key: string) {
		const list = this.events.get(key)
		list?.pop()
		if (list?.length === 0) this.events.delete(key)
	}

	clear(key: string) {
		this.events.delete(key)
	}

	/** Keys held in memory. */
	get size(): number {
		return this.events.size
	}

	private live(key: string, now: number): number[] | undefined {
		const list = this.events.get(key)
		if (!list) return undefined
		let expired = 0
		while (expired < list.length && now - list[expired] >= this.windowMs) expired++
		if (expired === list.length) {
			this.events.delete(key)
			return undefined
		}
		if (expired > 0) list.splice(0, expired)
		return list
	}

	private sweep(now: number) {
		if (now >= this.nextSweep) {
			this.nextSweep = now + this.windowMs
			for (const [key, list] of this.events) if (now - list[list.length - 1] >= this.windowMs) this.events.delete(key)
		}
		if (this.events.size >= this.maxKeys) {
			// Maps iterate in insertion order: the keys created first go first.
			let excess = this.events.size - Math.floor(this.maxKeys * 0.9)
			for (const [key, list] of this.events) {
				if (excess <= 0) break
				if (list.length >= this.limit) continue
				this.events.delete(key)
				excess--
			}
		}
	}
}
