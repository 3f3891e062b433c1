/** A licence-check worker thread (see LicenceCheckPool): its own connection, the same evaluator as the main thread. */
import { openDb } from '../../db/client'
import { jsonLogger, systemClock } from '../core'
import { type LicenceEvaluator, createLicenceEvaluator, evaluateToJson } from './check'
import type { CheckWorkerReply, CheckWorkerRequest } from './check-pool'

declare const self: Worker

let evaluator: LicenceEvaluator | null = null

self.onmessage = (event: MessageEvent<CheckWorkerRequest>) => {
	const message = event.data
	if ('setup' in message) {
		const db = openDb(message.setup.dbFile)
		evaluator = createLicenceEvaluator({ db, clock: systemClock, config: message.setup.config, log: jsonLogger })
		return
	}
	if ('flush' in message) {
		evaluator?.flushUsage()
		return
	}
	let reply: CheckWorkerReply
	try {
		reply = { id: message.id, ...evaluateToJson(evaluator!, message.input) }
	} catch (error) {
		reply = { id: message.id, error: String((error as Error)?.message ?? error) }
	}
	self.postMessage(reply)
}
