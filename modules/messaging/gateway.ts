import { type EvolutionClient, EvolutionError, createEvolutionClient } from '../evolution'
import type { AppContext } from '../core/server'
import { getSetting, openSetting } from '../settings'
import type { GatewayStatus, TestSendResult } from './model'

type Ctx = Pick<AppContext, 'db' | 'secrets' | 'gateways'>

/**
 * The portal's WhatsApp gateway as saved on the API tab; null until URL, key and instance are all filled in.
 * `instance` (a representative's own evo_instancia) replaces the portal's instance on the same server.
 */
export function evolutionGateway(ctx: Ctx, options: { instance?: string | null } = {}): EvolutionClient | null {
	const baseUrl = getSetting(ctx.db, 'evolution_api_url')
	const instance = options.instance?.trim() || getSetting(ctx.db, 'evolution_instance_name')
	const apiKey = openSetting(ctx.db, ctx.secrets, 'evolution_api_key')
	if (!baseUrl || !instance || !apiKey) return null
	return createEvolutionClient({ baseUrl, apiKey, instance, fetch: ctx.gateways.evolution })
}

const NOT_CONFIGURED = 'Configure a URL, a chave e a instância da Evolution API na aba API.'

/** The badge of the API tab: connected when the instance's WhatsApp session is open. */
export async function gatewayStatus(ctx: Ctx): Promise<GatewayStatus> {
	const gateway = evolutionGateway(ctx)
	if (!gateway) return { connected: false, status: 'nao_configurado', message: NOT_CONFIGURED }
	try {
		const { state } = await gateway.connectionState()
		return { connected: state === 'open', status: state, message: state === 'open' ? null : 'O WhatsApp da instância não está conectado.' }
	} catch (error) {
		if (error instanceof EvolutionError) return { connected: false, status: 'erro', message: error.message }
		throw error
	}
}

/** The Teste tab: one message through the gateway; a refusal is an answer, not an error. */
export async function sendTestMessage(ctx: Ctx, phone: string, message: string): Promise<TestSendResult> {
	const gateway = evolutionGateway(ctx)
	if (!gateway) return { success: false, messageId: null, error: NOT_CONFIGURED }
	try {
		const sent = await gateway.sendText(phone, message)
		return { success: true, messageId: sent.messageId, error: null }
	} catch (error) {
		if (error instanceof EvolutionError) return { success: false, messageId: null, error: error.message }
		throw error
	}
}
