import { and, asc, count, eq, gt, inArray, lt, lte, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { onPostgres } from '../../db/dialect'
import { sqlWriteRows } from '../../db/query'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { FLAG_COLUMNS, blockForNonPayment, companies, liftNonPaymentBlock } from '../companies'
import {
	type Clock,
	MINUTE,
	addDaysIso,
	brazilNow,
	can,
	daysBetween,
	formatBrDate,
	formatBrl,
	isoDateInSaoPaulo,
	startOfDayInSaoPaulo
} from '../core'
import { type AppContext, badRequest, forbidden, notFound, writeTransaction } from '../core/server'
import { type EvolutionClient, EvolutionError, normaliseBrazilianPhone, phoneKey } from '../evolution'
import { evolutionGateway, notifyUsers, renderTemplate, waitForTurn, whatsappOptOuts } from '../messaging'
import { jobLeases, withLease } from '../jobs'
import { findRepresentativeByCnpj } from '../resellers'
import {
	DUNNING_DEFAULTS,
	type DunningBody,
	type DunningQuery,
	type DunningRunResult,
	type DunningSendView,
	type DunningStep,
	type DunningValues,
	LATE_STEP_DAYS,
	defaultSteps,
	warningDay
} from './dunning-model'
import { OPEN_STATUSES, isPaid } from './labels'
import { carneParcelas, carnes, reguaEnvios, reguasCobranca } from './schema'

/**
 * The reminder schedule (régua de cobrança, issue 37). Once a day per representative, at their send time (weekends
 * only when allowed), the job chooses the day's messages into regua_envios — one row per (parcel, cycle, kind, step),
 * so a second run, a second process or a retry adds nothing — and blocks the companies overdue past the schedule's
 * days; every minute it sends what is due, one claimed row at a time, paced on the sending number. A payment that
 * leaves a company with nothing overdue lifts the block at once (afterParcelClosed, called by sync.ts).
 */

type Ctx = AppContext

interface Schedule {
	ativa: boolean
	passos: DunningStep[]
	horario_envio: string
	enviar_fins_semana: boolean
	bloquear_apos_dias: number | null
	/** False while nothing is saved: the defaults apply. */
	personalizada: boolean
}

/** A representative's schedule: as saved, or the defaults. */
async function scheduleOf(db: DbOrTx, cnpj: string): Promise<Schedule> {
	const row = (await db.select().from(reguasCobranca).where(eq(reguasCobranca.representante_cnpj, cnpj)))[0]
	if (!row) return { ...DUNNING_DEFAULTS, passos: defaultSteps(), personalizada: false }
	return {
		ativa: row.ativa,
		passos: JSON.parse(row.passos) as DunningStep[],
		horario_envio: row.horario_envio,
		enviar_fins_semana: row.enviar_fins_semana,
		bloquear_apos_dias: row.bloquear_apos_dias,
		personalizada: true
	}
}

type Actor = Pick<SessionUser, 'id' | 'nome' | 'tipo' | 'cnpj'>

/**
 * Whose schedule a request is about: an administrador's must name the representative (?representante=); anyone
 * else's is their own, and naming another representative is refused.
 */
async function whoseSchedule(ctx: Ctx, user: Actor, query: DunningQuery) {
	if (can(user.tipo, 'billing.dunningAll')) {
		if (!query.representante) throw badRequest('Informe de qual representante é a régua de cobrança (?representante=<CNPJ>).')
		const rep = await findRepresentativeByCnpj(ctx.db, query.representante)
		if (!rep) throw notFound('Representante não encontrado.')
		return rep
	}
	if (query.representante && query.representante !== user.cnpj)
		throw forbidden('Você só pode ver e alterar a sua própria régua de cobrança.')
	const rep = await findRepresentativeByCnpj(ctx.db, user.cnpj)
	if (!rep) throw notFound('Nenhum representante cadastrado com o CNPJ deste usuário.')
	return rep
}

/** GET /api/regua-cobranca. */
export async function getDunning(ctx: Ctx, user: Actor, query: DunningQuery) {
	const rep = await whoseSchedule(ctx, user, query)
	const schedule = await scheduleOf(ctx.db, rep.cnpj)
	return { representante_cnpj: rep.cnpj, representante_nome: rep.nome, instancia: rep.evo_instancia?.trim() || null, ...schedule }
}

/** PUT /api/regua-cobranca: the whole schedule, logged. */
export async function saveDunning(ctx: Ctx, user: Actor, query: DunningQuery, body: DunningBody) {
	const rep = await whoseSchedule(ctx, user, query)
	const now = ctx.clock.now().toISOString()
	const values = {
		ativa: body.ativa,
		passos: JSON.stringify(body.passos),
		horario_envio: body.horario_envio,
		enviar_fins_semana: body.enviar_fins_semana,
		bloquear_apos_dias: body.bloquear_apos_dias,
		updated_at: now
	}
	await writeTransaction(ctx.db, async (tx) => {
		await tx
			.insert(reguasCobranca)
			.values({ representante_cnpj: rep.cnpj, ...values })
			.onConflictDoUpdate({ target: reguasCobranca.representante_cnpj, set: values })
		await logActivity(
			tx,
			ctx.clock,
			'billing.dunning-saved',
			{ representante: rep.nome, ativa: body.ativa, bloqueio: body.bloquear_apos_dias },
			{ actor: user, entityId: rep.cnpj, representanteCnpj: rep.cnpj }
		)
	})
	return { message: 'Régua de cobrança salva.', regua: await getDunning(ctx, user, query) }
}

const OPEN_SQL = sql.raw(`(${OPEN_STATUSES.map((s) => `'${s}'`).join(', ')})`)
/** The parcel (of carne_parcelas in the statement) belongs to a carnê still active. */
const inActiveCarne = sql`exists (select 1 from ${carnes} where ${carnes.id} = ${carneParcelas.carne_id} and ${carnes.status} = 'ativo')`

/**
 * The step each due date is reminded of today: a parcel `k` days from its due date (negative before it) gets the
 * latest active step whose day has come, at most LATE_STEP_DAYS ago (a step on a weekend off goes on Monday unless
 * Monday has its own). Answers due date → step day, for the dates that have one.
 */
export function stepsDueOn(today: string, stepDays: readonly number[]): Map<string, number> {
	const byDate = new Map<string, number>()
	if (stepDays.length === 0) return byDate
	const from = Math.min(...stepDays)
	const to = Math.max(...stepDays) + LATE_STEP_DAYS
	for (let k = from; k <= to; k++) {
		const due = stepDays.filter((d) => d <= k && k <= d + LATE_STEP_DAYS)
		if (due.length > 0) byDate.set(addDaysIso(today, -k), Math.max(...due))
	}
	return byDate
}

/** What one representative's day chose and blocked. */
interface DayResult {
	escolhidas: number
	bloqueadas: number
}

const now = (clock: Clock) => clock.now().toISOString()

/**
 * The representative's day, in one transaction: claims it (once a day, unless `force`), chooses the reminders and the
 * warnings before a block, and blocks the companies whose warned parcel is overdue past the schedule's days.
 */
async function runDay(ctx: Ctx, cnpj: string, schedule: Schedule, today: string, force: boolean): Promise<DayResult> {
	const at = now(ctx.clock)
	return writeTransaction(ctx.db, async (tx) => {
		// The day is claimed by writing it: a second process (or a second tick) finds it taken and does nothing. A
		// representative running on the defaults gets them written with it.
		const { personalizada: _saved, passos, ...fields } = schedule
		const claimed = await tx
			.insert(reguasCobranca)
			.values({ representante_cnpj: cnpj, ...fields, passos: JSON.stringify(passos), ultima_execucao: today, updated_at: at })
			.onConflictDoUpdate({
				target: reguasCobranca.representante_cnpj,
				set: { ultima_execucao: today },
				setWhere: force ? undefined : or(sql`${reguasCobranca.ultima_execucao} is null`, sql`${reguasCobranca.ultima_execucao} <> ${today}`)
			})
			.returning({ cnpj: reguasCobranca.representante_cnpj })
		if (claimed.length === 0) return { escolhidas: 0, bloqueadas: 0 }
		let escolhidas = await chooseReminders(tx, cnpj, schedule, today, at)
		let bloqueadas = 0
		if (schedule.bloquear_apos_dias !== null) {
			escolhidas += await chooseWarnings(tx, cnpj, schedule.bloquear_apos_dias, today, at)
			bloqueadas = await blockOverdue(tx, ctx.clock, cnpj, schedule.bloquear_apos_dias, today)
		}
		return { escolhidas, bloqueadas }
	})
}

/** Today's reminders of the representative's open parcels: one INSERT … SELECT, whose unique key skips what was chosen. */
async function chooseReminders(tx: DbOrTx, cnpj: string, schedule: Schedule, today: string, at: string): Promise<number> {
	const byDate = stepsDueOn(
		today,
		schedule.passos.filter((s) => s.ativo).map((s) => s.dias)
	)
	if (byDate.size === 0) return 0
	// The step days are whole numbers the schema checked: written as literals, so PostgreSQL types the CASE as integer.
	const step = sql.join(
		[...byDate].map(([date, dias]) => sql`when ${date} then ${sql.raw(String(Math.trunc(dias)))}`),
		sql` `
	)
	const rows = await sqlWriteRows<{ one: number }>(
		tx,
		sql`insert into ${reguaEnvios} (parcela_id, ciclo, tipo, dias, empresa_codigo, representante_cnpj, status, tentativas, proxima_tentativa, criado_em)
		select ${carneParcelas.id}, ${carneParcelas.ciclo}, 'lembrete', case ${carneParcelas.vencimento} ${step} end,
			${carneParcelas.empresa_codigo}, ${carneParcelas.representante_cnpj}, 'pendente', 0, ${at}, ${at}
		from ${carneParcelas}
		where ${carneParcelas.representante_cnpj} = ${cnpj} and ${carneParcelas.vencimento} in ${[...byDate.keys()]}
			and ${carneParcelas.status} in ${OPEN_SQL} and ${inActiveCarne}
		on conflict do nothing
		returning 1 as one`
	)
	return rows.length
}

/** Which companies can still be blocked: not already blocked for non-payment, and with a system still running. */
const blockable = sql`${companies.bloqueio_inadimplencia} is null and (${sql.join(
	FLAG_COLUMNS.map((flag) => sql`${companies[flag]} = 'N'`),
	sql` or `
)})`

/**
 * The warning before a block ("sua licença será bloqueada em X dias"), once per company: for its oldest open parcel
 * overdue since the warning's day, when the company could still be blocked.
 */
async function chooseWarnings(tx: DbOrTx, cnpj: string, blockAfter: number, today: string, at: string): Promise<number> {
	const rows = await sqlWriteRows<{ one: number }>(
		tx,
		sql`insert into ${reguaEnvios} (parcela_id, ciclo, tipo, dias, empresa_codigo, representante_cnpj, status, tentativas, proxima_tentativa, criado_em)
		select ${carneParcelas.id}, ${carneParcelas.ciclo}, 'aviso_bloqueio', 0, ${carneParcelas.empresa_codigo}, ${carneParcelas.representante_cnpj},
			'pendente', 0, ${at}, ${at}
		from ${carneParcelas} join ${companies} on ${companies.codigo} = ${carneParcelas.empresa_codigo}
		where ${carneParcelas.representante_cnpj} = ${cnpj} and ${carneParcelas.vencimento} <= ${addDaysIso(today, -warningDay(blockAfter))}
			and ${carneParcelas.status} in ${OPEN_SQL} and ${inActiveCarne} and ${blockable}
			and not exists (select 1 from carne_parcelas older join carnes oc on oc.id = older.carne_id and oc.status = 'ativo'
				where older.empresa_codigo = ${carneParcelas.empresa_codigo} and older.status in ${OPEN_SQL}
				and (older.vencimento < ${carneParcelas.vencimento} or (older.vencimento = ${carneParcelas.vencimento} and older.id < ${carneParcelas.id})))
		on conflict do nothing
		returning 1 as one`
	)
	return rows.length
}

/**
 * Blocks each company with an open parcel overdue `blockAfter` days or more whose warning was chosen on an earlier
 * day (so the client was told first), and tells the representative in the top bar. Answers how many it blocked.
 */
async function blockOverdue(tx: DbOrTx, clock: Clock, cnpj: string, blockAfter: number, today: string): Promise<number> {
	const due = await tx
		.select({
			empresa: carneParcelas.empresa_codigo,
			razao: companies.razao,
			numero: carneParcelas.numero,
			total: carnes.numero_parcelas,
			vencimento: carneParcelas.vencimento
		})
		.from(carneParcelas)
		.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
		.innerJoin(companies, eq(companies.codigo, carneParcelas.empresa_codigo))
		.innerJoin(
			reguaEnvios,
			and(
				eq(reguaEnvios.parcela_id, carneParcelas.id),
				eq(reguaEnvios.ciclo, carneParcelas.ciclo),
				eq(reguaEnvios.tipo, 'aviso_bloqueio'),
				lt(reguaEnvios.criado_em, startOfDayInSaoPaulo(today))
			)
		)
		.where(
			and(
				eq(carneParcelas.representante_cnpj, cnpj),
				lte(carneParcelas.vencimento, addDaysIso(today, -blockAfter)),
				inArray(carneParcelas.status, [...OPEN_STATUSES]),
				eq(carnes.status, 'ativo'),
				blockable
			)
		)
		.orderBy(asc(carneParcelas.empresa_codigo), asc(carneParcelas.vencimento))
	let blocked = 0
	const seen = new Set<number>()
	for (const p of due) {
		if (seen.has(p.empresa)) continue
		seen.add(p.empresa)
		const days = daysBetween(p.vencimento, today)
		const motivo = `parcela ${p.numero}/${p.total} vencida em ${formatBrDate(p.vencimento)} (${days} dias de atraso)`
		if (!(await blockForNonPayment(tx, clock, p.empresa, motivo))) continue
		blocked++
		await notifyUsers(
			tx,
			clock,
			{ representanteCnpj: cnpj },
			'Empresa bloqueada por falta de pagamento',
			`${p.razao}: ${motivo}. O desbloqueio é automático quando o pagamento for confirmado.`,
			'warning'
		)
	}
	return blocked
}

/**
 * After a parcel left the open statuses (paid, removed, refunded…; `parcel` with its new status), in the transaction
 * that moved it: when its company
 * was blocked for non-payment and nothing of it is overdue any more, the block is lifted, the client gets one message
 * saying so (a row of its own, sent by the next run within the minute) and the representative is told.
 */
export async function afterParcelClosed(tx: DbOrTx, parcel: typeof carneParcelas.$inferSelect, at: string) {
	const company = (
		await tx
			.select({ bloqueio: companies.bloqueio_inadimplencia, razao: companies.razao })
			.from(companies)
			.where(eq(companies.codigo, parcel.empresa_codigo))
	)[0]
	if (!company?.bloqueio) return
	const today = isoDateInSaoPaulo(new Date(at))
	const overdue =
		(
			await tx
				.select({ n: count() })
				.from(carneParcelas)
				.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
				.where(
					and(
						eq(carneParcelas.empresa_codigo, parcel.empresa_codigo),
						inArray(carneParcelas.status, [...OPEN_STATUSES]),
						lt(carneParcelas.vencimento, today),
						eq(carnes.status, 'ativo')
					)
				)
		)[0]?.n ?? 0
	if (overdue > 0) return
	const clock = { now: () => new Date(at) }
	const motivo = isPaid(parcel.status) ? `parcela ${parcel.numero} paga; nenhuma parcela em atraso` : 'nenhuma parcela em atraso'
	if (!(await liftNonPaymentBlock(tx, clock, parcel.empresa_codigo, motivo))) return
	await tx
		.insert(reguaEnvios)
		.values({
			parcela_id: parcel.id,
			ciclo: parcel.ciclo,
			tipo: 'desbloqueio',
			dias: 0,
			empresa_codigo: parcel.empresa_codigo,
			representante_cnpj: parcel.representante_cnpj,
			status: 'pendente',
			proxima_tentativa: at,
			criado_em: at
		})
		.onConflictDoNothing()
	await notifyUsers(
		tx,
		clock,
		{ representanteCnpj: parcel.representante_cnpj },
		'Empresa desbloqueada',
		`${company.razao}: ${motivo}. Os sistemas bloqueados pela régua de cobrança foram liberados.`,
		'success'
	)
}

// Sending -------------------------------------------------------------------------------------------------------------

/** Attempts at one send before it is given up; waits between them. */
const MAX_ATTEMPTS = 5
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000]
/** A run stops after this many failures in a row (the rest waits for the next run). */
const MAX_FAILURES_IN_A_ROW = 3
/** Sends per run: the job runs every minute, so a big day is spread over several minutes. */
const SENDS_PER_RUN = 12
/** A send left 'enviando' longer than this was cut short by a crash: it may have gone out, so it is not repeated. */
const STUCK_SEND_MS = 10 * MINUTE
/** A number whose WhatsApp is not connected is tried again after this long. */
const DISCONNECTED_RETRY_MS = 5 * MINUTE

