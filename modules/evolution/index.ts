export {
	createEvolutionClient,
	EvolutionError,
	type EvolutionClient,
	type EvolutionClientOptions,
	type EvolutionErrorCode,
	type SentMessage,
	type WebhookSettings
} from './client'
export {
	createEvolutionStandin,
	createJid,
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
