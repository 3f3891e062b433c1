import { eq } from 'drizzle-orm'
import { HOUR, MINUTE, ROLE_LABELS } from '../core'
import { type AppContext, SlidingWindow } from '../core/server'
import { sessionCookieName } from './guard'
import type { AccessRefusal } from './model'
import { sessions, users } from './schema'
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
/** The Sistema tab shows the most recent lines; older ones are forgotten first. */
const MAX_LINES = 200
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

/**
 * Refused authorisations (401 without a session, 403 for a role, 404 for a record outside the caller's scope), kept
 * so an administrador can see probing (Configurações › Sistema) without any flood reaching the log or the database:
 * repeats of one caller on one route add to one line in memory (at most 200 lines, each for an hour), and a log line
 * is written at the 1st, 10th, 100th… refusal of a line, at most 30 per 10 minutes overall.
 */
export class RefusalLog {
	private lines = new Map<string, Line>()
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
		if (isPowerOfTen(line.count)) this.writeLog(line, refusal.record, now)
	}

	/** The lines, most recent first, as the Sistema tab shows them. */
	list(): AccessRefusal[] {
		return [...this.lines.values()].reverse().map((line) => ({
			who: line.who,
			ip: line.ip,
			method: line.method,
			route: line.route,
			status: line.status,
			count: line.count,
			records: line.lastRecords,
			distinctRecords: line.records.size,
			firstAt: new Date(line.firstAt).toISOString(),
			lastAt: new Date(line.lastAt).toISOString()
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