type SendRow = typeof reguaEnvios.$inferSelect

/** Takes one due message in hand, in this process only (a conditional UPDATE; PostgreSQL skips rows another holds). */
async function claimNext(ctx: Ctx): Promise<SendRow | undefined> {
	const at = now(ctx.clock)
	const skipLocked = onPostgres(ctx.db) ? sql` for update skip locked` : sql``
	return (
		await writeTransaction(ctx.db, (tx) =>
			sqlWriteRows<SendRow>(
				tx,
				sql`update regua_envios set status = 'enviando', tentativas = tentativas + 1, proxima_tentativa = ${at}
				where status = 'pendente' and id = (select id from regua_envios where status = 'pendente' and proxima_tentativa <= ${at}
					order by id limit 1${skipLocked})
				returning *`
			)
		)
	)[0]
}

/** What a message says about its parcel, read when it is sent. */
async function parcelFacts(db: DbOrTx, parcelaId: number) {
	return (
		await db
			.select({
				parcel: carneParcelas,
				total: carnes.numero_parcelas,
				carneStatus: carnes.status,
				razao: companies.razao,
				fone: companies.fone,
				bloqueio: companies.bloqueio_inadimplencia
			})
			.from(carneParcelas)
			.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
			.leftJoin(companies, eq(companies.codigo, carneParcelas.empresa_codigo))
			.where(eq(carneParcelas.id, parcelaId))
	)[0]
}
type ParcelFacts = NonNullable<Awaited<ReturnType<typeof parcelFacts>>>

