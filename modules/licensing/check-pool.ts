import { type Db, postgresUrlOf } from '../../db/client'
import { onPostgres } from '../../db/dialect'
import type { Clock } from '../core'
import { type AppConfig, AppError, type Logger } from '../core/server'
import type { CheckResult } from './check'
import type { LicenceCheckBody } from './model'

/**
 * What a check worker needs to open its own connection: the SQLite file, or the PostgreSQL URL, of the main
 * thread's database (the worker's tables are built for the same dialect: it reads the same DATABASE_URL).
 */
export interface CheckWorkerSetup {
	database: { file: string } | { postgresUrl: string }
	config: AppConfig
}

/** What a check worker opens to reach the database `db`: its PostgreSQL URL or SQLite file; null for SQLite in memory. */
export function workerDatabase(db: Db): CheckWorkerSetup['database'] | null {
	if (onPostgres(db)) {
		const postgresUrl = postgresUrlOf(db)
		return postgresUrl ? { postgresUrl } : null
	}
	const file = db.$client.filename
	return file && file !== ':memory:' ? { file } : null
}

/**
 * `now` is the main thread's clock: a worker answers with the time of the app it serves, not its own.
 * A check travels as text (see `encodeCheck`): copying an object between threads costs more than writing and
 * reading it as JSON, and a check's answer is already text.
 */
export type CheckWorkerRequest = string | { setup: CheckWorkerSetup; now: number } | { flush: true; now: number }

/** A check as the worker receives it: `[id, now, deadline, input]` in JSON. */
export type CheckMessage = [id: number, now: number, deadline: number, input: LicenceCheckBody]
export const encodeCheck = (message: CheckMessage) => JSON.stringify(message)
export const decodeCheck = (text: string) => JSON.parse(text) as CheckMessage

/** An answer as the main thread receives it: "id status json". */
export const encodeAnswer = (id: number, result: CheckResult) => `${id} ${result.status} ${result.json}`
export function decodeAnswer(text: string): { id: number } & CheckResult {
	const first = text.indexOf(' ')
	const second = text.indexOf(' ', first + 1)
	return { id: Number(text.slice(0, first)), status: text.slice(first + 1, second) as CheckResult['status'], json: text.slice(second + 1) }
}

/** An error crossing threads: an AppError keeps its status, message and headers; anything else is a 500. */
export interface CheckWorkerError {
	message: string
	status?: number
	code?: string
	headers?: Record<string, string>
}

export type CheckWorkerReply =
	| string
	| { ready: true }
	| { fatal: string }
	| { log: { event: string; fields?: Record<string, unknown> } }
	| { id: number; error: CheckWorkerError }
	| { id: number; expired: true }

/** A check not answered within this time is given up with 503, and its worker replaced. */
const ANSWER_TIMEOUT_MS = 10_000
/** Checks waiting on one worker beyond which new ones get 503 at once instead of queueing. */
const MAX_PENDING = 1_000
/** A worker that fails is started again after 0.5 s, doubling up to 30 s while it keeps failing. */
const RESPAWN_MIN_MS = 500
const RESPAWN_MAX_MS = 30_000

interface Pending {
	resolve: (result: CheckResult) => void
	reject: (error: Error) => void
	sentAt: number
}

interface Slot {
	worker: Worker
	pending: Map<number, Pending>
	retired: boolean
}

const unavailable = () =>
	new AppError(503, 'Verificação de licença indisponível no momento. Tente novamente em instantes.', 'LICENCE_UNAVAILABLE')

/**
 * Licence checks answered by worker threads, each with its own database connection. A company always goes
 * to the same worker, so its rate limit and its last-use time live in one place. A worker that dies, hangs or
 * cannot start is replaced (with a growing delay while it keeps failing) and the checks it held get 503; while
 * its place is empty, `run` answers null and the caller checks in its own thread.
 */
export class LicenceCheckPool {
	private readonly slots: (Slot | null)[]
	private nextId = 0
	private closed = false
	private failures = 0
	private readonly watchdog: Timer

	constructor(
		private readonly setup: CheckWorkerSetup,
		size: number,
		private readonly log: Logger,
		private readonly clock: Clock,
		private readonly maxPending = MAX_PENDING
	) {
		this.slots = Array.from({ length: size }, () => null)
		for (let index = 0; index < size; index++) this.spawn(index)
		this.watchdog = setInterval(() => this.expire(), 500)
		this.watchdog.unref()
	}

