/**
 * The Asaas stand-in assembled: the /v3 API (key and User-Agent checks, fault rules, the resources' routes), the
 * /__standin/ controls, the pages, and the in-process handle tests use.
 */
import { serveStandin } from '../../core/server'
import { customerRoutes } from './customers'
import { createFaults, type FailureRule } from './faults'
import { createInstallments } from './installments'
import { publicPage } from './pages'
import { createPayments } from './payments'
import { createQuota } from './quota'
import {
	type AsaasStandinOptions,
	DEFAULT_MODES,
	errorBody,
	json,
	type Route,
	type StandinAccount,
	type StandinModes,
	StandinRefusal,
	type StandinState
} from './shared'
import { walletRoutes } from './wallets'
import { createWebhooks } from './webhooks'

/** The stand-in without a socket: `handle` answers a Request like the server does. */
export function createAsaasStandin(options: AsaasStandinOptions = {}) {
	const keys = options.keys ?? 'any'
	let seq = 0
	const state: StandinState = {
		now: options.now ?? (() => new Date()),
		modes: { ...DEFAULT_MODES, ...options.modes },
		accounts: new Map(),
		tokens: new Map(),
		nextSeq: () => ++seq
	}
	const account = (key: string) => {
		let a = state.accounts.get(key)
		if (!a) {
			a = {
				key,
				customers: new Map(),
				payments: new Map(),
				installments: new Map(),
				webhooks: new Map(),
				pixKey: null,
				quota: null
			}
			state.accounts.set(key, a)
		}
		return a
	}
	if (keys !== 'any') for (const key of keys) account(key)
	const accepts = (key: string) => (keys === 'any' ? key.startsWith('$aact_') : keys.includes(key))

	const faults = createFaults(() => state.modes.quotaLimit)
	const quota = createQuota(state)
	const webhooks = createWebhooks(state, options)
	const payments = createPayments(state, webhooks)
	const installments = createInstallments(state, payments)
	const routes: Route[] = [
		...customerRoutes(state),
		...payments.routes((a, origin, body, ref) => installments.addInstallment(a, origin, body, ref).parcels),
		...installments.routes,
		...webhooks.routes,
		...walletRoutes(state)
	]

	async function api(req: Request, url: URL): Promise<Response> {
		const path = url.pathname.slice(3)
		const key = req.headers.get('access_token') ?? ''
		if (!key || !accepts(key)) return errorBody(401, 'invalid_access_token', 'A chave de API fornecida é inválida.')
		if (!req.headers.get('user-agent')) return errorBody(400, 'invalid_user_agent', 'O header User-Agent é obrigatório.')
		if (!state.modes.countQuota) return answer(req, url, path, key)
		const { headers, refused } = quota.count(account(key))
		const res = refused ?? (await answer(req, url, path, key))
		for (const [name, value] of Object.entries(headers)) if (!res.headers.has(name)) res.headers.set(name, value)
		return res
	}

	async function answer(req: Request, url: URL, path: string, key: string): Promise<Response> {
		const rule = faults.take(req.method, path)
		const early = await faults.before(rule, req)
		if (early) return early

		let body: Record<string, unknown> = {}
		if (req.method === 'POST' || req.method === 'PUT') {
			const text = await req.text()
			try {
				body = text ? JSON.parse(text) : {}
			} catch {
				return errorBody(400, 'invalid_object', 'O corpo da requisição não é um JSON válido.')
			}
			if (typeof body !== 'object' || body === null || Array.isArray(body))
				return errorBody(400, 'invalid_object', 'O corpo da requisição deve ser um objeto JSON.')
		}
		let res: Response | null = null
		for (const [method, pattern, handler] of routes) {
			const m = req.method === method ? pattern.exec(path) : null
			if (!m) continue
			try {
				res = await handler({ a: account(key), origin: url.origin, query: url.searchParams, body }, ...m.slice(1).map(decodeURIComponent))
			} catch (e) {
				if (!(e instanceof StandinRefusal)) throw e
				res = e.httpStatus === 404 ? new Response(null, { status: 404 }) : errorBody(e.httpStatus, e.code, e.message)
			}
			break
		}
		return faults.after(rule, req, res ?? new Response(null, { status: 404 }))
	}

	async function controls(req: Request, path: string): Promise<Response> {
		const action = /^\/payments\/([^/]+)\/(confirm|overdue|chargeback)$/.exec(path)
		if (req.method === 'POST' && action) {
			const fromForm = req.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')
			try {
				const { a, p } = payments.anyPayment(decodeURIComponent(action[1]))
				const result = payments[action[2] as 'confirm'](a, p)
				return fromForm ? Response.redirect(req.headers.get('referer') ?? '/', 303) : json(result)
			} catch (e) {
				if (!(e instanceof StandinRefusal)) throw e
				return fromForm ? new Response(e.message, { status: e.httpStatus }) : errorBody(e.httpStatus, e.code, e.message)
			}
		}
		if (path === '/modes') {
			if (req.method === 'POST') setModes((await req.json()) as Partial<StandinModes>)
			return json(state.modes)
		}
		if (req.method === 'POST' && path === '/pix-keys') {
			const { apiKey, pixKey } = (await req.json()) as { apiKey?: string; pixKey?: string }
			if (typeof apiKey !== 'string' || !accepts(apiKey)) return errorBody(400, 'invalid_access_token', 'Chave de API desconhecida.')
			return json({ pixKey: registerPixKey(apiKey, pixKey) })
		}
		if (req.method === 'GET' && path === '/quota') {
			return json(Object.fromEntries([...state.accounts.values()].map((a) => [a.key, quota.use(a)])))
		}
		if (req.method === 'POST' && path === '/fail') {
			faults.add((await req.json()) as FailureRule)
			return json({ ok: true })
		}
		if (req.method === 'POST' && path === '/deliveries/pause') return json({ paused: webhooks.pauseDeliveries() })
		if (req.method === 'POST' && path === '/deliveries/resume') return json({ paused: webhooks.resumeDeliveries() })
		if (req.method === 'GET' && path === '/deliveries') return json(webhooks.deliveries)
		return new Response(null, { status: 404 })
	}

	/** Changes modes at runtime; unknown names and values of the wrong type are ignored. */
	function setModes(changes: Partial<StandinModes>) {
		for (const [name, value] of Object.entries(changes ?? {}) as [keyof StandinModes, unknown][]) {
			if (name in DEFAULT_MODES && typeof value === typeof DEFAULT_MODES[name]) Object.assign(state.modes, { [name]: value })
		}
		return { ...state.modes }
	}

	/** Registers a Pix key on the account of `apiKey` (a random key when none is given). */
	function registerPixKey(apiKey: string, pixKey: string = crypto.randomUUID()) {
		account(apiKey).pixKey = pixKey
		return pixKey
	}

	async function handle(req: Request): Promise<Response> {
		payments.tick()
		const url = new URL(req.url)
		const path = url.pathname
		if (path === '/v3' || path.startsWith('/v3/')) return api(req, url)
		if (path.startsWith('/__standin/')) return controls(req, path.slice('/__standin'.length))
		if (req.method !== 'GET') return new Response(null, { status: 404 })
		return publicPage(state, path)
	}

	/** The in-process controls act on a payment of any account. */
	const onPayment =
		<T>(act: (a: StandinAccount, p: ReturnType<typeof payments.anyPayment>['p']) => T) =>
		(paymentId: string) => {
			const { a, p } = payments.anyPayment(paymentId)
			return act(a, p)
		}

	return {
		handle,
		/** Every account by API key, with its customers, payments, installments and webhook configs (and their queues). */
		accounts: state.accounts,
		/** Every delivery attempt, oldest first. */
		deliveries: webhooks.deliveries,
		/** Pays a charge of any account, like the sandbox control (PIX → RECEIVED; BOLETO → CONFIRMED, RECEIVED; card → CONFIRMED). */
		confirm: onPayment(payments.confirm),
		overdue: onPayment(payments.overdue),
		chargeback: onPayment(payments.chargeback),
		/** A chargeback dispute won (AWAITING_CHARGEBACK_REVERSAL, PAYMENT_AWAITING_CHARGEBACK_REVERSAL). */
		chargebackWon: onPayment(payments.chargebackWon),
		failNext: (rule: FailureRule) => {
			faults.add(rule)
		},
		/** The current modes, and a way to change them (same as POST /__standin/modes). */
		modes: () => ({ ...state.modes }),
		setModes,
		registerPixKey,
		/** An account's use of the quota in the current window (same as GET /__standin/quota, which lists every account). */
		quota: (apiKey: string) => quota.use(account(apiKey)),
		/** Applies what the clock says has happened (OVERDUE the day after the due date); every request does it too. */
		tick: () => payments.tick(),
		pauseDeliveries: webhooks.pauseDeliveries,
		resumeDeliveries: webhooks.resumeDeliveries,
		settled: webhooks.settled,
		close: webhooks.close
	}
}

export type AsaasStandin = ReturnType<typeof createAsaasStandin>

/** The stand-in on a socket. `url` is the API base (…/v3) for createAsaasClient. */
export function startAsaasStandin(options: AsaasStandinOptions & { port?: number; hostname?: string } = {}) {
	const standin = createAsaasStandin(options)
	const server = serveStandin(standin.handle, options)
	const origin = server.url.origin
	// A stand-in nobody calls still turns charges overdue as the days pass.
	const ticker = setInterval(standin.tick, 60_000)
	ticker.unref()
	return {
		...standin,
		origin,
		url: `${origin}/v3`,
		async stop() {
			clearInterval(ticker)
			standin.close()
			await server.stop(true)
		}
	}
}