/** The values a step's template is filled with. */
function dunningValues(f: Omit<ParcelFacts, 'carneStatus' | 'fone' | 'bloqueio'>, representante: string, today: string): DunningValues {
	const p = f.parcel
	return {
		empresa_nome: f.razao ?? `Empresa ${p.empresa_codigo}`,
		parcela: String(p.numero),
		total_parcelas: String(f.total),
		valor: formatBrl(p.valor_centavos),
		vencimento: formatBrDate(p.vencimento),
		dias_atraso: String(Math.max(0, daysBetween(p.vencimento, today))),
		linha_digitavel: p.linha_digitavel ?? '—',
		pix_copia_cola: p.pix_copia_cola ?? '—',
		link_boleto: p.boleto_url ?? p.invoice_url ?? '—',
		representante_nome: representante
	}
}

/** The portal's own words for the warning before a block and for the block lifted. */
function fixedText(kind: 'aviso_bloqueio' | 'desbloqueio', v: DunningValues, daysToBlock: number, blockDate: string): string {
	if (kind === 'desbloqueio')
		return `✅ *Sistemas liberados*\n\nOlá, *${v.empresa_nome}*! Não há mais parcelas em atraso e os seus sistemas já estão liberados de novo. Obrigado!\n\n_${v.representante_nome}_`
	const when = `${daysToBlock} ${daysToBlock === 1 ? 'dia' : 'dias'}`
	return `🔒 *Aviso de bloqueio*\n\nOlá, *${v.empresa_nome}*.\n\nA parcela ${v.parcela}/${v.total_parcelas} de *${v.valor}* venceu em *${v.vencimento}* e continua em aberto: sua licença será bloqueada em ${when} (${formatBrDate(blockDate)}) se o pagamento não for feito. Assim que o pagamento for confirmado, os sistemas voltam a funcionar sozinhos.\n\nBoleto: ${v.link_boleto}\nPIX copia e cola: ${v.pix_copia_cola}\n\nSe já pagou, desconsidere esta mensagem.\n\n_${v.representante_nome}_`
}

