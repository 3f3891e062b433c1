/**
 * Webhooks of the Asaas stand-in: the configs (POST/GET/PUT/DELETE /v3/webhooks, removeBackoff) and delivery
 * like Asaas' (one FIFO per config, a failed head blocks the rest, 200 only counts, growing retries,
 * interruption after 15 failures).
 */
import type { FetchLike } from '../client'
import type { AsaasPayment, AsaasWebhook, PaymentEvent } from '../types'
import {
	dateTime,
	type Hook,
	type QueuedEvent,
	json,
	notFound,
	page,
	randomId,
	refuse,
	type Route,
	type StandinAccount,
	type StandinState,
	str
} from './shared'

export interface DeliveryAttempt {
	webhookId: string
	url: string
	eventId: string
	event: PaymentEvent
	paymentId: string
	/** 1 for the first try of this event (and of each repeat). */
	attempt: number
	/** 0 for the event itself, n for its n-th repeat (at-least-once delivery). */
	repeat: number
	/** null when no answer came (timeout, refused). */
	status: number | null
	error: string | null
	delivered: boolean
	headers: Record<string, string>
	at: string
}

const ASAAS_DELAYS_MS = [30, 60, 210, 300, 900, 1500, 3600, 3600, 3600, 3600, 3600, 7200, 7200, 10800].map((s) => s * 1000)
const INTERRUPT_AFTER = 15
const MAX_WEBHOOKS = 10

