/**
 * A local Asaas: the subset of API v3 the portal uses, in memory, with the same paths, headers, list envelope,
 * error body and status codes, webhook delivery like Asaas' (200 only, growing retries, interruption after 15
 * failures) and controls for tests and demos under /__standin/. `bun modules/asaas/standin.ts [--port 3301]`.
 *
 * One file per resource under standin/: customers.ts, payments.ts, installments.ts, webhooks.ts (configs, queue
 * and delivery), quota.ts, faults.ts (fault rules), pages.ts (the pages for people); create.ts assembles them and
 * the controls. Reality's awkward behaviours are switches (StandinModes in shared.ts): options.modes, setModes(),
 * POST /__standin/modes.
 */
import { startAsaasStandin } from './standin/create'

export { type AsaasStandin, createAsaasStandin, startAsaasStandin } from './standin/create'
export type { FailureRule } from './standin/faults'
export type { QuotaUse } from './standin/quota'
export {
	type AsaasStandinOptions,
	DEFAULT_MODES,
	type StandinAccount,
	type StandinModes,
	StandinRefusal
} from './standin/shared'
export type { DeliveryAttempt } from './standin/webhooks'

if (import.meta.main) {
	const arg = (name: string) => {
		const i = process.argv.indexOf(`--${name}`)
		return i > 0 ? process.argv[i + 1] : undefined
	}
	const keys = arg('keys')
	const standin = startAsaasStandin({
		port: Number(arg('port') ?? 3301),
		hostname: arg('host'),
		keys: keys ? keys.split(',') : 'any'
	})
	console.log(`Asaas local: API em ${standin.url} · cobranças em ${standin.origin}/`)
}