/** Whether the client's number asked the bot for no more automatic messages (PARAR). */
async function optedOut(db: DbOrTx, phone: string): Promise<boolean> {
	return !!(
		await db
			.select({ key: whatsappOptOuts.phone_key })
			.from(whatsappOptOuts)
			.where(eq(whatsappOptOuts.phone_key, phoneKey(phone)))
	)[0]
}

/**
 * The phone and text of a claimed message, from the parcel, the company and the schedule as they are now, or why it no
 * longer goes: the parcel was paid, cancelled or removed (or moved to a new cycle); the day it was chosen for passed;
 * the schedule, the step or the blocking was switched off; the phone is missing, invalid or said PARAR.
 */
async function settleMessage(ctx: Ctx, row: SendRow, today: string): Promise<{ telefone: string; texto: string } | string> {
	const facts = await parcelFacts(ctx.db, row.parcela_id)
	if (!facts) return 'A parcela não existe mais.'
	const p = facts.parcel
	const rep = await findRepresentativeByCnpj(ctx.db, row.representante_cnpj)
	const schedule = await scheduleOf(ctx.db, row.representante_cnpj)
	let texto: string
	const values = dunningValues(facts, rep?.nome ?? 'Seu representante', today)
	if (row.tipo === 'desbloqueio') {
		texto = fixedText('desbloqueio', values, 0, today)
	} else {
		if (isPaid(p.status)) return 'A parcela foi paga antes do envio.'
		if (!(OPEN_STATUSES as readonly string[]).includes(p.status) || facts.carneStatus !== 'ativo' || p.ciclo !== row.ciclo)
			return 'A parcela foi cancelada ou removida antes do envio.'
		if (isoDateInSaoPaulo(new Date(row.criado_em)) !== today) return 'O dia deste envio passou sem que ele saísse: o próximo passo segue.'
		if (!schedule.ativa) return 'A régua de cobrança foi desligada antes do envio.'
		if (row.tipo === 'lembrete') {
			const step = schedule.passos.find((s) => s.dias === row.dias && s.ativo)
			if (!step) return 'O passo foi desligado ou removido da régua antes do envio.'
			texto = renderTemplate(step.template_mensagem, values)
		} else {
			if (schedule.bloquear_apos_dias === null) return 'O bloqueio por atraso foi desligado antes do envio.'
			if (facts.bloqueio) return 'A empresa já está bloqueada por falta de pagamento.'
			const overdue = daysBetween(p.vencimento, today)
			const daysToBlock = Math.max(1, schedule.bloquear_apos_dias - overdue)
			texto = fixedText('aviso_bloqueio', values, daysToBlock, addDaysIso(today, daysToBlock))
		}
	}
	const telefone = facts.fone ? normaliseBrazilianPhone(facts.fone) : null
	if (!telefone) return facts.fone ? 'Telefone da empresa inválido.' : 'Empresa sem telefone cadastrado.'
	if (await optedOut(ctx.db, telefone)) return 'Número descadastrado pelo cliente (PARAR).'
	return { telefone, texto }
}

