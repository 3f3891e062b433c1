import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { withoutTransactionCheck } from '../../db/transaction'
import { type AppContext, writeTransaction } from '../core/server'
import { type EvolutionClient, EvolutionError, createEvolutionClient, phoneKey, webhookPlan } from '../evolution'
import { type RehearsalResult, rehearseEvolution } from '../evolution'
import { getSetting, openSetting } from '../settings'
import type { GatewayStatus, TestSendResult } from './model'
import { ownSends } from './schema'

type Ctx = Pick<AppContext, 'db' | 'clock' | 'secrets' | 'gateways'>

/**
 * The portal's WhatsApp gateway as saved on the API tab; null until URL, key and instance are all filled in.
 * `instance` (a representative's own evo_instancia) replaces the portal's instance on the same server.
 */
export async function evolutionGateway(ctx: Ctx, options: { instance?: string | null } = {}): Promise<EvolutionClient | null> {
	const baseUrl = await getSetting(ctx.db, 'evolution_api_url')
	const instance = options.instance?.trim() || (await getSetting(ctx.db, 'evolution_instance_name'))
	const apiKey = await openSetting(ctx.db, ctx.secrets, 'evolution_api_key')
	if (!baseUrl || !instance || !apiKey) return null
	return recordingSends(ctx, createEvolutionClient({ baseUrl, apiKey, instance, fetch: ctx.gateways.evolution }))
}

/**
 * Every send of the portal, per database: the ids being written (written together on the next tick, so a burst of
 * bot replies costs one commit) and the sends under way per phone (Evolution may deliver a send's echo before the
 * send's own answer arrives).
 */
interface OwnSendLog {
	/** The ids the next write takes, and that write (every send of the batch waits for it). */
	batch: { ids: Set<string>; written: Promise<void> } | null
	/** Own sends whose echo (messages.upsert fromMe) came back, for the rehearsal; the newest 1,000. */
	echoed: Set<string>
	underway: Map<string, Set<Promise<unknown>>>
}
const ownSendLogs = new WeakMap<Db, OwnSendLog>()
function ownSendLog(db: Db): OwnSendLog {
	const log = ownSendLogs.get(db) ?? { batch: null, echoed: new Set(), underway: new Map() }
	ownSendLogs.set(db, log)
	return log
}

/**
 * Writes a send's id as the portal's own, with the other sends of the same moment; resolves once it is written, so
 * the echo, whichever instance it reaches, finds it (a failed write is not the send's failure).
 */
function remember({ db, clock }: Ctx, log: OwnSendLog, id: string): Promise<void> {
	if (!log.batch) {
		const ids = new Set<string>()
		// Outside any job's lease check: other flows' sends share the batch.
		const written = withoutTransactionCheck(
			() =>
				new Promise<void>((resolve, reject) =>
					setImmediate(async () => {
						log.batch = null
						const at = clock.now().toISOString()
						try {
							await writeTransaction(db, async (tx) => {
								for (const one of ids) await tx.insert(ownSends).values({ id: one, at }).onConflictDoNothing()
							})
							resolve()
						} catch (error) {
							reject(error)
						}
					})
				)
		)
		log.batch = { ids, written }
	}
	log.batch.ids.add(id)
	return log.batch.written
}

/** The client with its sends recorded as the portal's own: the one place every send (bot, notices, carnês, tests) passes. */
function recordingSends(ctx: Ctx, client: EvolutionClient): EvolutionClient {
	const log = ownSendLog(ctx.db)
	function recorded<A extends unknown[]>(send: (number: string, ...rest: A) => Promise<{ messageId: string }>) {
		return async (number: string, ...rest: A) => {
			const key = phoneKey(number)
			const running = send(number, ...rest)
			const sends = log.underway.get(key) ?? new Set()
			log.underway.set(key, sends.add(running))
			try {
				const sent = await running
				await remember(ctx, log, sent.messageId).catch(() => undefined)
				return sent
			} finally {
				sends.delete(running)
				if (sends.size === 0 && log.underway.get(key) === sends) log.underway.delete(key)
			}
		}
	}
	return {
		...client,
		sendText: recorded(client.sendText) as EvolutionClient['sendText'],
		sendDocument: recorded(client.sendDocument) as EvolutionClient['sendDocument']
	}
}

