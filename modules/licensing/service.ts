import { type AppContext, SharedCounter, tooManyRequests } from '../core/server'
import { createLicenceEvaluator, evaluateToJson, FAILURE_WINDOW_MS, FAILURES_PER_WINDOW } from './check'
import { LicenceCheckPool, workerDatabase } from './check-pool'
import type { LicenceCheckBody } from './model'

/**
 * The endpoint the five desktop systems call. One instance per app: it counts the wrong keys per address (together
 * with the other portal instances: SharedCounter), and hands the checks to `config.licenceWorkers` worker threads
 * (signing is the costly part, and it then uses the other cores), or answers them in this thread when there are
 * none, when the SQLite database lives in memory, or while a worker is being replaced.
 */
export async function createLicenceService(ctx: AppContext) {
	const evaluator = await createLicenceEvaluator(ctx)
	const database = workerDatabase(ctx.db)
	const pool =
		ctx.config.licenceWorkers > 0 && database
			? new LicenceCheckPool({ database, config: ctx.config }, ctx.config.licenceWorkers, ctx.log, ctx.clock)
			: null
	const failuresByIp = new SharedCounter(ctx.db, 'licence-wrong-key', FAILURE_WINDOW_MS, FAILURES_PER_WINDOW, ctx.clock.now().getTime())

	/** Answers a check with JSON text; `ip` is asked for only when the key is wrong (it costs a system call). */
	async function check(input: LicenceCheckBody, ip: () => string): Promise<string> {
		const result = (await pool?.run(input)) ?? (await evaluateToJson(evaluator, input))
		ctx.metrics.licenceCheck(result.status)
		// Only wrong keys are slowed down per address: machines with the right key at the same site keep working.
		if (result.status === 'chave_invalida' && failuresByIp.hit(ip(), ctx.clock.now().getTime())) {
			throw tooManyRequests('Muitas tentativas com chave inválida. Aguarde alguns minutos.', FAILURE_WINDOW_MS / 1000)
		}
		return result.json
	}

	return {
		check,
		publicKey: evaluator.publicKey,
		async flushUsage() {
			await evaluator.flushUsage()
			pool?.flushUsage()
		},
		close() {
			pool?.close()
		}
	}
}
export type LicenceService = Awaited<ReturnType<typeof createLicenceService>>