export interface SendOptions {
	/** How a wait for the number's turn is waited (tests record them). */
	sleep?: (ms: number) => Promise<void>
}

/** The gateway of each representative's number in one run (null: not configured or not connected now). */
function gatewayCache(ctx: Ctx) {
	const gateways = new Map<string, Promise<EvolutionClient | null>>()
	return (cnpj: string) => {
		let gateway = gateways.get(cnpj)
		if (!gateway) {
			gateway = (async () => {
				const rep = await findRepresentativeByCnpj(ctx.db, cnpj)
				const client = await evolutionGateway(ctx, { instance: rep?.evo_instancia })
				if (!client) return null
				try {
					return (await client.connectionState()).state === 'open' ? client : null
				} catch {
					return null
				}
			})()
			gateways.set(cnpj, gateway)
		}
		return gateway
	}
}

/**
 * Sends what is due, paced on each sending number, through the representative's own instance when they have one;
 * stops after SENDS_PER_RUN attempts or several failures in a row, leaving the rest for the next run. A message whose
 * number is not connected waits a few minutes; one cut short by a crash is set aside, never repeated blindly.
 */
async function sendDue(ctx: Ctx, options: SendOptions = {}) {
	const result = { enviadas: 0, falhas: 0, ignoradas: 0 }
	await writeTransaction(ctx.db, (tx) =>
		tx
			.update(reguaEnvios)
			.set({ status: 'incerta', erro: 'O envio foi interrompido: a mensagem pode ter sido enviada. Confira antes de reenviar.' })
			.where(
				and(
					eq(reguaEnvios.status, 'enviando'),
					lte(reguaEnvios.proxima_tentativa, new Date(ctx.clock.now().getTime() - STUCK_SEND_MS).toISOString())
				)
			)
	)
	const gatewayOf = gatewayCache(ctx)
	let failuresInARow = 0
	let attempted = 0
	while (attempted < SENDS_PER_RUN && failuresInARow < MAX_FAILURES_IN_A_ROW) {
		const row = await claimNext(ctx)
		if (!row) break
		// Every write of the job proves its lease (a transaction each): a run that lost it stops here.
		const update = (values: Partial<SendRow>) =>
			writeTransaction(ctx.db, (tx) => tx.update(reguaEnvios).set(values).where(eq(reguaEnvios.id, row.id)))
		const later = (ms: number, erro: string | null) =>
			update({
				status: 'pendente',
				tentativas: row.tentativas - 1,
				erro,
				proxima_tentativa: new Date(ctx.clock.now().getTime() + ms).toISOString()
			})
		const message = await settleMessage(ctx, row, brazilNow(ctx.clock.now()).today)
		if (typeof message === 'string') {
			await update({ status: 'ignorada', erro: message, tentativas: row.tentativas - 1 })
			result.ignoradas++
			continue
		}
		const gateway = await gatewayOf(row.representante_cnpj)
		if (!gateway) {
			await later(DISCONNECTED_RETRY_MS, 'O WhatsApp não está configurado ou conectado: nova tentativa em alguns minutos.')
			continue
		}
		if (!(await waitForTurn(ctx, row.representante_cnpj, { sleep: options.sleep }))) {
			await later(0, null)
			break
		}
		attempted++
		await update(message)
		try {
			const answer = await gateway.sendText(message.telefone, message.texto)
			await update({ status: 'enviada', message_id: answer.messageId, erro: null, enviado_em: now(ctx.clock) })
			result.enviadas++
			failuresInARow = 0
		} catch (error) {
			const uncertain = error instanceof EvolutionError && error.uncertain
			const giveUp = uncertain || row.tentativas >= MAX_ATTEMPTS
			await update({
				status: uncertain ? 'incerta' : giveUp ? 'falhou' : 'pendente',
				erro: String((error as Error)?.message ?? error).slice(0, 500),
				proxima_tentativa: new Date(ctx.clock.now().getTime() + (RETRY_DELAYS_MS[row.tentativas - 1] ?? 0)).toISOString()
			})
			result.falhas++
			failuresInARow++
		}
	}
	return result
}

