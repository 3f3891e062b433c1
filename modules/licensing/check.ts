import { generateKeyPairSync, createPrivateKey, createPublicKey, sign } from 'node:crypto'
import { type SQLWrapper, and, desc, eq, getTableName, inArray, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Sql } from 'postgres'
import type { Db, DbOrTx } from '../../db/client'
import { onPostgres } from '../../db/dialect'
import { SYSTEM_FLAGS, companies, licenceState, nonPaymentFlags, perFlag } from '../companies'
import { type Clock, DAY, MINUTE, daysBetween, formatPhone, isoDateInSaoPaulo, timeInSaoPaulo } from '../core'
import { type AppContext, type SecretBox, SharedCounter, sealInClear, tooManyRequests, writeTransaction } from '../core/server'
import { promoUrl, representatives } from '../resellers'
import { registerMachine, terminals } from '../terminals'
import type { LicenceCheckBody, LicenceStatus } from './model'
import { signingKeys } from './schema'

/** How long a token lets a system run offline at most, when its licence lasts longer. */
const OFFLINE_GRACE_MS = 7 * DAY
/** Checks per company per minute before 429; a system checks at start-up and every few minutes. */
const CHECKS_PER_MINUTE = 120
/** Wrong keys from one address within 15 minutes before 429. */
export const FAILURES_PER_WINDOW = 30
export const FAILURE_WINDOW_MS = 15 * MINUTE
/** Last-use times are written in batches at most this often, never on every check. */
const FLUSH_INTERVAL_MS = MINUTE
/** A company not heard from for this long is shown off line. */
export const ONLINE_WINDOW_MS = 15 * MINUTE

const MESSAGES: Record<LicenceStatus, string> = {
	ativa: 'Licença ativa.',
	bloqueada: 'Sistema bloqueado. Entre em contato com o seu representante.',
	expirada: 'Licença expirada. Entre em contato com o seu representante para renovar.',
	liberada_confianca: 'Licença vencida, liberada em confiança por 24 horas. Regularize com o seu representante.',
	manutencao: 'Portal em manutenção: o sistema pode ser usado normalmente.',
	terminal_excedido: 'Limite de terminais da licença atingido. Peça ao seu representante para liberar mais terminais.',
	chave_invalida: 'CNPJ ou chave de licença inválidos.'
}
const RUNNING: LicenceStatus[] = ['ativa', 'liberada_confianca', 'manutencao']

/**
 * A system blocked by the reminder schedule for non-payment (issue 37): what to do, and whom to call. The block lifts
 * itself within seconds of the payment's confirmation (billing/dunning.ts).
 */
function nonPaymentMessage(representative: { nome: string; fone: string | null } | undefined): string {
	const who = representative
		? `${representative.nome}${representative.fone ? ` pelo telefone ${formatPhone(representative.fone)}` : ''}`
		: 'o seu representante'
	return `Sistema bloqueado por falta de pagamento: há parcela do seu carnê em atraso. Pague o boleto ou o PIX recebido pelo WhatsApp e o sistema volta a funcionar sozinho assim que o pagamento for confirmado. Dúvidas: fale com ${who}.`
}

function b64url(input: string | Buffer): string {
	return Buffer.from(input).toString('base64url')
}

