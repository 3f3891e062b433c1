import { expect } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import { createTestDb } from '../../db/testing'
import { withoutTransactionCheck } from '../../db/transaction'
import { activities } from '../../modules/activity'
import { hashPassword, users } from '../../modules/auth'
import { companies } from '../../modules/companies'
import { type ContractsOf, type ResponseOf, type Role, completeCnpj, fixedClock } from '../../modules/core'
import { createAsaasStandin, type StandinModes } from '../../modules/asaas'
import type { PaymentEventHandler } from '../../modules/billing'
import { type AppConfig, type AppContext, Metrics, createSecretBox, testConfig } from '../../modules/core/server'
import { type EvolutionStandinOptions, createEvolutionStandin } from '../../modules/evolution'
import { runJob } from '../../modules/jobs'
import { representatives } from '../../modules/resellers'
import type * as authModel from '../../modules/auth/model'
import type * as billingModel from '../../modules/billing/model'
import type * as botModel from '../../modules/bot/model'
import type * as companiesModel from '../../modules/companies/model'
import type * as creditsModel from '../../modules/credits/model'
import type * as downloadsModel from '../../modules/downloads/model'
import type * as licensingModel from '../../modules/licensing/model'
import type * as messagingModel from '../../modules/messaging/model'
import type * as reportsModel from '../../modules/reports/model'
import type * as resellersModel from '../../modules/resellers/model'
import type * as systemModel from '../../modules/system/model'
import type * as terminalsModel from '../../modules/terminals/model'
import type * as usersModel from '../../modules/users/model'
import { appJobs, createApp, createServices } from './app'
import type { Site } from './plugins/pages'

/** Every route of the portal, by its contract (each module's model.ts). */
type PortalContract =
	| ContractsOf<typeof authModel>
	| ContractsOf<typeof billingModel>
	| ContractsOf<typeof botModel>
	| ContractsOf<typeof companiesModel>
	| ContractsOf<typeof creditsModel>
	| ContractsOf<typeof downloadsModel>
	| ContractsOf<typeof licensingModel>
	| ContractsOf<typeof messagingModel>
	| ContractsOf<typeof reportsModel>
	| ContractsOf<typeof resellersModel>
	| ContractsOf<typeof systemModel>
	| ContractsOf<typeof terminalsModel>
	| ContractsOf<typeof usersModel>

/** A path's segments: '/api/companies/5' → ['', 'api', 'companies', '5']. */
type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [P]

/** Whether an address's segments fit a route's: a `:param` takes any one segment, every other must be equal. */
type Fits<A extends string[], R extends string[]> = A extends [infer a extends string, ...infer as extends string[]]
	? R extends [infer r extends string, ...infer rs extends string[]]
		? (r extends `:${string}` ? true : a extends r ? true : false) extends true
			? Fits<as, rs>
			: false
		: false
	: R extends []
		? true
		: false

/** The contracts among `C` of the routes of `method` whose path `path` fits (one by one: C is a union). */
type Fitting<C, M extends string, P extends string> = C extends { method: M; path: infer R extends string }
	? Fits<Segments<P>, Segments<R>> extends true
		? C
		: never
	: never

type PathOf<A extends string> = A extends `${infer Path}?${string}` ? Path : A

/** The contracts of the routes that answer `method` at an address: the route of that exact path, else those it fits. */
type RoutesAt<M extends string, A extends string> = [Extract<PortalContract, { method: M; path: PathOf<A> }>] extends [never]
	? Fitting<PortalContract, M, PathOf<A>>
	: Extract<PortalContract, { method: M; path: PathOf<A> }>

/** The answer of a refused request, of every route (DESIGN.md: `{ message, code? }`). */
export interface ErrorAnswer {
	message: string
	code?: string
}

/** The body of a refused request, read as one (the test has checked the status): for a whole-body comparison or an unknown address. */
export function refusalOf(answer: { json: unknown }): ErrorAnswer {
	return answer.json as ErrorAnswer
}

/** A route's answer, with the error's fields it does not have itself (a refusal answers those instead). */
type OrRefusal<R> = R extends object ? R & Partial<Omit<ErrorAnswer, keyof R>> : R