export function createWebhooks(
	state: StandinState,
	options: { fetch?: FetchLike; webhookRetryDelaysMs?: number[]; webhookTimeoutMs?: number }
) {
	const deliver: FetchLike = options.fetch ?? fetch
	const retryDelays = options.webhookRetryDelaysMs ?? ASAAS_DELAYS_MS
	const webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000
	const deliveries: DeliveryAttempt[] = []
	let paused = false
	let settledWaiters: (() => void)[] = []

	const repeatTimers = new Set<ReturnType<typeof setTimeout>>()

	const hooks = () => [...state.accounts.values()].flatMap((a) => [...a.webhooks.values()])
	const blocked = (h: Hook) => paused || h.config.interrupted || !h.config.enabled
	const idle = (h: Hook) => !h.busy && !h.scheduled && h.queue.every((i) => !i.busy || i.timer !== null)
	const waiting = (h: Hook) => h.timer !== null || h.queue.some((i) => i.timer !== null)
	const isSettled = () => repeatTimers.size === 0 && hooks().every((h) => idle(h) && (h.queue.length === 0 || (blocked(h) && !waiting(h))))
	function checkSettled() {
		if (!isSettled()) return
		const waiters = settledWaiters
		settledWaiters = []
		for (const w of waiters) w()
	}

	function emit(a: StandinAccount, event: PaymentEvent, payment: AsaasPayment) {
		const id = `evt_${randomId(32, '0123456789abcdef')}&${state.nextSeq()}`
		const body = JSON.stringify({ id, event, dateCreated: dateTime(state.now()), payment })
		for (const hook of a.webhooks.values()) {
			if (!hook.config.enabled || !hook.config.events.includes(event)) continue
			hook.queue.push({ id, event, paymentId: payment.id, body, attempts: 0, repeat: 0, busy: false, timer: null })
			if (hook.config.sendType === 'SEQUENTIALLY') void pump(hook)
			else if (!hook.scheduled) {
				// Events emitted together (a plan's parcels, CONFIRMED then RECEIVED) go out together, newest first.
				hook.scheduled = true
				setTimeout(() => {
					hook.scheduled = false
					void pump(hook)
				}, 0)
			}
		}
	}

	/** One POST of the event to the config's URL, recorded; true when it answered 200. */
	async function attempt(hook: Hook, item: QueuedEvent): Promise<boolean> {
		item.attempts++
		const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Asaas-Webhook/3.0 (stand-in)' }
		if (hook.authToken) headers['asaas-access-token'] = hook.authToken
		let status: number | null = null
		let error: string | null = null
		try {
			const res = await deliver(hook.config.url, {
				method: 'POST',
				headers,
				body: item.body,
				redirect: 'manual',
				signal: AbortSignal.timeout(webhookTimeoutMs)
			})
			status = res.status
			await res.arrayBuffer().catch(() => undefined)
		} catch (e) {
			error = e instanceof Error && e.name === 'TimeoutError' ? 'timeout' : String((e as Error)?.message ?? e)
		}
		const delivered = status === 200
		deliveries.push({
			webhookId: hook.config.id,
			url: hook.config.url,
			eventId: item.id,
			event: item.event,
			paymentId: item.paymentId,
			attempt: item.attempts,
			repeat: item.repeat,
			status,
			error,
			delivered,
			headers,
			at: new Date().toISOString()
		})
		return delivered
	}

	const retryDelay = (failures: number) => retryDelays[Math.min(failures, retryDelays.length) - 1] ?? 0

	/** At-least-once: a delivered event comes again later, behind what waits or after webhookRepeatDelayMs. */
	function repeatLater(hook: Hook, item: QueuedEvent) {
		if (item.repeat >= state.modes.webhookRepeats) return
		const again: QueuedEvent = { ...item, attempts: 0, repeat: item.repeat + 1, busy: false, timer: null }
		const delay = state.modes.webhookRepeatDelayMs
		if (delay <= 0) {
			hook.queue.push(again)
			return
		}
		const timer = setTimeout(() => {
			repeatTimers.delete(timer)
			if ([...state.accounts.values()].some((a) => a.webhooks.get(hook.config.id) === hook)) {
				hook.queue.push(again)
				void pump(hook)
			} else checkSettled()
		}, delay)
		repeatTimers.add(timer)
	}

	/** SEQUENTIALLY: one FIFO, a failed head blocks the rest. NON_SEQUENTIALLY: every waiting event at once, newest first. */
	async function pump(hook: Hook) {
		if (hook.config.sendType === 'NON_SEQUENTIALLY') return pumpAll(hook)
		if (hook.busy || hook.timer || blocked(hook) || hook.queue.length === 0) return checkSettled()
		hook.busy = true
		const item = hook.queue[0]
		const delivered = await attempt(hook, item)
		hook.busy = false
		// The config was deleted while this delivery ran.
		if (hook.queue[0] !== item) return checkSettled()
		if (delivered) {
			hook.queue.shift()
			hook.failures = 0
			repeatLater(hook, item)
		} else if (++hook.failures >= INTERRUPT_AFTER) {
			hook.config.interrupted = true
		} else {
			hook.timer = setTimeout(() => {
				hook.timer = null
				void pump(hook)
			}, retryDelay(hook.failures))
		}
		void pump(hook)
	}

	function pumpAll(hook: Hook) {
		if (blocked(hook)) return checkSettled()
		for (const item of [...hook.queue].reverse()) {
			if (item.busy) continue
			item.busy = true
			void attempt(hook, item).then((delivered) => {
				const index = hook.queue.indexOf(item)
				if (index < 0) return checkSettled()
				if (delivered) {
					hook.queue.splice(index, 1)
					hook.failures = 0
					repeatLater(hook, item)
				} else if (++hook.failures >= INTERRUPT_AFTER) {
					hook.config.interrupted = true
				} else {
					item.timer = setTimeout(() => {
						item.timer = null
						item.busy = false
						void pump(hook)
					}, retryDelay(item.attempts))
					return
				}
				item.busy = false
				void pump(hook)
			})
		}
		checkSettled()
	}

	function clearTimers(hook: Hook) {
		if (hook.timer) clearTimeout(hook.timer)
		hook.timer = null
		for (const item of hook.queue) {
			if (item.timer) clearTimeout(item.timer)
			if (item.timer) item.busy = false
			item.timer = null
		}
	}

	function resume(hook: Hook) {
		clearTimers(hook)
		void pump(hook)
	}

	function pauseDeliveries() {
		paused = true
		checkSettled()
		return paused
	}

	function resumeDeliveries() {
		paused = false
		for (const hook of hooks()) void pump(hook)
		return paused
	}

	// ── Configs ──

	const publicHook = (h: Hook): AsaasWebhook => ({ ...h.config, penalizedRequestsCount: h.failures > 0 ? h.queue.length : 0 })

	function hookFields(body: Record<string, unknown>, partial: boolean) {
		const out: Partial<Hook['config']> & { authToken?: string | null } = {}
		const has = (k: string) => body[k] !== undefined
		if (!partial || has('name')) out.name = str(body.name) ?? refuse('invalid_name', 'Informe o nome do webhook.')
		if (!partial || has('url')) {
			const url = str(body.url)
			if (!url || !/^https?:\/\/[^\s]+$/.test(url)) refuse('invalid_url', 'Informe uma URL válida (http ou https) para o webhook.')
			out.url = url as string
		}
		if (!partial || has('sendType')) {
			if (body.sendType !== 'SEQUENTIALLY' && body.sendType !== 'NON_SEQUENTIALLY') {
				refuse('invalid_sendType', 'Informe o tipo de envio: SEQUENTIALLY ou NON_SEQUENTIALLY.')
			}
			out.sendType = body.sendType as Hook['config']['sendType']
		}
		if (!partial || has('events')) {
			const events = body.events
			if (!Array.isArray(events) || events.length === 0 || !events.every((e) => typeof e === 'string' && /^[A-Z_]+$/.test(e))) {
				refuse('invalid_events', 'Informe ao menos um evento válido para o webhook.')
			}
			out.events = [...new Set(events as string[])]
		}
		if (has('email')) out.email = str(body.email)
		if (has('enabled')) out.enabled = body.enabled === true
		if (has('interrupted')) out.interrupted = body.interrupted === true
		if (has('authToken')) {
			const token = body.authToken
			if (token !== null && (typeof token !== 'string' || token.length < 32 || token.length > 255 || /\s/.test(token))) {
				refuse('invalid_authToken', 'O token de autenticação deve ter de 32 a 255 caracteres, sem espaços.')
			}
			out.authToken = (token as string | null) || null
		}
		if ((!partial || has('email')) && state.modes.webhookEmail === 'required' && !str(body.email)?.includes('@')) {
			refuse('invalid_email', 'Informe o e-mail que receberá os avisos de falha do webhook.')
		}
		return out
	}

	const findHook = (a: StandinAccount, id: string): Hook => a.webhooks.get(id) ?? notFound()

	const routes: Route[] = [
		['GET', /^\/webhooks$/, ({ a, query }) => json(page([...a.webhooks.values()].map(publicHook), query))],
		[
			'POST',
			/^\/webhooks$/,
			({ a, body }) => {
				if (a.webhooks.size >= MAX_WEBHOOKS) refuse('invalid_action', `A conta já tem o máximo de ${MAX_WEBHOOKS} webhooks.`)
				const { authToken = null, ...fields } = hookFields(body, false)
				const hook: Hook = {
					config: {
						object: 'webhook',
						id: crypto.randomUUID(),
						email: null,
						enabled: true,
						interrupted: false,
						apiVersion: 3,
						hasAuthToken: authToken !== null,
						...(fields as Pick<Hook['config'], 'name' | 'url' | 'sendType' | 'events'>)
					},
					authToken,
					queue: [],
					failures: 0,
					busy: false,
					timer: null,
					scheduled: false
				}
				a.webhooks.set(hook.config.id, hook)
				return json(publicHook(hook))
			}
		],
		['GET', /^\/webhooks\/([^/]+)$/, ({ a }, id) => json(publicHook(findHook(a, id)))],
		[
			'PUT',
			/^\/webhooks\/([^/]+)$/,
			({ a, body }, id) => {
				const hook = findHook(a, id)
				const { authToken, ...fields } = hookFields(body, true)
				const reactivated = hook.config.interrupted && fields.interrupted === false
				Object.assign(hook.config, fields)
				if (authToken !== undefined) {
					hook.authToken = authToken
					hook.config.hasAuthToken = authToken !== null
				}
				if (reactivated) {
					hook.failures = 0
					resume(hook)
				} else void pump(hook)
				return json(publicHook(hook))
			}
		],
		[
			'DELETE',
			/^\/webhooks\/([^/]+)$/,
			({ a }, id) => {
				const hook = findHook(a, id)
				clearTimers(hook)
				hook.queue.length = 0
				a.webhooks.delete(id)
				checkSettled()
				return json({ deleted: true, id })
			}
		],
		[
			'POST',
			/^\/webhooks\/([^/]+)\/removeBackoff$/,
			({ a }, id) => {
				const hook = findHook(a, id)
				hook.failures = 0
				resume(hook)
				return json(publicHook(hook))
			}
		]
	]

	return {
		emit,
		routes,
		/** Every delivery attempt, oldest first. */
		deliveries,
		pauseDeliveries,
		resumeDeliveries,
		/** Resolves when no delivery is running or waiting for a retry (queues are empty, paused or interrupted). */
		settled: () =>
			new Promise<void>((resolve) => {
				settledWaiters.push(resolve)
				checkSettled()
			}),
		/** Stops pending retries. */
		close() {
			for (const hook of hooks()) clearTimers(hook)
			for (const timer of repeatTimers) clearTimeout(timer)
			repeatTimers.clear()
		}
	}
}

export type StandinWebhooks = ReturnType<typeof createWebhooks>