// The run -------------------------------------------------------------------------------------------------------------

/** The job's name: its lease keeps the scheduled run and 'Executar agora' from running side by side. */
export const DUNNING_JOB = 'billing.regua-cobranca'
/** A run paces its sends a few seconds apart: the lease covers the longest run. */
export const DUNNING_LEASE_MS = 5 * MINUTE

/**
 * Each representative's day, once their send time has come (weekends only when their schedule allows). `force`
 * ('Executar agora') does not wait for the send time and runs a day already run again (what was chosen is not chosen
 * twice).
 */
export async function chooseDay(ctx: Ctx, options: { force?: boolean } = {}): Promise<DayResult> {
	const { today, time, weekend } = brazilNow(ctx.clock.now())
	const day = { escolhidas: 0, bloqueadas: 0 }
	const reps = await ctx.db.selectDistinct({ cnpj: carnes.representante_cnpj }).from(carnes).where(eq(carnes.status, 'ativo'))
	for (const { cnpj } of reps) {
		const schedule = await scheduleOf(ctx.db, cnpj)
		if (!schedule.ativa || (weekend && !schedule.enviar_fins_semana)) continue
		if (!options.force && time < schedule.horario_envio) continue
		const done = await runDay(ctx, cnpj, schedule, today, !!options.force)
		day.escolhidas += done.escolhidas
		day.bloqueadas += done.bloqueadas
	}
	return day
}

