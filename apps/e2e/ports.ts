/**
 * Where the journeys' servers listen: the portal on E2E_PORT (the test command picks a free one) and, next to it,
 * the local stand-ins of Evolution and Asaas that serve.ts starts. Read by the config, serve.ts and the journeys.
 */
export const PORTAL_PORT = Number(process.env.E2E_PORT ?? 3217)
export const EVOLUTION_PORT = PORTAL_PORT + 1
export const ASAAS_PORT = PORTAL_PORT + 2
/** The Evolution stand-in's API key and instance, as the journeys type them into the API tab. */
export const EVOLUTION_KEY = 'evolution-e2e-key'
export const EVOLUTION_INSTANCE = 'k-licencas'
export const evolutionUrl = `http://127.0.0.1:${EVOLUTION_PORT}`
export const asaasUrl = `http://127.0.0.1:${ASAAS_PORT}/v3`
