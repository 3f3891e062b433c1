/**
 * The stand-in's webhooks: set and read back in the body each version takes, and the delivery queue. Deliveries
 * behave like Evolution's: each event is posted on its own (concurrently, so they arrive out of order), a failure
 * is retried (2.3.x drops a 400/401/403/404/422 answer, older versions retry anything), and a switch delivers
 * every event twice (an answer lost after the portal took it).
 */
import type { FetchLike } from '../client'
import { type Instance, type StandinState, type WebhookDelivery, badRequest, json, record } from './shared'

/** How the version takes its webhook: 1.8 v1 snake_case flat; 2.0.x camelCase flat; 2.1.0 nested without headers. */
export function webhookDialect(version: string): 'v1' | 'flat' | 'nested-no-headers' | 'nested' {
	const [major, minor, patch] = version.split('.').map(Number)
	if (major === 1) return 'v1'
	if (major === 2 && minor === 0) return 'flat'
	if (major === 2 && minor === 1 && patch === 0) return 'nested-no-headers'
	return 'nested'
}

const NO_RETRY_23 = [400, 401, 403, 404, 422]

export function createWebhookQueue(state: StandinState) {
	const { options } = state
	const deliver: FetchLike = options.fetch ?? fetch
	const dialect = webhookDialect(state.version)
	const retryDelays = options.webhookRetryDelaysMs ?? [20, 40, 80]
	const dropsClientErrors = state.version.startsWith('2.3')
	const running = new Set<Promise<unknown>>()

	const subscribed = (i: Instance, event: string) =>
		!!i.webhook?.enabled && (i.webhook.events.length === 0 || i.webhook.events.includes(event.toUpperCase().replace(/\./g, '_')))

	async function attempt(url: string, headers: Record<string, string>, body: string, event: string, n: number) {
		const delivery: WebhookDelivery = { event, url, status: null, error: null, attempt: n, at: new Date().toISOString() }
		try {
			const res = await deliver(url, {
				method: 'POST',
				headers: { ...headers, 'content-type': 'application/json' },
				body,
				signal: AbortSignal.timeout(30_000)
			})
			delivery.status = res.status
			await res.arrayBuffer().catch(() => undefined)
		} catch (e) {
			delivery.error = String((e as Error)?.message ?? e)
		}
		state.deliveries.push(delivery)
		return delivery
	}

	/** One event to one instance's webhook: posted after a random wait, retried on failure; the first try's outcome. */
	function post(i: Instance, event: string, data: unknown): Promise<WebhookDelivery | null> {
		if (!subscribed(i, event) || !i.webhook) return Promise.resolve(null)
		const hook = i.webhook
		const body = JSON.stringify({
			event,
			instance: i.name,
			data,
			destination: hook.url,
			date_time: new Date().toISOString(),
			sender: state.ownerJid,
			server_url: state.serverUrl,
			apikey: i.token
		})
		const jitter = options.deliveryJitterMs ?? 8
		const once = async (): Promise<WebhookDelivery> => {
			if (jitter > 0) await Bun.sleep(Math.random() * jitter)
			let delivery = await attempt(hook.url, hook.headers, body, event, 1)
			const first = delivery
			for (let n = 0; n < retryDelays.length; n++) {
				const ok = delivery.status !== null && delivery.status < 300
				if (ok || (dropsClientErrors && NO_RETRY_23.includes(delivery.status ?? 0))) break
				await Bun.sleep(retryDelays[n])
				delivery = await attempt(hook.url, hook.headers, body, event, n + 2)
			}
			return first
		}
		const track = <T>(p: Promise<T>) => {
			running.add(p)
			void p.finally(() => running.delete(p))
			return p
		}
		const first = track(once())
		if (options.duplicateDeliveries) track(first.then(() => once()))
		return first
	}

	/** Resolves once every delivery (retries and duplicates included) started so far has finished. */
	async function settled(): Promise<void> {
		while (running.size > 0) await Promise.allSettled([...running])
	}

	function findWebhook(i: Instance) {
		const w = i.webhook
		if (dialect === 'v1')
			return {
				enabled: w?.enabled ?? false,
				url: w?.url ?? '',
				events: w?.events ?? [],
				webhook_by_events: w?.byEvents ?? false,
				webhook_base64: w?.base64 ?? false
			}
		if (!w) return null
		return {
			id: i.token,
			url: w.url,
			...(dialect === 'nested' ? { headers: w.headers } : {}),
			enabled: w.enabled,
			events: w.events,
			webhookByEvents: w.byEvents,
			webhookBase64: w.base64,
			instanceId: i.token
		}
	}

	/** POST /webhook/set: only the body this version takes. */
	function setWebhook(i: Instance, body: Record<string, unknown>) {
		const flat = dialect === 'v1' || dialect === 'flat'
		const w = flat ? body : record(body.webhook)
		const at = flat ? 'instance' : 'instance.webhook'
		if (!w) return badRequest('instance requires property "webhook"')
		if (typeof w.enabled !== 'boolean') return badRequest(`${at} requires property "enabled"`)
		if (typeof w.url !== 'string' || !/^https?:\/\/\S+$/.test(w.url)) return badRequest('Invalid "url" property')
		const events = w.events ?? []
		if (!Array.isArray(events) || !events.every((e) => typeof e === 'string' && /^[A-Z_]+$/.test(e))) {
			return badRequest(`${at}.events is not one of enum values`)
		}
		// 2.1.0 and older have no headers: whatever was sent is dropped.
		const headers = dialect === 'nested' ? (record(w.headers) ?? {}) : {}
		const [byEvents, base64] =
			dialect === 'v1'
				? [w.webhook_by_events, w.webhook_base64]
				: dialect === 'flat'
					? [w.webhookByEvents, w.webhookBase64]
					: [w.byEvents, w.base64]
		i.webhook = {
			enabled: w.enabled,
			url: w.url,
			headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
			events: events as string[],
			byEvents: byEvents === true,
			base64: base64 === true
		}
		return json(dialect === 'v1' ? { webhook: { instanceName: i.name, webhook: findWebhook(i) } } : findWebhook(i), 201)
	}

	return { post, settled, setWebhook, findWebhook, dialect }
}
