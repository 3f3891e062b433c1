import { type AppConfig, AppError, type Logger } from '../core'
import type { CheckResult } from './check'
import type { LicenceCheckBody } from './model'

/** What a check worker needs to open its own connection. */
export interface CheckWorkerSetup {
	dbFile: string
	config: AppConfig
}

export type CheckWorkerRequest = { setup: CheckWorkerSetup } | { id: number; input: LicenceCheckBody } | { flush: true }
export type CheckWorkerReply = ({ id: number } & CheckResult) | { id: number; error: string }

/** A check not answered within this time is given up with 503, so no caller waits forever. */
const ANSWER_TIMEOUT_MS = 10_000

interface Pending {
	resolve: (result: CheckResult) => void
	reject: (error: AppError) => void
	sentAt: number
}

interface Slot {
	worker: Worker
	pending: Map<number, Pending>
	retired: boolean
}

const unavailable = () => new AppError(503, 'Verificação de licença indisponível no momento. Tente novamente em instantes.', 'LICENCE_UNAVAILABLE')

/**
 * Licence checks answered by worker threads, each with its own database connection. A company always goes
 * to the same worker, so its last-use time is batched in one place. A worker that dies is replaced, and the
 * checks it held fail with 503 instead of hanging.
 */
export class LicenceCheckPool {
	private readonly slots: Slot[]
	private nextId = 0
	private closed = false
	private readonly watchdog: Timer

	constructor(
		private readonly setup: CheckWorkerSetup,
		size: number,
		private readonly log: Logger
	) {
		this.slots = Array.from({ length: size }, () => this.spawn())
		this.watchdog = setInterval(() => this.expire(), 1_000)
		this.watchdog.unref()
	}

	run(input: LicenceCheckBody): Promise<CheckResult> {
		if (this.closed) return Promise.reject(unavailable())
		const slot = this.slots[shard(input.cnpj, this.slots.length)]
		const id = ++this.nextId
		return new Promise((resolve, reject) => {
			slot.pending.set(id, { resolve, reject, sentAt: performance.now() })
			slot.worker.postMessage({ id, input } satisfies CheckWorkerRequest)
		})
	}

	/** Asks every worker to write its batched last-use times now. */
	flushUsage() {
		for (const slot of this.slots) slot.worker.postMessage({ flush: true } satisfies CheckWorkerRequest)
	}

	close() {
		this.closed = true
		clearInterval(this.watchdog)
		for (const slot of this.slots) this.retire(slot)
	}

	private spawn(): Slot {
		// `ref: false`: the workers never keep the process alive on their own.
		const worker = new Worker(new URL('./check-worker.ts', import.meta.url), { ref: false } as WorkerOptions)
		const slot: Slot = { worker, pending: new Map(), retired: false }
		worker.onmessage = (event: MessageEvent<CheckWorkerReply>) => {
			const reply = event.data
			const pending = slot.pending.get(reply.id)
			if (!pending) return
			slot.pending.delete(reply.id)
			if ('error' in reply) {
				this.log('licence.check_failed', { message: reply.error })
				pending.reject(unavailable())
			} else {
				pending.resolve(reply)
			}
		}
		worker.addEventListener('error', (event) => {
			this.log('licence.worker_error', { message: (event as ErrorEvent).message })
			this.replace(slot)
		})
		worker.addEventListener('close', () => this.replace(slot))
		worker.postMessage({ setup: this.setup } satisfies CheckWorkerRequest)
		return slot
	}

	private retire(slot: Slot) {
		if (slot.retired) return
		slot.retired = true
		slot.worker.terminate()
		for (const pending of slot.pending.values()) pending.reject(unavailable())
		slot.pending.clear()
	}

	private replace(slot: Slot) {
		if (slot.retired || this.closed) return
		this.retire(slot)
		this.slots[this.slots.indexOf(slot)] = this.spawn()
	}

	private expire() {
		const now = performance.now()
		for (const slot of this.slots) {
			for (const [id, pending] of slot.pending) {
				if (now - pending.sentAt < ANSWER_TIMEOUT_MS) continue
				slot.pending.delete(id)
				pending.reject(unavailable())
			}
		}
	}
}

function shard(cnpj: string, size: number): number {
	let hash = 0
	for (let i = 0; i < cnpj.length; i++) hash = (hash * 31 + cnpj.charCodeAt(i)) | 0
	return Math.abs(hash) % size
}
