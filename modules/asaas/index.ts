export { AsaasError, createAsaasClient, type AsaasClient, type AsaasClientOptions, type FetchLike } from './client'
export {
	createAsaasStandin,
	startAsaasStandin,
	StandinRefusal,
	type AsaasStandin,
	type AsaasStandinOptions,
	type DeliveryAttempt,
	type FailureRule,
	type StandinAccount,
	type StandinModes
} from './standin'
export { rehearsalLines, rehearseAsaas, SANDBOX_URL, sandboxRefusal, type RehearsalResult as AsaasRehearsalResult } from './rehearsal'
export * from './types'
