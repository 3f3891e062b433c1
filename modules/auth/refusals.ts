import { and, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm'
import { sqlRows } from '../../db/query'
import { DAY, HOUR, MINUTE, ROLE_LABELS } from '../core'
import { type AppContext, SlidingWindow, writeTransaction } from '../core/server'
import { sessionCookieName } from './guard'
import type { AccessRefusal } from './model'
import { accessRefusalRecords, accessRefusals, sessions, users } from './schema'
import { hashToken } from './service'

/** One refusal as the error handler sees it. */
export interface Refusal {
	status: 401 | 403 | 404
	method: string
	/** The route as registered (`/api/companies/:id`), so probing many records is one line, not one per id. */
	route: string
	/** The record asked for (a path parameter, or an id in the body), when there is one. */
	record: string | null
	ip: string
	request: Request
}

/** A line per caller, route and status; it starts over an hour after its first refusal. */
const SPAN_MS = HOUR
/** The Sistema tab shows the most recent lines; older ones are forgotten first, and none is kept past a day. */
const MAX_LINES = 200
const KEEP_MS = DAY
/** Records kept per line for display, and how many distinct ones are counted. */
const SHOWN_RECORDS = 10
const COUNTED_RECORDS = 1_000
/** Log lines written per 10 minutes, whatever arrives: the rest are counted into the next line. */
const LOG_LINES_PER_10_MIN = 30

interface Line {
	who: string
	userId: number | null
	ip: string
	method: string
	route: string
	status: number
	count: number
	records: Set<string>
	lastRecords: string[]
	firstAt: number
	lastAt: number
}

/**
 * The record a refused request asked for: its path parameters, or else an id the body names (a transfer's
 * empresaCodigo), so probing other tenants' records shows which ones.
 */
export function recordOf(params: Record<string, unknown> | undefined, body: unknown): string | null {
	const fromPath = Object.values(params ?? {})
		.filter((v) => typeof v === 'string' || typeof v === 'number')
		.join('/')
	if (fromPath) return fromPath.slice(0, 100)
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		for (const [key, value] of Object.entries(body)) {
			if (/^(id|codigo)$|Codigo$|_id$|Id$/.test(key) && (typeof value === 'number' || typeof value === 'string')) {
				return String(value).slice(0, 100)
			}
		}
	}
	return null
}

const isPowerOfTen = (n: number) => /^10*$/.test(String(n))

/** What this process has added to a line since it last wrote the lines to the database. */
interface Unwritten {
	line: Pick<Line, 'who' | 'userId' | 'ip' | 'method' | 'route' | 'status'>
	count: number
	/** The records asked for, with when (a strictly growing stamp: the order of the newest holds). */
	records: Map<string, number>
	firstAt: number
	lastAt: number
}

/**
 * Refused authorisations (401 without a session, 403 for a role, 404 for a record outside the caller's scope), kept
 * so an administrador can see probing (Configurações › Sistema) without any flood reaching the log or costing a write
 * per refusal: repeats of one caller on one route add to one line in memory, written to the database with the other
 * lines every few seconds (the job auth.refusals-flush) and before the list is read, where every instance adds to the
 * same lines (at most 200, each for an hour, none past a day). A log line is written at the 1st, 10th, 100th…
 * refusal of a line in this process, at most 30 per 10 minutes per process.
 */
export class RefusalLog {
	private lines = new Map<string, Line>()
	private unwritten = new Map<string, Unwritten>()
	private lastStamp = 0
	private logWindow = new SlidingWindow(10 * MINUTE, LOG_LINES_PER_10_MIN)
	private unlogged = 0
	private readonly cookieName: string

	constructor(private ctx: Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>) {
		this.cookieName = sessionCookieName(ctx.config)
	}