	/** The answer of the company's worker, or null when that worker is down and the caller must answer itself. */
	run(input: LicenceCheckBody): Promise<CheckResult | null> {
		if (this.closed) return Promise.reject(unavailable())
		const slot = this.slots[shard(input.cnpj, this.slots.length)]
		if (!slot) return Promise.resolve(null)
		if (slot.pending.size >= this.maxPending) return Promise.reject(unavailable())
		const id = ++this.nextId
		return new Promise((resolve, reject) => {
			slot.pending.set(id, { resolve, reject, sentAt: performance.now() })
			slot.worker.postMessage(encodeCheck([id, this.clock.now().getTime(), Date.now() + ANSWER_TIMEOUT_MS, input]))
		})
	}

	/** Asks every worker to write its batched last-use times now. */
	flushUsage() {
		const now = this.clock.now().getTime()
		for (const slot of this.slots) slot?.worker.postMessage({ flush: true, now } satisfies CheckWorkerRequest)
	}

	close() {
		this.closed = true
		clearInterval(this.watchdog)
		for (const slot of this.slots) if (slot) this.retire(slot)
	}

	private spawn(index: number): Slot {
		// `ref: false`: the workers never keep the process alive on their own.
		const worker = new Worker(new URL('./check-worker.ts', import.meta.url), { ref: false } as WorkerOptions)
		const slot: Slot = { worker, pending: new Map(), retired: false }
		worker.onmessage = (event: MessageEvent<CheckWorkerReply>) => this.receive(slot, event.data)
		worker.addEventListener('error', (event) => {
			this.log('licence.worker_error', { message: (event as ErrorEvent).message })
			this.replace(slot)
		})
		worker.addEventListener('close', () => this.replace(slot))
		worker.postMessage({ setup: this.setup, now: this.clock.now().getTime() } satisfies CheckWorkerRequest)
		this.slots[index] = slot
		return slot
	}

	private receive(slot: Slot, reply: CheckWorkerReply) {
		if (typeof reply === 'string') {
			const answer = decodeAnswer(reply)
			const pending = slot.pending.get(answer.id)
			if (!pending) return
			slot.pending.delete(answer.id)
			pending.resolve(answer)
			return
		}
		if ('ready' in reply) {
			this.failures = 0
			return
		}
		if ('fatal' in reply) {
			const retryInMs = this.replace(slot)
			this.log('licence.worker_failed', { message: reply.fatal, retryInMs })
			return
		}
		if ('log' in reply) {
			this.log(reply.log.event, reply.log.fields)
			return
		}
		const pending = slot.pending.get(reply.id)
		if (!pending) return
		slot.pending.delete(reply.id)
		if ('expired' in reply) pending.reject(unavailable())
		else
			pending.reject(
				reply.error.status
					? new AppError(reply.error.status, reply.error.message, reply.error.code, reply.error.headers)
					: new Error(reply.error.message)
			)
	}

	private retire(slot: Slot) {
		if (slot.retired) return
		slot.retired = true
		slot.worker.terminate()
		for (const pending of slot.pending.values()) pending.reject(unavailable())
		slot.pending.clear()
	}

	/**
	 * Takes a failed worker out at once; a new one starts after a delay that grows while workers keep failing.
	 * Returns that delay (null when the slot was already replaced or the pool is closed).
	 */
	private replace(slot: Slot): number | null {
		if (slot.retired || this.closed) return null
		const index = this.slots.indexOf(slot)
		this.retire(slot)
		this.slots[index] = null
		const delay = Math.min(RESPAWN_MAX_MS, RESPAWN_MIN_MS * 2 ** this.failures++)
		setTimeout(() => {
			if (!this.closed) this.spawn(index)
		}, delay).unref()
		return delay
	}

	/** Gives up checks past the timeout; a worker that held one is stuck and gets replaced. */
	private expire() {
		const now = performance.now()
		for (const slot of this.slots) {
			if (!slot) continue
			let stuck = false
			for (const [id, pending] of slot.pending) {
				if (now - pending.sentAt < ANSWER_TIMEOUT_MS) continue
				slot.pending.delete(id)
				pending.reject(unavailable())
				stuck = true
			}
			if (stuck) {
				this.log('licence.worker_stuck', {})
				this.replace(slot)
			}
		}
	}
}

function shard(cnpj: string, size: number): number {
	let hash = 0
	for (let i = 0; i < cnpj.length; i++) hash = (hash * 31 + cnpj.charCodeAt(i)) | 0
	return Math.abs(hash) % size
}
