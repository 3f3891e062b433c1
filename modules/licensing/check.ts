import { generateKeyPairSync, createPrivateKey, createPublicKey, sign, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type AppContext, DAY, MINUTE, daysBetween, isoDateInSaoPaulo, timeInSaoPaulo, todayIso, tooManyRequests } from '../core'
import { representatives } from '../resellers'
import { type LicenceCheckBody, type LicenceStatus, SYSTEM_FLAGS } from './model'
import { companies, signingKeys, terminals } from './schema'
import { promoUrl } from './service'

/** How long a token lets a system run offline at most, when its licence lasts longer. */
const OFFLINE_GRACE_MS = 7 * DAY
/** Checks per company per minute before 429; a system checks at start-up and every few minutes. */
const CHECKS_PER_MINUTE = 120
/** Wrong keys from one address within 15 minutes before 429. */
const FAILURES_PER_WINDOW = 30
const FAILURE_WINDOW_MS = 15 * MINUTE
/** Last-use times are written in batches at most this often, never on every check. */
const FLUSH_INTERVAL_MS = 10_000
/** A company not heard from for this long is shown off line. */
const ONLINE_WINDOW_MS = 15 * MINUTE

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

function b64url(input: string | Buffer): string {
	return Buffer.from(input).toString('base64url')
}

function ensureSigningKey(db: DbOrTx, now: Date) {
	const existing = db.select().from(signingKeys).orderBy(desc(signingKeys.id)).limit(1).get()
	if (existing) return existing
	const { privateKey, publicKey } = generateKeyPairSync('ed25519')
	return db
		.insert(signingKeys)
		.values({
			public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
			private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
			created_at: now.toISOString()
		})
		.returning()
		.get()
}

/** Licence-day boundary: a licence "até" a date ends at midnight of that date in Brazil time. */
function licenceEnd(date: string): number {
	return Date.parse(`${date}T03:00:00.000Z`)
}