	async record(refusal: Refusal) {
		const now = this.ctx.clock.now().getTime()
		const user = await this.whoAsked(refusal.request)
		const key = `${user ? `u${user.id}` : `ip ${refusal.ip}`}|${refusal.method} ${refusal.route}|${refusal.status}`
		let line = this.lines.get(key)
		if (line && now - line.firstAt >= SPAN_MS) line = undefined
		this.lines.delete(key)
		if (!line) {
			line = {
				who: user ? `${user.nome} (${ROLE_LABELS[user.tipo]})` : 'Sem sessão',
				userId: user?.id ?? null,
				ip: refusal.ip,
				method: refusal.method,
				route: refusal.route,
				status: refusal.status,
				count: 0,
				records: new Set(),
				lastRecords: [],
				firstAt: now,
				lastAt: now
			}
		}
		// Re-inserted: the map keeps lines in order of their last refusal, oldest first.
		this.lines.set(key, line)
		line.count++
		line.lastAt = now
		line.ip = refusal.ip
		if (refusal.record) {
			if (line.records.size < COUNTED_RECORDS) line.records.add(refusal.record)
			line.lastRecords = [refusal.record, ...line.lastRecords.filter((r) => r !== refusal.record)].slice(0, SHOWN_RECORDS)
		}
		for (const old of this.lines.keys()) {
			if (this.lines.size <= MAX_LINES) break
			this.lines.delete(old)
		}
		this.addUnwritten(key, line, refusal.record, now)
		if (isPowerOfTen(line.count)) this.writeLog(line, refusal.record, now)
	}

	private addUnwritten(key: string, line: Line, record: string | null, now: number) {
		const delta = this.unwritten.get(key) ?? { line, count: 0, records: new Map(), firstAt: now, lastAt: now }
		this.unwritten.delete(key)
		this.unwritten.set(key, delta)
		delta.line = line
		delta.count++
		delta.lastAt = now
		if (record && (delta.records.has(record) || delta.records.size < COUNTED_RECORDS)) {
			this.lastStamp = Math.max(now * 1000, this.lastStamp + 1)
			delta.records.set(record, this.lastStamp)
		}
		// Between two writes a flood keeps the newest lines only, as the list does.
		for (const old of this.unwritten.keys()) {
			if (this.unwritten.size <= MAX_LINES) break
			this.unwritten.delete(old)
		}
	}

	/** Adds what this process counted since its last write to the lines every instance shares. */
	async flush(): Promise<void> {
		const batch = this.unwritten
		if (batch.size === 0) return
		this.unwritten = new Map()
		const now = this.ctx.clock.now().getTime()
		await writeTransaction(this.ctx.db, async (tx) => {
			for (const [key, delta] of batch) {
				const existing = (await tx.select().from(accessRefusals).where(eq(accessRefusals.line_key, key)))[0]
				// A line starts over an hour after its first refusal.
				const fresh = !existing || Date.parse(existing.first_at) <= delta.lastAt - SPAN_MS
				if (existing && fresh) await tx.delete(accessRefusalRecords).where(eq(accessRefusalRecords.line_key, key))
				const values = {
					who: delta.line.who,
					user_id: delta.line.userId,
					ip: delta.line.ip,
					method: delta.line.method,
					route: delta.line.route,
					status: delta.line.status,
					count: fresh ? delta.count : existing.count + delta.count,
					first_at: new Date(fresh ? delta.firstAt : Date.parse(existing.first_at)).toISOString(),
					last_at: new Date(delta.lastAt).toISOString()
				}
				await tx
					.insert(accessRefusals)
					.values({ line_key: key, ...values })
					.onConflictDoUpdate({ target: accessRefusals.line_key, set: values })
				if (delta.records.size === 0) continue
				await tx
					.insert(accessRefusalRecords)
					.values([...delta.records].map(([record, seen]) => ({ line_key: key, record, seen })))
					.onConflictDoUpdate({
						target: [accessRefusalRecords.line_key, accessRefusalRecords.record],
						set: { seen: sql`excluded.seen` }
					})
				// Past 1,000 records a line forgets the oldest.
				await tx
					.delete(accessRefusalRecords)
					.where(
						and(
							eq(accessRefusalRecords.line_key, key),
							lt(
								accessRefusalRecords.seen,
								sql`coalesce((select r.seen from access_refusal_records r where r.line_key = ${key} order by r.seen desc limit 1 offset ${COUNTED_RECORDS - 1}), 0)`
							)
						)
					)
			}
			// At most 200 lines, none older than a day, and no records without their line.
			await tx.delete(accessRefusals).where(lt(accessRefusals.last_at, new Date(now - KEEP_MS).toISOString()))
			const kept = tx.select({ key: accessRefusals.line_key }).from(accessRefusals).orderBy(desc(accessRefusals.last_at)).limit(MAX_LINES)
			await tx.delete(accessRefusals).where(notInArray(accessRefusals.line_key, kept))
			await tx
				.delete(accessRefusalRecords)
				.where(notInArray(accessRefusalRecords.line_key, tx.select({ key: accessRefusals.line_key }).from(accessRefusals)))
		})
	}