/** The job's work every minute (and, forced, 'Executar agora'): the days that are due, then the sends that are due. */
export async function runDunning(ctx: Ctx, options: SendOptions & { force?: boolean } = {}) {
	const day = await chooseDay(ctx, options)
	const sent = await sendDue(ctx, options)
	if (day.escolhidas + day.bloqueadas + sent.enviadas + sent.falhas + sent.ignoradas > 0) ctx.log('dunning.run', { ...day, ...sent })
	return { ...day, ...sent }
}

/** Messages still waiting to go (chosen, not yet sent or given up). */
async function waiting(db: DbOrTx): Promise<number> {
	return (
		(
			await db
				.select({ n: count() })
				.from(reguaEnvios)
				.where(inArray(reguaEnvios.status, ['pendente', 'enviando']))
		)[0]?.n ?? 0
	)
}

/**
 * POST /api/regua-cobranca/executar: the same run, forced, under the job's lease, so it never runs beside the
 * scheduled one; while another run holds it, messages are going out, and that is said (`em_andamento`).
 */
export async function runDunningNow(ctx: Ctx, options: SendOptions = {}): Promise<DunningRunResult> {
	const holder = `manual-${crypto.randomUUID()}`
	let result: DunningRunResult | null = null
	const ran = await withLease(ctx, DUNNING_JOB, holder, DUNNING_LEASE_MS, async () => {
		const r = await runDunning(ctx, { ...options, force: true })
		const left = await waiting(ctx.db)
		const { weekend } = brazilNow(ctx.clock.now())
		const message =
			r.enviadas + r.falhas + r.ignoradas + r.escolhidas + r.bloqueadas === 0 && left === 0
				? `Nada a enviar hoje${weekend ? ' (fim de semana: só as réguas que enviam nos fins de semana rodam)' : ''}.`
				: `${r.enviadas} mensagem(ns) enviada(s), ${r.falhas} falha(s), ${r.ignoradas} não enviada(s)${r.bloqueadas ? `, ${r.bloqueadas} empresa(s) bloqueada(s)` : ''}${left ? `; ${left} na fila, enviada(s) nos próximos minutos` : ''}.`
		result = { message, ...r, a_enviar: left, em_andamento: false }
	})
	if (ran && result) return result
	const inProgress = !!(
		await ctx.db
			.select({ name: jobLeases.name })
			.from(jobLeases)
			.where(and(eq(jobLeases.name, DUNNING_JOB), gt(jobLeases.expires_at, now(ctx.clock))))
	)[0]
	return {
		message: 'A régua de cobrança já está enviando agora: acompanhe as mensagens nos cartões das parcelas.',
		escolhidas: 0,
		bloqueadas: 0,
		enviadas: 0,
		falhas: 0,
		ignoradas: 0,
		a_enviar: await waiting(ctx.db),
		em_andamento: inProgress
	}
}

// The parcel's card ---------------------------------------------------------------------------------------------------

/** The schedule's messages about these parcels, oldest first, for their cards on Pagamentos de Parcelas. */
export async function dunningSendsOf(db: DbOrTx, parcelIds: number[]): Promise<Map<number, DunningSendView[]>> {
	const byParcel = new Map<number, DunningSendView[]>()
	if (parcelIds.length === 0) return byParcel
	const rows = await db
		.select({
			parcela: reguaEnvios.parcela_id,
			tipo: reguaEnvios.tipo,
			dias: reguaEnvios.dias,
			status: reguaEnvios.status,
			criado_em: reguaEnvios.criado_em,
			enviado_em: reguaEnvios.enviado_em,
			erro: reguaEnvios.erro
		})
		.from(reguaEnvios)
		.where(inArray(reguaEnvios.parcela_id, parcelIds))
		.orderBy(asc(reguaEnvios.id))
	for (const r of rows) {
		const list = byParcel.get(r.parcela) ?? []
		list.push({
			tipo: r.tipo,
			dias: r.dias,
			status: r.status,
			em: r.enviado_em ?? r.criado_em,
			erro: r.status === 'enviada' ? null : r.erro
		})
		byParcel.set(r.parcela, list)
	}
	return byParcel
}
