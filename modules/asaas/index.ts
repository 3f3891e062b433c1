export { AsaasError, createAsaasClient, type AsaasClient, type AsaasClientOptions, type FetchLike } from './client'
export {
	createAsaasStandin,
	startAsaasStandin,
	StandinRefusal,
	type AsaasStandin,
	type AsaasStandinOptions,
	type DeliveryAttempt,
	type FailureRule,
	type StandinAccount
} from './standin'
export * from './types'
