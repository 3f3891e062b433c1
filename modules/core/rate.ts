import { and, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { sqlWriteRows } from '../../db/query'
import { rateCounts, rateEvents } from './schema'
import { writeTransaction } from './sql'

/**
 * Events per key within a sliding window, for the limits one process keeps for itself (how often it writes a log line).
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

/** How often a SharedCounter adds its hits to the shared count, and learns the other processes' hits. */
export const SHARED_COUNT_SYNC_MS = 2_000

/**
 * Hits per key in fixed windows, counted together by every portal process on the database with a bounded lag: for a
 * limit on a hot path that cannot afford a write per hit (the licence check). Each process counts its own hits at once
 * and adds them to the shared row (rate_counts) at most every `syncMs`, in one statement for its keys, learning the
 * others' totals in the same statement. Only a key this process has counted a tenth of the limit for in the window is
 * shared at all: ordinary traffic (a desktop checking every few minutes) writes nothing, a flood is shared within
 * seconds. A key is refused once the hits known here pass the limit: exact within one process; across processes late
 * by at most the others' hits of the last `syncMs`, and by under a tenth of the limit per other process: harmless for
 * a limit that only slows floods down.
 */
export class SharedCounter {
	private window = 0
	/** The shared total of each key, as of its last sync (this process's synced hits included). */
	private known = new Map<string, number>()
	/** Hits being added by the sync under way, and hits since. */
	private syncing = new Map<string, number>()
	private unsynced = new Map<string, number>()
	/** This process's hits of each key in the window, shared or not. */
	private mine = new Map<string, number>()
	/** From this many hits of its own in the window, a process shares a key's count. */
	private readonly shareFrom: number
	private running: Promise<void> | null = null
	private lastSync: number

	constructor(
		private readonly db: DbOrTx,
		/** The counter's name, the prefix of its keys in rate_counts. */
		readonly name: string,
		readonly windowMs: number,
		readonly limit: number,
		now: number,
		private readonly syncMs = SHARED_COUNT_SYNC_MS
	) {
		this.lastSync = now
		this.shareFrom = Math.max(1, Math.ceil(limit / 10))
	}

	/** Counts a hit of `key`; true when it takes the key over the limit in the current window. */
	hit(key: string, now: number): boolean {
		this.roll(now)
		const unsynced = (this.unsynced.get(key) ?? 0) + 1
		this.unsynced.set(key, unsynced)
		this.mine.set(key, (this.mine.get(key) ?? 0) + 1)
		const total = (this.known.get(key) ?? 0) + (this.syncing.get(key) ?? 0) + unsynced
		if (!this.running && now - this.lastSync >= this.syncMs) void this.sync(now).catch(() => undefined)
		return total > this.limit
	}

	/**
	 * Adds this process's hits so far to the shared counts and reads the totals back, after a sync under way (the hits
	 * stay counted here if it fails).
	 */
	async sync(now: number): Promise<void> {
		while (this.running) await this.running.catch(() => undefined)
		this.running = this.write(now).finally(() => {
			this.running = null
		})
		return this.running
	}

	private async write(now: number) {
		this.lastSync = now
		this.roll(now)
		const window = this.window
		for (const [key, hits] of this.unsynced) {
			if ((this.mine.get(key) ?? 0) < this.shareFrom) continue
			this.syncing.set(key, hits)
			this.unsynced.delete(key)
		}
		if (this.syncing.size === 0) return
		const at = new Date(now).toISOString()
		const expires = new Date(window + this.windowMs).toISOString()
		const prefix = `${this.name}:`
		const rows = [...this.syncing].map(([key, hits]) => sql`(${prefix + key}, ${window}, ${hits}, ${expires})`)
		try {
			// Single statements, no transaction: adding to a count is atomic by itself (on PostgreSQL a transaction here
			// would only make the instances' syncs abort one another).
			await this.db.delete(rateCounts).where(lte(rateCounts.expires_at, at))
			const keys = [...this.syncing.keys()]
			for (let start = 0; start < rows.length; start += 1000) {
				const totals = await sqlWriteRows<{ key: string; hits: number }>(
					this.db,
					sql`insert into rate_counts (key, window_start, hits, expires_at) values ${sql.join(rows.slice(start, start + 1000), sql`, `)}
					on conflict (key, window_start) do update set hits = rate_counts.hits + excluded.hits
					returning key, hits`
				)
				// Added: no longer this process's to add again, whatever happens to the next statement.
				for (const key of keys.slice(start, start + 1000)) this.syncing.delete(key)
				if (this.window === window) for (const row of totals) this.known.set(row.key.slice(prefix.length), Number(row.hits))
			}
		} catch (error) {
			if (this.window === window) for (const [key, hits] of this.syncing) this.unsynced.set(key, (this.unsynced.get(key) ?? 0) + hits)
			throw error
		} finally {
			this.syncing = new Map()
		}
	}

	/** A new window starts from zero: what was counted in the previous one no longer matters. */
	private roll(now: number) {
		const window = now - (now % this.windowMs)
		if (window === this.window) return
		this.window = window
		this.known.clear()
		this.unsynced.clear()
		this.mine.clear()
	}
}

/**
 * At most `limit` events of `key` within `windowMs`: a limit shared through the database (rate_events), for what every
 * portal process must count together and a restart must not forget (WhatsApp sends, credit purchases).
 */
export interface SharedLimit {
	key: string
	limit: number
	windowMs: number
}

/** Why an event was refused: the limit it would break (the one with the longest wait) and how long until it fits. */
export interface RateRefusal {
	limit: SharedLimit
	waitMs: number
}

/**
 * Counts one event against every limit in `limits`, in one IMMEDIATE transaction, so two processes on one database
 * cannot both take the last place. Answers the rows recorded (one per key; `giveBackShared` takes them back when the
 * attempt turns out not to count), or the refusal with the longest wait, recording nothing.
 */
export function takeShared(db: DbOrTx, now: Date, limits: SharedLimit[]): Promise<{ taken: number[] } | { refused: RateRefusal }> {
	const at = now.toISOString()
	const ms = now.getTime()
	return writeTransaction(db, async (tx) => {
		await tx.delete(rateEvents).where(lte(rateEvents.expires_at, at))
		let refused: RateRefusal | null = null
		for (const limit of limits) {
			const since = new Date(ms - limit.windowMs).toISOString()
			const inWindow = await tx
				.select({ at: rateEvents.at })
				.from(rateEvents)
				.where(and(eq(rateEvents.key, limit.key), gt(rateEvents.at, since)))
				.orderBy(desc(rateEvents.at))
				.limit(limit.limit)
			if (inWindow.length < limit.limit) continue
			// The place frees up when the oldest of the newest `limit` events leaves the window.
			const waitMs = Date.parse(inWindow[limit.limit - 1].at) + limit.windowMs - ms
			if (!refused || waitMs > refused.waitMs) refused = { limit, waitMs }
		}
		if (refused) return { refused }
		const keep = new Map<string, number>()
		for (const { key, windowMs } of limits) keep.set(key, Math.max(keep.get(key) ?? 0, windowMs))
		const rows = [...keep].map(([key, windowMs]) => ({ key, at, expires_at: new Date(ms + windowMs).toISOString() }))
		return {
			taken: (await tx.insert(rateEvents).values(rows).returning({ id: rateEvents.id })).map((r) => r.id)
		}
	})
}

/** Takes back events counted by `takeShared` (an attempt refused for what it asked, which sent or charged nothing). */
export async function giveBackShared(db: DbOrTx, taken: number[]) {
	if (taken.length) await db.delete(rateEvents).where(inArray(rateEvents.id, taken))
}

/** The times (ms) of `key`'s shared events within `windowMs` before `now`, newest first, at most `limit`. */
export async function recentShared(db: DbOrTx, key: string, now: number, windowMs: number, limit: number): Promise<number[]> {
	const rows = await db
		.select({ at: rateEvents.at })
		.from(rateEvents)
		.where(and(eq(rateEvents.key, key), gt(rateEvents.at, new Date(now - windowMs).toISOString())))
		.orderBy(desc(rateEvents.at))
		.limit(limit)
	return rows.map((r) => Date.parse(r.at))
}

/** Records one shared event under each of `keys`, kept `windowMs` (the expired events of every key go); answers their rows. */
export async function recordShared(tx: DbOrTx, keys: string[], now: number, windowMs: number): Promise<number[]> {
	const at = new Date(now).toISOString()
	const expires = new Date(now + windowMs).toISOString()
	await tx.delete(rateEvents).where(lte(rateEvents.expires_at, at))
	const rows = keys.map((key) => ({ key, at, expires_at: expires }))
	return (await tx.insert(rateEvents).values(rows).returning({ id: rateEvents.id })).map((r) => r.id)
}

/** Forgets every shared event of `key` (a count that starts over). */
export async function clearShared(db: DbOrTx, key: string) {
	await db.delete(rateEvents).where(eq(rateEvents.key, key))
}

/**
 * Reserves the next turn of `key`, at least `gapMs` after the turn before it (sends through one WhatsApp number, spaced
 * like a person's): the milliseconds to wait until it, not reserved when it is more than `maxWaitMs` away. Shared
 * through the database like `takeShared`.
 */
export function reserveTurn(
	db: DbOrTx,
	now: Date,
	key: string,
	gapMs: number,
	maxWaitMs: number
): Promise<{ waitMs: number; reserved: boolean }> {
	const ms = now.getTime()
	return writeTransaction(db, async (tx) => {
		const last = (
			await tx.select({ at: rateEvents.at }).from(rateEvents).where(eq(rateEvents.key, key)).orderBy(desc(rateEvents.at)).limit(1)
		)[0]
		const turn = Math.max(ms, last ? Date.parse(last.at) + gapMs : ms)
		if (turn - ms > maxWaitMs) return { waitMs: turn - ms, reserved: false }
		// Only the newest turn matters to the next one: the row may go once a turn after it could not be earlier.
		await tx.insert(rateEvents).values({ key, at: new Date(turn).toISOString(), expires_at: new Date(turn + gapMs + 1).toISOString() })
		return { waitMs: turn - ms, reserved: true }
	})
}

/** A wait as a person reads it, rounded up: "40 segundos", "3 minutos", "5 horas e 2 minutos". */
export function waitInWords(ms: number): string {
	const seconds = Math.max(1, Math.ceil(ms / 1000))
	if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`
	const minutes = Math.ceil(seconds / 60)
	if (minutes < 60) return minutes === 1 ? '1 minuto' : `${minutes} minutos`
	const hours = Math.floor(minutes / 60)
	const rest = minutes % 60
	const h = hours === 1 ? '1 hora' : `${hours} horas`
	return rest === 0 ? h : `${h} e ${rest === 1 ? '1 minuto' : `${rest} minutos`}`
}