/** The newest signing key; made on first use. Its private half is sealed at rest (core/secrets.ts). */
async function ensureSigningKey(db: DbOrTx, secrets: SecretBox, now: Date) {
	const existing = (await db.select().from(signingKeys).orderBy(desc(signingKeys.id)).limit(1))[0]
	if (existing) return existing
	const { privateKey, publicKey } = generateKeyPairSync('ed25519')
	return (
		await db
			.insert(signingKeys)
			.values({
				public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
				private_key: secrets.seal(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
				created_at: now.toISOString()
			})
			.returning()
	)[0]
}

/** Licence-day boundary: a licence "até" a date ends at midnight of that date in Brazil time. */
function licenceEnd(date: string): number {
	return Date.parse(`${date}T03:00:00.000Z`)
}

/** A column with its table's name: a one-table select writes columns bare, which a subquery would misread. */
function qualified(column: SQLiteColumn) {
	return sql.raw(`"${getTableName(column.table)}"."${column.name}"`)
}

/**
 * One raw statement prepared once, answering its first row as the driver gives it (or undefined): bun:sqlite's
 * prepared statement on SQLite, a server-side prepared statement on PostgreSQL (postgres.js prepares it once
 * per connection and reuses it).
 */
function prepareRow<Row>(db: Db, text: string): (params: string[]) => Promise<Row | undefined> | Row | undefined {
	if (onPostgres(db)) {
		const client = db.$client as unknown as Sql
		return async (params) => (await client.unsafe<Row[]>(text, params, { prepare: true }))[0]
	}
	const statement = db.$client.prepare<Row, string[]>(text)
	return (params) => statement.get(...params) ?? undefined
}

/** Lookups gathered into one PostgreSQL statement at most: a bound on the statement's parameters and its answer. */
const MOST_GATHERED = 500

/**
 * The licence check's lookup of a company by CNPJ with one of its machines (by MAC). `statement` gives its SQL for
 * the CNPJ and the MAC as SQL expressions. On SQLite it is one prepared statement a check: bun:sqlite answers in
 * microseconds in this thread. On PostgreSQL one lookup statement at a time is out: a check goes at once when none is,
 * and the checks that arrive while one is out go together in the next, as one statement over the list of their keys.
 * A statement costs the database a fixed part (its read transaction, the start of its plan, a round trip) that a busy
 * portal then pays once for many checks, so the database's share of a check shrinks as the load grows (with several
 * instances on one database, most of all), and a quiet portal waits for no one.
 */
function licenceLookup<Row>(
	db: Db,
	statement: (cnpj: SQLWrapper, mac: SQLWrapper) => { sql: string; params: unknown[] }
): (cnpj: string, mac: string) => Promise<Row | undefined> | Row | undefined {
	if (!onPostgres(db)) {
		const single = statement(sql.placeholder('cnpj'), sql.placeholder('mac'))
		const order = single.params.map((param) => (param as { name: 'cnpj' | 'mac' }).name)
		const find = prepareRow<Row>(db, single.sql)
		return (cnpj, mac) => find(order.map((name) => (name === 'cnpj' ? cnpj : mac)))
	}
	const client = db.$client as unknown as Sql
	// Each key's lookup is the single statement on the key's row (a lateral join); `posicao` says whose row it is.
	// The lists are read through subqueries so that the planner cannot see their length: seeing it, it would plan the
	// statement again for every list (four times the cost of running it) instead of keeping one plan for all.
	const inner = statement(sql.raw('chaves.cnpj'), sql.raw('chaves.mac'))
	const text = `select chaves.posicao, linha.* from unnest((select $1::text[]), (select $2::text[])) with ordinality as chaves(cnpj, mac, posicao) cross join lateral (${inner.sql}) as linha`
	let out = false
	let waiting: { cnpj: string; mac: string; answer: PromiseWithResolvers<Row | undefined> }[] = []

	function sendWaiting() {
		const batch = waiting.slice(0, MOST_GATHERED)
		waiting = waiting.slice(batch.length)
		out = true
		client
			.unsafe<(Row & { posicao: string })[]>(text, [batch.map((k) => k.cnpj), batch.map((k) => k.mac)], { prepare: true })
			.then(
				(rows) => {
					const found = new Array<Row | undefined>(batch.length)
					// Each row keeps its posicao: the check reads only the columns it names.
					for (const row of rows) found[Number(row.posicao) - 1] = row
					for (const [i, k] of batch.entries()) k.answer.resolve(found[i])
				},
				(error) => {
					for (const k of batch) k.answer.reject(error)
				}
			)
			.finally(() => {
				out = false
				if (waiting.length > 0) sendWaiting()
			})
	}

	return (cnpj, mac) => {
		const answer = Promise.withResolvers<Row | undefined>()
		waiting.push({ cnpj, mac, answer })
		if (!out) sendWaiting()
		return answer.promise
	}
}

/** Ids in lists short enough for one statement's parameters on either database. */
function chunks(ids: number[], size = 1000): number[][] {
	const result: number[][] = []
	for (let start = 0; start < ids.length; start += size) result.push(ids.slice(start, start + size))
	return result
}

/** Compares every character whatever the first difference, so the time taken tells nothing about the key. */
function sameKey(given: string, expected: string): boolean {
	if (given.length !== expected.length) return false
	let difference = 0
	for (let i = 0; i < given.length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i)
	return difference === 0
}

/** A company's last use as one text in Brazil's time, "YYYY-MM-DD HH:MM:SS" ('' when never), ordered as time is. */
const lastUse = sql`coalesce(${companies.data_ultima_utilizacao}, '') || ' ' || coalesce(${companies.hora_ultima_utilizacao}, '')`

/**
 * Shows off line the companies on line whose last use is older than 15 minutes (a job, every minute, on one instance at
 * a time): read from the database, so a company checked on any instance stays on line.
 */
export async function markCompaniesOffline(db: DbOrTx, clock: Clock): Promise<number> {
	const before = new Date(clock.now().getTime() - ONLINE_WINDOW_MS)
	const cutoff = `${isoDateInSaoPaulo(before)} ${timeInSaoPaulo(before)}`
	return writeTransaction(
		db,
		async (tx) =>
			(
				await tx
					.update(companies)
					.set({ on_line: 'N' })
					.where(and(eq(companies.on_line, 'S'), sql`${lastUse} < ${cutoff}`))
					.returning({ codigo: companies.codigo })
			).length
	)
}

/**
 * Answers one licence check: reads the company, registers a new machine under the limit and signs the
 * token. It runs in the main thread or in a check worker (check-worker.ts), each with its own connection.
 * What it keeps in memory is bounded and harmless to lose: the last-use times it collects, written in batches every
 * minute (a crash loses at most that minute of "last used", and a newer time written by another instance is never put
 * back), and its share of the per-company limit, added to the count every instance shares every 2 s (SharedCounter).
 */
export async function createLicenceEvaluator(ctx: Pick<AppContext, 'db' | 'clock' | 'secrets'>) {
	const key = await ensureSigningKey(ctx.db, ctx.secrets, ctx.clock.now())
	const privateKey = createPrivateKey(ctx.secrets.open(key.private_key))
	const publicKey = createPublicKey(key.public_key)
	const kid = `k${key.id}`
	/** Companies checked since the last flush, with when. */
	let lastSeen = new Map<number, number>()
	let lastFlush = ctx.clock.now().getTime()
	const checksByCompany = new SharedCounter(ctx.db, 'licence-company', MINUTE, CHECKS_PER_MINUTE, lastFlush)

	// The hot path is one prepared statement: building a query costs more than running it, and each
	// statement pays for its own read transaction, so the machine and the promo image come as subqueries.
	const lookupBy = (cnpj: SQLWrapper, mac: SQLWrapper) =>
		ctx.db
			.select({
				codigo: companies.codigo,
				razao: companies.razao,
				cnpj: companies.cnpj,
				cnpj_representante: companies.cnpj_representante,
				serial: companies.serial,
				nterminais: companies.nterminais,
				terminal_count: companies.terminal_count,
				validade_licenca: companies.validade_licenca,
				validade_certificado: companies.validade_certificado,
				liberacao_confianca_expira: companies.liberacao_confianca_expira,
				manutencao: companies.manutencao,
				exibir_aviso: companies.exibir_aviso,
				aviso_titulo: companies.aviso_titulo,
				avisos: companies.avisos,
				...perFlag((flag) => companies[flag]),
				bloqueio_inadimplencia: companies.bloqueio_inadimplencia,
				terminal: sql<
					number | null
				>`(select ${qualified(terminals.codigo)} from ${terminals} where ${qualified(terminals.fk_empresa)} = ${qualified(companies.codigo)} and ${qualified(terminals.mac)} = ${mac})`.as(
					'terminal'
				),
				promo: sql<
					string | null
				>`(select ${qualified(representatives.promo)} from ${representatives} where ${qualified(representatives.cnpj)} = ${qualified(companies.cnpj_representante)})`.as(
					'promo'
				)
			})
			.from(companies)
			.where(eq(companies.cnpj, cnpj))
	const findByCnpj = licenceLookup<ReturnType<ReturnType<typeof lookupBy>['get']>>(ctx.db, (cnpj, mac) => lookupBy(cnpj, mac).toSQL())
	// Only a company blocked for non-payment needs its representative's name and phone (the message says whom to call).
	const contact = ctx.db
		.select({
			nome: representatives.nome,
			fone: sql<string | null>`coalesce(${representatives.whatsapp}, ${representatives.fone})`.as('fone')
		})
		.from(representatives)
		.where(eq(representatives.cnpj, sql.placeholder('cnpj')))
		.toSQL()
	const findContact = prepareRow<{ nome: string; fone: string | null }>(ctx.db, contact.sql)

	// The date in Brazil changes only on a minute boundary: it is formatted once a minute, not on every check.
	let today = { date: '', until: 0 }
	function todayAt(nowMs: number): string {
		if (nowMs >= today.until || nowMs < today.until - MINUTE)
			today = { date: isoDateInSaoPaulo(new Date(nowMs)), until: (Math.floor(nowMs / MINUTE) + 1) * MINUTE }
		return today.date
	}

	const header = b64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid }))
	function signToken(payload: Record<string, unknown>): string {
		const body = b64url(JSON.stringify(payload))
		const signature = sign(null, Buffer.from(`${header}.${body}`), privateKey)
		return `${header}.${body}.${b64url(signature)}`
	}

	/**
	 * Writes the batched last-use times. A time is written only over one older by a minute or more: another instance
	 * may have written a later check of the same company meanwhile, and a company checked every few seconds (on any
	 * instance) costs a write a minute, not one per flush. Companies go off line by the job that reads these times
	 * (markCompaniesOffline), whichever instance saw them.
	 */
	async function flushUsage() {
		lastFlush = ctx.clock.now().getTime()
		const seen = lastSeen
		lastSeen = new Map()
		if (seen.size === 0) return
		// Times are kept to the second: the companies seen in the same second are written by one statement.
		const bySecond = new Map<number, number[]>()
		for (const [codigo, at] of seen) {
			const second = Math.floor(at / 1000)
			const group = bySecond.get(second)
			if (group) group.push(codigo)
			else bySecond.set(second, [codigo])
		}
		// Single statements, no transaction: each only ever moves a time forward, so instances writing the same companies
		// at once cannot undo one another (on PostgreSQL a transaction would only make them abort each other). Rows are
		// taken in the order of their key, as every instance takes them.
		for (const [second, codigos] of bySecond) {
			const at = new Date(second * 1000)
			const stamp = { data_ultima_utilizacao: isoDateInSaoPaulo(at), hora_ultima_utilizacao: timeInSaoPaulo(at) }
			const aMinuteBefore = new Date(at.getTime() - MINUTE)
			const olderThan = `${isoDateInSaoPaulo(aMinuteBefore)} ${timeInSaoPaulo(aMinuteBefore)}`
			for (const chunk of chunks(codigos.sort((a, b) => a - b)))
				await ctx.db
					.update(companies)
					.set({ on_line: 'S', ...stamp })
					.where(and(inArray(companies.codigo, chunk), sql`${lastUse} <= ${olderThan}`))
		}
	}

	async function evaluate(input: LicenceCheckBody) {
		const now = ctx.clock.now()
		const nowMs = now.getTime()
		const nowIso = now.toISOString()
		const base = { servidor_hora: nowIso, nonce: input.nonce ?? null, sistema: input.sistema }

		const company = await findByCnpj(input.cnpj, input.mac)
		// An unknown CNPJ and a wrong key get the same answer, so the check never reveals which CNPJs exist.
		if (!company || !sameKey(input.chave, company.serial)) {
			return { ...base, status: 'chave_invalida' as LicenceStatus, permitido: false, mensagem: MESSAGES.chave_invalida }
		}
		// Counted once the key is right: nobody can use up a company's allowance without its key, and a wrong key
		// never learns whether the CNPJ is busy. A company's checks always reach the same evaluator.
		if (checksByCompany.hit(company.cnpj, nowMs)) {
			throw tooManyRequests('Muitas verificações de licença em pouco tempo. Tente novamente em 1 minuto.', 60)
		}

		const today = todayAt(nowMs)
		const licence = licenceState(company, today, nowMs)
		const days = licence.days
		const trustActive = licence.state === 'liberada'
		let status: LicenceStatus
		if (company[SYSTEM_FLAGS[input.sistema]] === 'S') status = 'bloqueada'
		else if (licence.state === 'sem_licenca' || licence.state === 'expirada') status = 'expirada'
		else if (trustActive) status = 'liberada_confianca'
		else status = company.manutencao === 'S' ? 'manutencao' : 'ativa'

		let terminal: { registered: boolean; used: number; allowed: number } | null = null
		if (RUNNING.includes(status)) {
			// Only a machine not seen before costs a write (inside a transaction that re-checks the limit).
			terminal =
				company.terminal !== null
					? { registered: true, used: company.terminal_count, allowed: company.nterminais }
					: await registerMachine(ctx.db, ctx.clock, company.codigo, input)
			if (!terminal.registered) status = 'terminal_excedido'
		}
		const permitido = RUNNING.includes(status)
		const blockedForNonPayment =
			status === 'bloqueada' && nonPaymentFlags(company.bloqueio_inadimplencia).includes(SYSTEM_FLAGS[input.sistema])
		const mensagem = blockedForNonPayment ? nonPaymentMessage(await findContact([company.cnpj_representante])) : MESSAGES[status]

		lastSeen.set(company.codigo, nowMs)
		if (nowMs - lastFlush >= FLUSH_INTERVAL_MS) await flushUsage()

		let runsUntil = nowMs
		if (permitido) {
			const end = status === 'liberada_confianca' ? Date.parse(company.liberacao_confianca_expira!) : licenceEnd(company.validade_licenca!)
			runsUntil = Math.min(end, nowMs + OFFLINE_GRACE_MS)
		}
		const iat = Math.floor(nowMs / 1000)
		const token = signToken({
			iss: 'kportal',
			sub: company.cnpj,
			sistema: input.sistema,
			status,
			permitido,
			licenca: company.validade_licenca,
			mac: input.mac,
			nonce: input.nonce ?? null,
			iat,
			exp: Math.max(iat, Math.floor(runsUntil / 1000))
		})
		return {
			...base,
			status,
			permitido,
			mensagem,
			...(status === 'bloqueada' ? { motivo_bloqueio: blockedForNonPayment ? ('falta_de_pagamento' as const) : ('manual' as const) } : {}),
			empresa: { razao: company.razao, cnpj: company.cnpj },
			licenca: {
				validade: company.validade_licenca,
				dias_restantes: days,
				certificado_validade: company.validade_certificado,
				certificado_dias_restantes: company.validade_certificado ? daysBetween(today, company.validade_certificado) : null
			},
			liberacao_confianca_expira: trustActive ? company.liberacao_confianca_expira : null,
			terminal: terminal ? { registrado: terminal.registered, usados: terminal.used, permitidos: terminal.allowed } : null,
			// Notice display can be switched on before any text is written: nothing to show then.
			aviso: company.exibir_aviso === 'S' && company.avisos?.trim() ? { titulo: company.aviso_titulo, texto: company.avisos } : null,
			promo_url: promoUrl(company.promo),
			token,
			token_expira: new Date(Math.max(iat * 1000, runsUntil)).toISOString()
		}
	}

	return {
		evaluate,
		flushUsage,
		publicKey: {
			kid,
			alg: 'EdDSA' as const,
			crv: 'Ed25519' as const,
			pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
			jwk: publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string }
		}
	}
}
export type LicenceEvaluator = Awaited<ReturnType<typeof createLicenceEvaluator>>

/** What a check comes back with: its status (the rate limits need it) and the answer as JSON text. */
export interface CheckResult {
	status: LicenceStatus
	json: string
}

export async function evaluateToJson(evaluator: LicenceEvaluator, input: LicenceCheckBody): Promise<CheckResult> {
	const answer = await evaluator.evaluate(input)
	return { status: answer.status, json: JSON.stringify(answer) }
}

/** Seals signing keys saved in clear before secrets were sealed at rest (run at every start; idempotent). */
export async function sealSigningKeys(db: DbOrTx, secrets: SecretBox): Promise<number> {
	return sealInClear(
		secrets,
		await db.select().from(signingKeys),
		(key) => key.private_key,
		async (key, sealed) => await db.update(signingKeys).set({ private_key: sealed }).where(eq(signingKeys.id, key.id))
	)
}