function sameKey(given: string, expected: string): boolean {
	const a = Buffer.from(given)
	const b = Buffer.from(expected)
	return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The endpoint the five desktop systems call. One instance per app: it keeps the rate-limit counters
 * and the last-use times that are flushed to the database in batches.
 */
export function createLicenceService(ctx: AppContext) {
	const key = ensureSigningKey(ctx.db, ctx.clock.now())
	const privateKey = createPrivateKey(key.private_key)
	const publicKey = createPublicKey(key.public_key)
	const kid = `k${key.id}`
	const checksByCompany = new Map<string, number[]>()
	const failuresByIp = new Map<string, number[]>()
	const lastSeen = new Map<number, number>()
	let lastFlush = ctx.clock.now().getTime()

	// The hot path runs on prepared statements: building a query costs more than running it.
	const findByCnpj = ctx.db
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
			bloqueado: companies.bloqueado,
			bloqueadopdv: companies.bloqueadopdv,
			bloqueado_kchef: companies.bloqueado_kchef,
			bloqueado_katelie: companies.bloqueado_katelie,
			bloqueado_kprevenda: companies.bloqueado_kprevenda
		})
		.from(companies)
		.where(eq(companies.cnpj, sql.placeholder('cnpj')))
		.prepare()
	// Two point lookups cost a third of the same lookup written as a join.
	const findPromo = ctx.db.select({ promo: representatives.promo }).from(representatives).where(eq(representatives.cnpj, sql.placeholder('cnpj'))).prepare()
	const findTerminal = ctx.db
		.select({ codigo: terminals.codigo })
		.from(terminals)
		.where(and(eq(terminals.fk_empresa, sql.placeholder('empresa')), eq(terminals.mac, sql.placeholder('mac'))))
		.prepare()
	const markUsed = ctx.db
		.update(companies)
		.set({ on_line: 'S', data_ultima_utilizacao: sql`${sql.placeholder('data')}`, hora_ultima_utilizacao: sql`${sql.placeholder('hora')}` })
		.where(eq(companies.codigo, sql.placeholder('codigo')))
		.prepare()

	function hit(map: Map<string, number[]>, key: string, windowMs: number, now: number): number {
		const list = (map.get(key) ?? []).filter((t) => now - t < windowMs)
		list.push(now)
		map.set(key, list)
		if (map.size > 50_000) for (const [k, v] of map) if (now - v[v.length - 1] >= windowMs) map.delete(k)
		return list.length
	}

	const header = b64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid }))
	function signToken(payload: Record<string, unknown>): string {
		const body = b64url(JSON.stringify(payload))
		const signature = sign(null, Buffer.from(`${header}.${body}`), privateKey)
		return `${header}.${body}.${b64url(signature)}`
	}

	/** Writes the batched last-use times and marks companies not heard from as off line. */
	function flushUsage() {
		const now = ctx.clock.now().getTime()
		// Only companies seen since the previous flush are written again.
		const since = lastFlush
		lastFlush = now
		const online: number[] = []
		const offline: number[] = []
		for (const [codigo, seen] of lastSeen) {
			if (now - seen >= ONLINE_WINDOW_MS) offline.push(codigo)
			else if (seen >= since) online.push(codigo)
		}
		if (online.length === 0 && offline.length === 0) return
		ctx.db.transaction(
			(tx) => {
				for (const codigo of online) {
					const seen = new Date(lastSeen.get(codigo)!)
					markUsed.run({ codigo, data: isoDateInSaoPaulo(seen), hora: timeInSaoPaulo(seen) })
				}
				if (offline.length > 0) tx.update(companies).set({ on_line: 'N' }).where(inArray(companies.codigo, offline)).run()
			},
			{ behavior: 'immediate' }
		)
		for (const codigo of offline) lastSeen.delete(codigo)
	}

	function registerTerminal(codigo: number, input: LicenceCheckBody): { registered: boolean; used: number; allowed: number } {
		return ctx.db.transaction(
			(tx) => {
				const company = tx.select({ nterminais: companies.nterminais, razao: companies.razao, rep: companies.cnpj_representante }).from(companies).where(eq(companies.codigo, codigo)).get()!
				const known = tx.select({ codigo: terminals.codigo }).from(terminals).where(and(eq(terminals.fk_empresa, codigo), eq(terminals.mac, input.mac))).get()
				const used = tx.select({ n: sql<number>`count(*)` }).from(terminals).where(eq(terminals.fk_empresa, codigo)).get()!.n
				if (known) return { registered: true, used, allowed: company.nterminais }
				if (used >= company.nterminais) return { registered: false, used, allowed: company.nterminais }
				tx.insert(terminals).values({ fk_empresa: codigo, mac: input.mac, nome_computador: input.nome_computador, data: ctx.clock.now().toISOString() }).run()
				tx.update(companies).set({ terminal_count: used + 1 }).where(eq(companies.codigo, codigo)).run()
				logActivity(tx, ctx.clock, {
					type: 'info',
					icon: 'Terminal',
					title: 'Terminal registrado',
					subtitle: `${input.nome_computador ?? input.mac} — ${company.razao}`,
					entity: 'terminal',
					representanteCnpj: company.rep
				})
				return { registered: true, used: used + 1, allowed: company.nterminais }
			},
			{ behavior: 'immediate' }
		)
	}

	/** `ip` is asked for only when a key is wrong, the one case that needs it. */
	function check(input: LicenceCheckBody, ip: () => string) {
		const now = ctx.clock.now()
		const nowMs = now.getTime()
		const base = { servidor_hora: now.toISOString(), nonce: input.nonce ?? null, sistema: input.sistema }

		const company = findByCnpj.get({ cnpj: input.cnpj })
		// An unknown CNPJ and a wrong key get the same answer, so the check never reveals which CNPJs exist.
		if (!company || !sameKey(input.chave, company.serial)) {
			// Only wrong keys are slowed down per address: machines with the right key at the same site keep working.
			if (hit(failuresByIp, ip(), FAILURE_WINDOW_MS, nowMs) > FAILURES_PER_WINDOW) {
				throw tooManyRequests('Muitas tentativas com chave inválida. Aguarde alguns minutos.', FAILURE_WINDOW_MS / 1000)
			}
			return { ...base, status: 'chave_invalida' as LicenceStatus, permitido: false, mensagem: MESSAGES.chave_invalida }
		}
		if (hit(checksByCompany, company.cnpj, MINUTE, nowMs) > CHECKS_PER_MINUTE) {
			throw tooManyRequests('Muitas verificações de licença em pouco tempo. Tente novamente em 1 minuto.', 60)
		}

		const today = todayIso(ctx.clock)
		const days = company.validade_licenca ? daysBetween(today, company.validade_licenca) : null
		const trustActive = !!company.liberacao_confianca_expira && company.liberacao_confianca_expira > now.toISOString()
		let status: LicenceStatus
		if (company[SYSTEM_FLAGS[input.sistema]] === 'S') status = 'bloqueada'
		else if (days === null || days <= 0) status = trustActive ? 'liberada_confianca' : 'expirada'
		else status = company.manutencao === 'S' ? 'manutencao' : 'ativa'

		let terminal: { registered: boolean; used: number; allowed: number } | null = null
		if (RUNNING.includes(status)) {
			const known = findTerminal.get({ empresa: company.codigo, mac: input.mac })
			// Only a machine not seen before costs a write (inside a transaction that re-checks the limit).
			terminal = known ? { registered: true, used: company.terminal_count, allowed: company.nterminais } : registerTerminal(company.codigo, input)
			if (!terminal.registered) status = 'terminal_excedido'
		}
		const permitido = RUNNING.includes(status)

		lastSeen.set(company.codigo, nowMs)
		if (nowMs - lastFlush >= FLUSH_INTERVAL_MS) flushUsage()

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
			mensagem: MESSAGES[status],
			empresa: { razao: company.razao, cnpj: company.cnpj },
			licenca: {
				validade: company.validade_licenca,
				dias_restantes: days,
				certificado_validade: company.validade_certificado,
				certificado_dias_restantes: company.validade_certificado ? daysBetween(today, company.validade_certificado) : null
			},
			liberacao_confianca_expira: trustActive ? company.liberacao_confianca_expira : null,
			terminal: terminal ? { registrado: terminal.registered, usados: terminal.used, permitidos: terminal.allowed } : null,
			aviso: company.exibir_aviso === 'S' ? { titulo: company.aviso_titulo, texto: company.avisos } : null,
			promo_url: promoUrl(findPromo.get({ cnpj: company.cnpj_representante })?.promo ?? null),
			token,
			token_expira: new Date(Math.max(iat * 1000, runsUntil)).toISOString()
		}
	}

	return {
		check,
		flushUsage,
		publicKey: { kid, alg: 'EdDSA', crv: 'Ed25519', pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), jwk: publicKey.export({ format: 'jwk' }) }
	}
}
export type LicenceService = ReturnType<typeof createLicenceService>