/**
 * True when `id` is one of the portal's own sends. A fromMe message to a phone the portal is sending to right now
 * waits for those sends first: its echo can arrive before the send's answer. With `wait: false` it answers at once,
 * from the sends known so far (the webhook, which must not wait for a send: a false there only means "not yet known").
 */
export async function isOwnSend(db: Db, phone: string, id: string, options: { wait?: boolean } = {}): Promise<boolean> {
	const log = ownSendLog(db)
	const underway = options.wait === false ? undefined : log.underway.get(phoneKey(phone))
	if (underway) await Promise.allSettled([...underway])
	const own = !!log.batch?.ids.has(id) || !!(await db.select({ id: ownSends.id }).from(ownSends).where(eq(ownSends.id, id)))[0]
	if (own) {
		log.echoed.add(id)
		if (log.echoed.size > 1000) log.echoed.delete(log.echoed.values().next().value as string)
	}
	return own
}

/** The Teste tab's "Ensaio completo": the rehearsal of check:evolution, with the gateway saved on the API tab. */
export async function rehearseGateway(ctx: Ctx & Pick<AppContext, 'config'>, phone: string, echoWaitMs = 4000): Promise<RehearsalResult> {
	const client = await evolutionGateway(ctx)
	if (!client) {
		const step = { step: 'Configuração', required: true, ok: false, answer: 'incompleta', note: NOT_CONFIGURED }
		return { ok: false, verdict: 'Reprovado: configure a Evolution API antes do ensaio.', steps: [step] }
	}
	const log = ownSendLog(ctx.db)
	const origin = ctx.config.publicOrigin
	return rehearseEvolution(client, {
		phone,
		webhookUrl: origin ? `${origin}/api/whatsapp/webhook` : null,
		// The gateway records the send as ours like every other; its echo, if any, reaches the bot's webhook.
		async echoSeen(id) {
			for (let waited = 0; waited < echoWaitMs && !log.echoed.has(id); waited += 100) await Bun.sleep(100)
			return log.echoed.has(id)
		}
	})
}

const NOT_CONFIGURED = 'Configure a URL, a chave e a instância da Evolution API na aba API.'

/** The badge of the API tab: connected when the instance's WhatsApp session is open. */
export async function gatewayStatus(ctx: Ctx): Promise<GatewayStatus> {
	const gateway = await evolutionGateway(ctx)
	if (!gateway) return { connected: false, status: 'nao_configurado', message: NOT_CONFIGURED }
	try {
		const { state } = await gateway.connectionState()
		// A version the portal cannot serve is said here, on the API tab, never left to fail silently.
		const plan = webhookPlan((await gateway.serverInfo()).version)
		const message = !plan.served ? plan.message : state === 'open' ? null : 'O WhatsApp da instância não está conectado.'
		return { connected: state === 'open', status: state, message }
	} catch (error) {
		if (error instanceof EvolutionError) return { connected: false, status: 'erro', message: error.message }
		throw error
	}
}

/** The Teste tab: one message through the gateway; a refusal is an answer, not an error. */
export async function sendTestMessage(ctx: Ctx, phone: string, message: string): Promise<TestSendResult> {
	const gateway = await evolutionGateway(ctx)
	if (!gateway) return { success: false, messageId: null, error: NOT_CONFIGURED }
	try {
		const sent = await gateway.sendText(phone, message)
		return { success: true, messageId: sent.messageId, error: null }
	} catch (error) {
		if (error instanceof EvolutionError) return { success: false, messageId: null, error: error.message }
		throw error
	}
}
