/**
 * A local Evolution API in memory, as awkward as the real one by default: it echoes the portal's sends back as
 * messages.upsert fromMe, delivers webhooks concurrently (out of order) with retries, sends reactions, stickers,
 * audio and documents with large binary thumbnails, and plays 2.3.6, 2.1.1, 2.1.0, 2.0.10 or 1.8.6 (each takes only
 * its own webhook body). Parts: shared.ts (types, answer shapes), webhooks.ts (set/find and the delivery queue),
 * messages.ts (sends and what a phone sends), instances.ts (GET /, connection state, the API's routing), pages.ts
 * (the chat page and the /__standin controls).
 */
import { serveStandin } from '../../core/server'
import { phoneKey } from '../webhook'
import { createApi, createInstances } from './instances'
import { createMessages } from './messages'
import { createPages } from './pages'
import { type EvolutionStandinOptions, type Instance, type StandinState, createJid } from './shared'
import { createWebhookQueue } from './webhooks'

export * from './shared'
export { type InboundContent, inboundMessage } from './messages'
export { webhookDialect } from './webhooks'

/** The stand-in without a socket: `handle` answers a Request like the server does. */
export function createEvolutionStandin(options: EvolutionStandinOptions) {
	const version = options.version ?? '2.3.6'
	let seq = 0
	const instances = new Map<string, Instance>(
		(options.instances ?? ['k-licencas']).map((name) => [
			name,
			{ name, token: crypto.randomUUID().toUpperCase(), state: 'open', webhook: null }
		])
	)
	const first = () => [...instances.values()][0]
	const state: StandinState = {
		options,
		version,
		v1: version.startsWith('1.'),
		ownerJid: createJid(options.ownerPhone ?? '5585900000000'),
		instances,
		sent: [],
		inbound: [],
		deliveries: [],
		serverUrl: options.serverUrl ?? 'http://evolution.local',
		nextSeq: () => ++seq,
		instance: (name) => (name ? instances.get(name) : undefined) ?? first()
	}
	const queue = createWebhookQueue(state)
	const messages = createMessages(state, queue)
	const instanceControls = createInstances(state, queue)
	const api = createApi(state, queue, messages)
	const pages = createPages(state, messages, instanceControls)
	let delayMs = 0

	async function handle(req: Request): Promise<Response> {
		const url = new URL(req.url)
		if (url.pathname.startsWith('/__standin/')) return pages.controls(req, url)
		if (url.pathname === '/' && req.method === 'GET') {
			if (req.headers.get('accept')?.includes('text/html')) return pages.chatPage()
			return instanceControls.welcome(url.origin)
		}
		const res = await api(req, url.pathname)
		if (delayMs > 0) {
			// Applied already: the answer is what comes late.
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(resolve, delayMs)
				const abort = () => {
					clearTimeout(timer)
					reject(req.signal.reason)
				}
				req.signal.addEventListener('abort', abort, { once: true })
			})
		}
		return res
	}

	const standin = {
		get serverUrl() {
			return state.serverUrl
		},
		set serverUrl(url: string) {
			state.serverUrl = url
		},
		handle,
		version,
		instances,
		/** Every message the portal sent, oldest first. */
		sent: state.sent,
		/** Every message written as a client's phone. */
		inbound: state.inbound,
		/** Every delivery attempt, in the order they finished (retries and duplicates included). */
		deliveries: state.deliveries,
		/** Numbers (any spelling) whose sends fail with exists: false. */
		withoutWhatsapp: {
			add: (number: string) => messages.withoutWhatsapp.add(phoneKey(number)),
			delete: (number: string) => messages.withoutWhatsapp.delete(phoneKey(number))
		},
		deliverInbound: messages.deliverInbound,
		setConnectionState: instanceControls.setConnectionState,
		/** Every API answer (the change already applied) waits this long (0 = none), to make a client time out. */
		delayResponses(ms: number) {
			delayMs = ms
		},
		/** Deliver the portal's own sends back as messages.upsert fromMe (Evolution issue #1340), from now on. */
		echoOwnSends(on: boolean) {
			options.echoOwnSendsAsUpsert = on
		},
		/** Resolves once every delivery started so far (retries and duplicates included) has finished. */
		settled: queue.settled
	}
	return standin
}

export type EvolutionStandin = ReturnType<typeof createEvolutionStandin>

export function startEvolutionStandin(options: EvolutionStandinOptions & { port?: number; hostname?: string }) {
	const standin = createEvolutionStandin(options)
	const server = serveStandin(standin.handle, options)
	standin.serverUrl = server.url.origin
	return Object.assign(standin, {
		url: server.url.origin,
		stop: () => server.stop(true)
	})
}
