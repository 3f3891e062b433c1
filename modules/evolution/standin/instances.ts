/**
 * The stand-in's instances and server: the welcome at GET / (which reports the version), the connection state and
 * its connection.update events, and the routing of the API to messages and webhooks.
 */
import type { ConnectionState } from '../webhook'
import { type Instance, type StandinState, failure, json, badRequest, record } from './shared'
import type { createMessages } from './messages'
import type { createWebhookQueue } from './webhooks'

export function createInstances(state: StandinState, queue: ReturnType<typeof createWebhookQueue>) {
	function setConnectionState(to: ConnectionState, name?: string) {
		const i = state.instance(name)
		i.state = to
		const open = to === 'open' ? { wuid: state.ownerJid, profileName: 'K-Licenças' } : {}
		return queue.post(i, 'connection.update', { instance: i.name, state: to, statusReason: to === 'open' ? 200 : 428, ...open })
	}

	/** GET /: Evolution's welcome, with the version the stand-in plays. */
	function welcome(origin: string) {
		const links = { manager: `${origin}/manager`, documentation: 'https://doc.evolution-api.com' }
		const message = 'Welcome to the Evolution API, it is working!'
		return json(
			state.v1
				? { status: 200, message, version: state.version, swagger: `${origin}/docs`, ...links }
				: {
						status: 200,
						message,
						version: state.version,
						clientName: 'evolution_standin',
						...links,
						whatsappWebVersion: '2.3000.1023204200'
					}
		)
	}

	return { setConnectionState, welcome }
}

/** The API: apikey, route, instance, then the resource. */
export function createApi(state: StandinState, queue: ReturnType<typeof createWebhookQueue>, messages: ReturnType<typeof createMessages>) {
	return async function api(req: Request, path: string): Promise<Response> {
		if (req.headers.get('apikey') !== state.options.apiKey) return failure(401, 'Unauthorized', 'Unauthorized')
		const m = /^\/(message\/sendText|message\/sendMedia|instance\/connectionState|webhook\/set|webhook\/find)\/([^/]+)$/.exec(path)
		if (!m) return failure(404, 'Not Found', [`Cannot ${req.method} ${path}`])
		const name = decodeURIComponent(m[2])
		const i: Instance | undefined = state.instances.get(name)
		if (!i) return failure(404, 'Not Found', [`The "${name}" instance does not exist`])
		const route = `${req.method} ${m[1]}`
		if (route === 'GET instance/connectionState') return json({ instance: { instanceName: i.name, state: i.state } })
		if (route === 'GET webhook/find') return json(queue.findWebhook(i))
		let body: Record<string, unknown> | null = null
		try {
			body = record(await req.json())
		} catch {}
		if (!body) return badRequest('The request body must be a JSON object')
		if (route === 'POST message/sendText') return messages.send(i, 'text', body)
		if (route === 'POST message/sendMedia') return messages.send(i, 'media', body)
		if (route === 'POST webhook/set') return queue.setWebhook(i, body)
		return failure(404, 'Not Found', [`Cannot ${req.method} ${path}`])
	}
}
