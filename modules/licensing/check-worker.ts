/** A licence-check worker thread (see LicenceCheckPool): its own connection, the same evaluator as the main thread. */
import { openDb, openPostgres } from '../../db/client'
import type { Clock } from '../core'
import { AppError, type Logger, createSecretBox } from '../core/server'
import { type LicenceEvaluator, createLicenceEvaluator, evaluateToJson } from './check'
import { type CheckWorkerReply, type CheckWorkerRequest, decodeCheck, encodeAnswer } from './check-pool'

declare const self: Worker

const reply = (message: CheckWorkerReply) => self.postMessage(message)
// The main thread's time, sent with every message, so tokens and last-use times follow the app's clock.
let now = Date.now()
const clock: Clock = { now: () => new Date(now) }
const log: Logger = (event, fields) => reply({ log: { event, fields } })
// Checks that arrive while it is being made (PostgreSQL answers the set-up queries later) wait for it.
let evaluator: Promise<LicenceEvaluator> | null = null

self.onmessage = async (event: MessageEvent<CheckWorkerRequest>) => {
	if (typeof event.data === 'string') return check(event.data)
	const message = event.data
	now = message.now
	if ('setup' in message) {
		try {
			const { database, config } = message.setup
			// Two connections: a check never waits behind the batched write of last-use times.
			const db = 'file' in database ? openDb(database.file) : openPostgres(database.postgresUrl, { max: 2 })
			evaluator = createLicenceEvaluator({ db, clock, secrets: createSecretBox(config.secretKey) })
			await evaluator
			reply({ ready: true })
		} catch (error) {
			reply({ fatal: String((error as Error)?.message ?? error) })
		}
		return
	}
	if ('flush' in message) {
		try {
			await (await evaluator)?.flushUsage()
		} catch (error) {
			log('licence.flush_failed', { message: String((error as Error)?.message ?? error) })
		}
		return
	}
}

async function check(text: string) {
	const [id, sentNow, deadline, input] = decodeCheck(text)
	now = sentNow
	// Nobody waits for an answer past its deadline any more: skip the work (and its writes).
	if (Date.now() > deadline) return reply({ id, expired: true })
	try {
		reply(encodeAnswer(id, await evaluateToJson(await evaluator!, input)))
	} catch (error) {
		const e = error as Error
		reply({
			id,
			error:
				e instanceof AppError
					? { message: e.message, status: e.status, code: e.code, headers: e.headers }
					: { message: String(e?.message ?? e) }
		})
	}
}
