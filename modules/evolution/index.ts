export {
	createEvolutionClient,
	EvolutionError,
	type EvolutionClient,
	type EvolutionClientOptions,
	type EvolutionErrorCode,
	type SentMessage,
	type WebhookPlan,
	type WebhookSettings,
	webhookBody,
	webhookPlan
} from './client'
export {
	createEvolutionStandin,
	createJid,
	STANDIN_VERSIONS,
	type StandinVersion,
	startEvolutionStandin,
	type EvolutionStandin,
	type EvolutionStandinOptions,
	type InboundContent,
	type InboundRecord,
	type SentRecord,
	type WebhookDelivery
} from './standin'
export {
	normaliseBrazilianPhone,
	parseEvolutionEvent,
	phoneKey,
	samePhone,
	withoutBinaryFields,
	type ConnectionState,
	type EvolutionEvent
} from './webhook'
export { rehearsalLines, rehearseEvolution, type RehearsalResult } from './rehearsal'