	/** The lines of every instance, most recent first, as the Sistema tab shows them (this process's newest included). */
	async list(): Promise<AccessRefusal[]> {
		await this.flush()
		const db = this.ctx.db
		const lines = await db.select().from(accessRefusals).orderBy(desc(accessRefusals.last_at)).limit(MAX_LINES)
		if (lines.length === 0) return []
		const keys = lines.map((l) => l.line_key)
		const distinct = new Map(
			(
				await db
					.select({ key: accessRefusalRecords.line_key, n: sql<number>`count(*)` })
					.from(accessRefusalRecords)
					.where(inArray(accessRefusalRecords.line_key, keys))
					.groupBy(accessRefusalRecords.line_key)
			).map((r) => [r.key, Number(r.n)])
		)
		const newest = await sqlRows<{ line_key: string; record: string }>(
			db,
			sql`select line_key, record from (
				select line_key, record, seen, row_number() over (partition by line_key order by seen desc) as n
				from access_refusal_records where line_key in ${keys}
			) as ranked where n <= ${SHOWN_RECORDS} order by line_key, seen desc`
		)
		const records = new Map<string, string[]>()
		for (const row of newest) records.set(row.line_key, [...(records.get(row.line_key) ?? []), row.record])
		return lines.map((line) => ({
			who: line.who,
			ip: line.ip,
			method: line.method,
			route: line.route,
			status: line.status,
			count: line.count,
			records: records.get(line.line_key) ?? [],
			distinctRecords: distinct.get(line.line_key) ?? 0,
			firstAt: line.first_at,
			lastAt: line.last_at
		}))
	}

	private writeLog(line: Line, record: string | null, now: number) {
		if (this.logWindow.hit('all', now)) {
			this.unlogged++
			return
		}
		this.ctx.log('access.refused', {
			status: line.status,
			method: line.method,
			route: line.route,
			record,
			userId: line.userId,
			who: line.who,
			ip: line.ip,
			count: line.count,
			distinctRecords: line.records.size,
			...(this.unlogged ? { unlogged: this.unlogged } : {})
		})
		this.unlogged = 0
	}

	/** The signed-in user behind the request, read without touching the session; null without one. */
	private async whoAsked(request: Request) {
		const cookie = request.headers.get('cookie')
		if (!cookie) return null
		const prefix = `${this.cookieName}=`
		const token = cookie
			.split(';')
			.map((part) => part.trim())
			.find((part) => part.startsWith(prefix))
			?.slice(prefix.length)
		if (!token || token.length > 100) return null
		return (
			(
				await this.ctx.db
					.select({ id: users.id, nome: users.nome, tipo: users.tipo })
					.from(sessions)
					.innerJoin(users, eq(users.id, sessions.user_id))
					.where(eq(sessions.id, hashToken(token)))
			)[0] ?? null
		)
	}
}