/**
 * What a test reads in an answer's JSON: the route's answer as its contract declares it (with the error's fields,
 * which a refusal has instead), or `unknown` for an address no contract answers (the test says what it expects).
 */
export type AnswerAt<M extends string, A extends string> = [RoutesAt<M, A>] extends [never]
	? unknown
	: OrRefusal<ResponseOf<RoutesAt<M, A>>>

export const TEST_ORIGIN = 'http://localhost'

/** The error `promise` fails with, checked to be an `ErrorClass` (a gateway client's error); the test fails if it succeeds. */
export async function rejection<E extends Error>(promise: Promise<unknown>, ErrorClass: new (...args: never[]) => E): Promise<E> {
	try {
		await promise
	} catch (e) {
		expect(e).toBeInstanceOf(ErrorClass)
		return e as E
	}
	throw new Error('expected the call to fail')
}

/** The Evolution stand-in's API key in tests. */
export const EVOLUTION_TEST_KEY = 'evolution-test-key'

/**
 * An isolated portal on an in-memory database (or `dbFile`) with a clock that only moves when told, whose
 * gateways are in-process stand-ins of Asaas and Evolution (`t.asaas`, `t.evolution`): the portal's real
 * clients talk to them, and their webhooks come back into this app.
 */
export async function createTestApp(
	options: {
		config?: Partial<AppConfig>
		now?: string
		dbFile?: string
		paymentHandlers?: PaymentEventHandler[]
		/** The Evolution stand-in's switches (e.g. the version it plays). */
		evolution?: Partial<EvolutionStandinOptions>
		/** The built pages to serve (plugins/pages.ts loadSite); none: the API alone. */
		site?: Site
	} = {}
) {
	const db = await createTestDb(options.dbFile)
	const clock = fixedClock(options.now ?? '2026-11-20T12:00:00.000Z')
	const logs: { event: string; fields?: Record<string, unknown> }[] = []
	// Each app gets its own data folder, so backups and uploads of one test never meet another's.
	const dataDir = mkdtempSync(join(tmpdir(), 'kportal-test-'))
	const config = testConfig({ dataDir, ...options.config })
	// Deliveries from the stand-ins reach this app in process (the app is built just below), each a request of its own
	// as over the network: not part of the leased job whose send set it off.
	const toPortal = (url: string, init: RequestInit) => withoutTransactionCheck(() => app.handle(new Request(url, init)))
	const asaas = createAsaasStandin({ keys: 'any', fetch: toPortal, webhookRetryDelaysMs: [20, 40, 80], now: () => clock.now() })
	const evolution = createEvolutionStandin({
		apiKey: EVOLUTION_TEST_KEY,
		fetch: toPortal,
		// The bot's typing pauses (0.8–3 s) are waited, a hundredth of them, so a reply still comes after its send's wait.
		typingDelayScale: 0.01,
		...options.evolution
	})
	const ctx: AppContext = {
		db,
		clock,
		config,
		log: (event: string, fields?: Record<string, unknown>) => logs.push({ event, fields }),
		secrets: createSecretBox(config.secretKey),
		gateways: {
			asaas: (url, init) => asaas.handle(new Request(url, init)),
			evolution: (url, init) => evolution.handle(new Request(url, init))
		},
		metrics: new Metrics()
	}
	const services = await createServices(ctx, options.paymentHandlers)
	const app = await createApp(ctx, services, options.site ?? null)

	/** A same-origin request, as the portal's own pages make it. */
	async function call<M extends string, A extends string>(
		method: M,
		path: A,
		init: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {}
	) {
		const headers: Record<string, string> = { origin: TEST_ORIGIN, ...init.headers }
		if (init.cookie) headers.cookie = init.cookie
		let body: string | undefined
		if (init.body !== undefined) {
			body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
			headers['content-type'] ??= 'application/json'
		}
		const response = await app.handle(new Request(TEST_ORIGIN + path, { method, headers, body }))
		const text = await response.text()
		let json: unknown = null
		try {
			json = text ? JSON.parse(text) : null
		} catch {}
		return { status: response.status, headers: response.headers, json: json as AnswerAt<M, A>, text }
	}

	async function createUser(input: { cnpj: string; tipo: Role; senha?: string; nome?: string; email?: string; ativo?: boolean }) {
		const now = clock.now().toISOString()
		return (
			await db
				.insert(users)
				.values({
					cnpj: input.cnpj,
					nome: input.nome ?? `Usuário ${input.tipo}`,
					email: input.email ?? null,
					tipo: input.tipo,
					senha_hash: await hashPassword(input.senha ?? 'senha-forte-123'),
					ativo: input.ativo ?? true,
					created_at: now,
					updated_at: now
				})
				.returning()
		)[0]
	}

	/** Signs in and returns the cookie header to send with later calls. */
	async function login(cnpj: string, senha = 'senha-forte-123') {
		const res = await call('POST', '/api/auth/login', { body: { cnpj, senha } })
		if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`)
		const setCookie = res.headers.get('set-cookie') ?? ''
		return setCookie.split(';')[0]
	}

	/** The titles of the activity log's lines, oldest first. */
	const activityTitles = async () => (await db.select().from(activities)).map((a) => a.title)

	/** GET a CSV export: its status, headers, whether its bytes start with the UTF-8 BOM, and its lines of cells. */
	async function csv(path: string, cookie?: string) {
		const response = await app.handle(new Request(TEST_ORIGIN + path, { headers: cookie ? { cookie } : {} }))
		const bytes = new Uint8Array(await response.arrayBuffer())
		const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
		const lines = new TextDecoder('utf-8', { ignoreBOM: true })
			.decode(bytes)
			.replace(/^\uFEFF/, '')
			.split('\r\n')
			.filter((l) => l !== '')
			.map((l) => l.split(';'))
		return { status: response.status, headers: response.headers, bom, lines }
	}

	return { app, ctx, services, db, clock, logs, call, csv, createUser, login, activityTitles, asaas, evolution }
}

/** Valid CNPJs for tests, one per role. */
export const CNPJ = {
	admin: '11222333000181',
	gerente: '11444777000161',
	rep: '45997418000153',
	rep2: '04252011000110',
	alnum: '12ABC34501DE35'
}

let sharedHash: string | null = null
let companySeq = 0

/**
 * The one test world of the API tests: an administrador (Ana Admin), a gerente (Gabriel Gerente) managing the
 * representante Rafael Rep but not Sara Rep, each with a login and a representative record, all signed in.
 * Companies are added straight into the database (`company`) or through the API as the administrador
 * (`companyVia`); credits added and transferred through the API (`addCreditsVia`, `transferVia`).
 */
export async function testWorld(options: Parameters<typeof createTestApp>[0] = {}) {
	const t = await createTestApp(options)
	// One password hash for every world of a test file: argon2 is slow on purpose.
	sharedHash ??= await hashPassword('senha-forte-123')
	const now = t.clock.now().toISOString()
	const user = async (cnpj: string, tipo: Role, nome: string, email: string | null = null) =>
		(
			await t.db
				.insert(users)
				.values({ cnpj, nome, tipo, email, senha_hash: sharedHash!, ativo: true, created_at: now, updated_at: now })
				.returning()
		)[0]
	// The administrador has an e-mail, as a real install's first one does: Asaas asks one for every webhook.
	const admin = await user(CNPJ.admin, 'administrador', 'Ana Admin', 'ana.admin@example.com')
	const gerente = await user(CNPJ.gerente, 'gerente', 'Gabriel Gerente')
	await user(CNPJ.rep, 'representante', 'Rafael Rep')
	await user(CNPJ.rep2, 'representante', 'Sara Rep')
	await t.db.insert(representatives).values({ nome: 'Rafael Rep', cnpj: CNPJ.rep, gerente_id: gerente.id, data: '2026-01-01' })
	await t.db.insert(representatives).values({ nome: 'Sara Rep', cnpj: CNPJ.rep2, gerente_id: null, data: '2026-01-01' })
	const cookies = {
		admin: await t.login(CNPJ.admin),
		gerente: await t.login(CNPJ.gerente),
		rep: await t.login(CNPJ.rep),
		rep2: await t.login(CNPJ.rep2)
	}
	/** A company of `rep`, inserted directly (no activity line, no API rules). */
	const company = async (rep: string, razao: string, values: Partial<typeof companies.$inferInsert> = {}) =>
		(
			await t.db
				.insert(companies)
				.values({
					razao,
					cnpj: completeCnpj(String(770000000000 + ++companySeq)),
					cnpj_representante: rep,
					serial: `serial-${companySeq}-${Math.random()}`,
					data: '2026-01-01',
					...values
				})
				.returning()
		)[0]
	/** POST /api/companies as `cookie`: a company of `rep` with the next name and CNPJ, unless `fields` say otherwise. */
	function postCompany(cookie: string, fields: Record<string, unknown> = {}) {
		const n = ++companySeq
		return t.call('POST', '/api/companies', {
			cookie,
			body: { razao: `Empresa ${n}`, cnpj: completeCnpj(String(200000000000 + n)), cnpj_representante: CNPJ.rep, nterminais: 2, ...fields }
		})
	}
	/** A company created through the API by the administrador; answers its JSON. */
	async function companyVia(fields: Record<string, unknown> = {}) {
		const res = await postCompany(cookies.admin, fields)
		if (res.status !== 201) throw new Error(`company: ${res.status} ${res.text}`)
		return res.json.company
	}
	/** An administrador adds credits to a representative through the API. */
	async function addCreditsVia(rep: string, amount: number, unitValue = 50) {
		const res = await t.call('POST', '/api/credits', { cookie: cookies.admin, body: { representanteId: rep, amount, unitValue } })
		if (res.status !== 201) throw new Error(`add failed ${res.status} ${res.text}`)
		return res.json
	}
	/**
	 * `creditos` credits moved into company `empresaCodigo`'s licence of `sistema` through the API, as `cookie`'s user
	 * (none: signed out), from `representanteCnpj`'s pool when named; answers the response.
	 */
	const transferVia = (
		cookie: string | undefined,
		empresaCodigo: number,
		creditos: number,
		sistema = 'K-PDV',
		representanteCnpj?: string
	) => t.call('POST', '/api/credits/transfer-to-company', { cookie, body: { empresaCodigo, sistema, creditos, representanteCnpj } })
	const licence = async (codigo: number) =>
		(await t.db.select().from(companies).where(eq(companies.codigo, codigo)))[0]?.validade_licenca ?? null
	return { ...t, admin, gerente, cookies, cnpj: CNPJ, company, postCompany, companyVia, addCreditsVia, transferVia, licence }
}
export type TestWorld = Awaited<ReturnType<typeof testWorld>>

/**
 * Runs one of the portal's jobs (appJobs) as the scheduler does: under its lease, every write proving it (fencing).
 * A run the job logged as failed or fenced fails the test.
 */
export async function runPortalJob(w: Pick<TestWorld, 'ctx' | 'services' | 'logs'>, name: string): Promise<void> {
	const job = appJobs(w.ctx, w.services).find((j) => j.name === name)
	if (!job) throw new Error(`O portal não tem o trabalho ${name}.`)
	const before = w.logs.length
	if (!(await runJob(w.ctx, 'test-process', job))) throw new Error(`${name}: o lease estava com outro processo.`)
	const failure = w.logs.slice(before).find((l) => ['job.failed', 'job.fenced'].includes(l.event) && l.fields?.job === name)
	if (failure) throw new Error(`${name}: ${failure.event} ${JSON.stringify(failure.fields)}`)
}

/** One PNG chunk (length, type, data, CRC). */
export function pngChunk(type: string, data: Uint8Array): Buffer {
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
	const length = Buffer.alloc(4)
	length.writeUInt32BE(data.length)
	const crc = Buffer.alloc(4)
	crc.writeUInt32BE(Bun.hash.crc32(body))
	return Buffer.concat([length, body, crc])
}

/** Small but well-formed images for upload tests. */
export const TEST_IMAGES = {
	/** 2×1 RGBA PNG. */
	png: Buffer.concat([
		Buffer.from('89504e470d0a1a0a', 'hex'),
		pngChunk('IHDR', Buffer.from('00000002000000010806000000', 'hex')),
		pngChunk('IDAT', deflateSync(Buffer.from('00ff0000ff00ff00ff', 'hex'))),
		pngChunk('IEND', Buffer.alloc(0))
	]),
	/** 1×1 GIF. */
	gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
	/** A JPEG's segment structure: SOI, APP0, SOF0, SOS, scan data, EOI. */
	jpg: Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080001000101011100ffda0008010100003f00d2cf20ffd9', 'hex')
}

/**
 * Four anonymous clients, each POSTing `body` one request after the other, at the login and the licence check,
 * until `stop()`: the statuses they got, and how many answers echoed the body back (the outside attack of issue 13).
 */
export function hostileClients(base: string, body: string) {
	let stopped = false
	const statuses: number[] = []
	let echoed = 0
	const clients = Array.from({ length: 4 }, async (_, i) => {
		const path = i % 2 ? '/api/auth/login' : '/api/licenca/verificar'
		while (!stopped) {
			const res = await fetch(base + path, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: base },
				body,
				signal: AbortSignal.timeout(10_000)
			})
			if ((await res.text()).includes('[[[')) echoed++
			statuses.push(res.status)
		}
	})
	return {
		statuses,
		echoed: () => echoed,
		stop: async () => {
			stopped = true
			await Promise.all(clients)
		}
	}
}

/** The two representatives' Asaas accounts at the stand-in (sandbox keys), in the billing tests. */
export const ASAAS_KEYS = {
	rep: '$aact_hmlg_000000000000000000000000000000abcd',
	rep2: '$aact_hmlg_000000000000000000000000000000efgh'
}

/**
 * The billing tests' world: both representatives' Asaas accounts on (each with a Pix key, as a real account that
 * charges by PIX has, and the portal's webhook registered), and one company of Rafael's to bill. `modes` are set on
 * the stand-in before anything is registered.
 */
export async function billingWorld(modes: Partial<StandinModes> = {}, options: Parameters<typeof createTestApp>[0] = {}) {
	const w = await testWorld({ ...options, config: { publicOrigin: TEST_ORIGIN, ...options.config } })
	w.asaas.setModes(modes)
	for (const [cookie, key] of [
		[w.cookies.rep, ASAAS_KEYS.rep],
		[w.cookies.rep2, ASAAS_KEYS.rep2]
	]) {
		const saved = await w.call('PUT', '/api/representantes/asaas-config', {
			cookie,
			body: { ativar_api_asaas: 'S', asaas_api_key: key, asaas_ambiente: 'sandbox' }
		})
		expect(saved.status).toBe(200)
		w.asaas.registerPixKey(key)
	}
	const empresa = await w.company(CNPJ.rep, 'Padaria Pão Quente', { email: 'padaria@example.com', fone: '85999990001' })
	return { w, empresa }
}

/** A POST /api/carnes body: R$ 300,00 in 3 boletos from 10/12/2026 for `empresa`; `fields` change any of it. */
export const carneBody = (empresa: number, fields: Record<string, unknown> = {}) => ({
	empresa_codigo: empresa,
	valor_total: 300,
	numero_parcelas: 3,
	data_primeiro_vencimento: '2026-12-10',
	tipo_cobranca: 'BOLETO',
	descricao: 'Mensalidades',
	...fields
})

/** The Evolution stand-in's address, key and instance, as an administrador saves them on Notificações › API. */
export const TEST_GATEWAY: Record<string, string> = {
	evolution_api_url: 'http://evolution.local',
	evolution_api_key: EVOLUTION_TEST_KEY,
	evolution_instance_name: 'k-licencas'
}

/** Saves the WhatsApp gateway's settings (TEST_GATEWAY unless `values`) as the administrador; the API's answer. */
export const saveGateway = (w: Pick<TestWorld, 'call' | 'cookies'>, values: Record<string, string> = TEST_GATEWAY) =>
	w.call('POST', '/api/configuracoes/bulk', {
		cookie: w.cookies.admin,
		body: { configuracoes: Object.entries(values).map(([chave, valor]) => ({ chave, valor })) }
	})

/**
 * Lets the Asaas stand-in deliver every webhook it holds, and the inbox handle what it stored, including the events a
 * delivery's own handling still holds (on PostgreSQL it may not be done when the deliveries are).
 */
export async function settleAsaas(w: Pick<TestWorld, 'asaas' | 'services'>) {
	await w.asaas.settled()
	await Bun.sleep(5)
	await w.services.asaasInbox.idle()
	await w.services.asaasInbox.processDue()
}
