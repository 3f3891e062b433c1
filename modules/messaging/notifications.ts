import { onPostgres } from '../../db/dialect'
import { sqlWriteRows } from '../../db/query'
import { type SQL, and, asc, count, desc, eq, gt, gte, inArray, lte, max, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { SYSTEM_CATALOGUE, companies } from '../companies'
import { type Clock, DAY, addDaysIso, brazilNow, formatBrDate, isoDateInSaoPaulo, pagination, startOfDayInSaoPaulo } from '../core'
import { type AppContext, notFound, writeTransaction } from '../core/server'
import { LeaseLost, jobLeases, withLease } from '../jobs'
import { EvolutionError, normaliseBrazilianPhone, phoneKey } from '../evolution'
import { representatives } from '../resellers'
import { getSetting } from '../settings'
import { evolutionGateway } from './gateway'
import {
	NOTIFICATION_DEFAULTS,
	NOTIFICATION_LABELS,
	type NotificationSetting,
	type NotificationSettingBody,
	type NotificationSettingPatch,
	type NotificationSample,
	type NotificationType,
	type PlannedNotification,
	type RunNowResult,
	type RunResult,
	type TemplateValues,
	type TodaySends,
	renderTemplate
} from './model'
import { notificationSends, notificationSettings, whatsappOptOuts } from './schema'
import { pauseBetweenSends } from './send-limits'

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config' | 'log' | 'secrets' | 'gateways'>

/** An expired licence is told about only if it expired this recently (no messages to companies gone for years). */
export const EXPIRED_LOOKBACK_DAYS = 30
/** Attempts at one send before it is given up; waits between them. */
const MAX_ATTEMPTS = 5
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000]
/** A run stops after this many failures in a row (the rest waits for the next run). */
const MAX_FAILURES_IN_A_ROW = 3
/** Sends per run: the job runs every minute, so a big day is spread over several minutes. */
const SENDS_PER_RUN = 12
/** A send left 'enviando' longer than this was cut short by a crash: it may have gone out, so it is not repeated. */
const STUCK_SEND_MS = 10 * 60_000

/** The portal's own default message of each type, in WhatsApp style, signed with the vendor's name. */
export function defaultTemplate(tipo: NotificationType, vendor: string): string {
	const sign = `\n\n_${vendor}_`
	switch (tipo) {
		case 'whatsapp_expiracao':
			return `⏰ *Sua licença vence em breve*\n\nOlá, *{{empresa_nome}}*!\n\nA licença de {{sistema}} vence em *{{data_vencimento}}* (faltam {{dias_restantes}} dias).\n\nPara não ficar sem os sistemas, fale com {{representante_nome}} e renove com antecedência. 😉${sign}`
		case 'whatsapp_expirada':
			return `⚠️ *Licença vencida*\n\nOlá, *{{empresa_nome}}*.\n\nA licença de {{sistema}} venceu em *{{data_vencimento}}* e os sistemas podem parar de funcionar.\n\nFale com {{representante_nome}} para renovar e voltar a usar normalmente.${sign}`
		case 'whatsapp_boas_vindas':
			return `🎉 *Bem-vindo(a)!*\n\nOlá, *{{empresa_nome}}*! Que bom ter você com a gente.\n\nSua licença de {{sistema}} está ativa até *{{data_vencimento}}*. Qualquer dúvida, fale com {{representante_nome}}.${sign}`
	}
}

function toView(row: typeof notificationSettings.$inferSelect): NotificationSetting {
	const { created_at: _c, updated_at: _u, ativado_em: _a, boas_vindas_apos_codigo: _b, ...view } = row
	return view
}

export async function listNotificationSettings(db: Db): Promise<NotificationSetting[]> {
	return (await db.select().from(notificationSettings).orderBy(asc(notificationSettings.id))).map(toView)
}

/** What turning a type on records: when, and the last company registered before it (no welcome to those). */
async function turnedOn(tx: DbOrTx, now: string) {
	const last = (await tx.select({ codigo: max(companies.codigo) }).from(companies))[0]?.codigo ?? 0
	return { ativado_em: now, boas_vindas_apos_codigo: last }
}

/** A notification type just created or changed: logged and answered the same way either way. */
async function saved(tx: DbOrTx, clock: Clock, actor: Pick<SessionUser, 'id' | 'nome'>, row: typeof notificationSettings.$inferSelect) {
	await logActivity(
		tx,
		clock,
		'notifications.setting-saved',
		{ tipo: NOTIFICATION_LABELS[row.tipo], ativo: row.ativo },
		{ actor, entityId: row.id }
	)
	return toView(row)
}

/** Turns a type on for the first time with the defaults of §4 (or what was sent), or updates it if it exists. */
export function createNotificationSetting(
	ctx: Ctx,
	actor: Pick<SessionUser, 'id' | 'nome'>,
	body: NotificationSettingBody
): Promise<NotificationSetting> {
	const now = ctx.clock.now().toISOString()
	return writeTransaction(ctx.db, async (tx) => {
		const existing = (await tx.select().from(notificationSettings).where(eq(notificationSettings.tipo, body.tipo)))[0]
		const values = {
			ativo: body.ativo,
			dias_antecedencia: body.dias_antecedencia ?? existing?.dias_antecedencia ?? NOTIFICATION_DEFAULTS.dias_antecedencia,
			template_mensagem:
				body.template_mensagem ?? existing?.template_mensagem ?? defaultTemplate(body.tipo, await getSetting(tx, 'app.fornecedor_nome')),
			horario_envio: body.horario_envio ?? existing?.horario_envio ?? NOTIFICATION_DEFAULTS.horario_envio,
			enviar_fins_semana: body.enviar_fins_semana ?? existing?.enviar_fins_semana ?? NOTIFICATION_DEFAULTS.enviar_fins_semana,
			...(body.ativo && !existing?.ativo ? await turnedOn(tx, now) : {}),
			updated_at: now
		}
		const row = (
			await tx
				.insert(notificationSettings)
				.values({ tipo: body.tipo, ...values, created_at: now })
				.onConflictDoUpdate({ target: notificationSettings.tipo, set: values })
				.returning()
		)[0]
		return saved(tx, ctx.clock, actor, row)
	})
}

export function updateNotificationSetting(
	ctx: Ctx,
	actor: Pick<SessionUser, 'id' | 'nome'>,
	id: number,
	patch: NotificationSettingPatch
): Promise<NotificationSetting> {
	const now = ctx.clock.now().toISOString()
	return writeTransaction(ctx.db, async (tx) => {
		const current = (await tx.select().from(notificationSettings).where(eq(notificationSettings.id, id)))[0]
		if (!current) throw notFound('Configuração de notificação não encontrada.')
		const row = (
			await tx
				.update(notificationSettings)
				.set({ ...patch, ...(patch.ativo === true && !current.ativo ? await turnedOn(tx, now) : {}), updated_at: now })
				.where(eq(notificationSettings.id, id))
				.returning()
		)[0]
		return saved(tx, ctx.clock, actor, row)
	})
}

type Setting = typeof notificationSettings.$inferSelect

/** The companies a type tells today (whether or not they were told already). */
function dueCompanies(setting: Setting, today: string) {
	switch (setting.tipo) {
		case 'whatsapp_expiracao':
			return sql`${companies.validade_licenca} > ${today} and ${companies.validade_licenca} <= ${addDaysIso(today, setting.dias_antecedencia)}`
		case 'whatsapp_expirada':
			return sql`${companies.validade_licenca} <= ${today} and ${companies.validade_licenca} > ${addDaysIso(today, -EXPIRED_LOOKBACK_DAYS)}`
		case 'whatsapp_boas_vindas':
			return sql`${companies.codigo} > ${setting.boas_vindas_apos_codigo ?? Number.MAX_SAFE_INTEGER}`
	}
}

/** The licence date a notice is about: the send log's key with the type and company (empty for a welcome). */
const licenceDateOf = (tipo: NotificationType) =>
	tipo === 'whatsapp_boas_vindas' ? sql<string>`''` : sql<string>`coalesce(${companies.validade_licenca}, '')`

/** Not yet in the send log for this type, company and licence date. */
const notToldYet = (tipo: NotificationType) =>
	sql`not exists (select 1 from ${notificationSends} s where s.tipo = ${tipo} and s.empresa_codigo = ${companies.codigo}
		and s.data_licenca = ${licenceDateOf(tipo)})`

// The systems the company uses (unblocked), named for {{sistema}}.
const systemNames = sql<string>`concat_ws(', ', ${sql.join(
	SYSTEM_CATALOGUE.map((s) => sql.raw(`case when companies.${s.flag} = 'N' then '${s.name}' end`)),
	sql`, `
)})`

/** What a message says about companies: one query for many (the preview) or one (a send). */
function companyFacts(db: DbOrTx, where: SQL | undefined) {
	return db
		.select({
			codigo: companies.codigo,
			razao: companies.razao,
			fone: companies.fone,
			validade_licenca: companies.validade_licenca,
			representante: representatives.nome,
			sistemas: systemNames
		})
		.from(companies)
		.leftJoin(representatives, eq(representatives.cnpj, companies.cnpj_representante))
		.where(where)
		.orderBy(asc(companies.codigo))
}
type Candidate = Awaited<ReturnType<ReturnType<typeof companyFacts>['all']>>[number]

function valuesFor(c: Candidate, today: string): TemplateValues {
	const days = c.validade_licenca ? Math.round((Date.parse(c.validade_licenca) - Date.parse(today)) / DAY) : 0
	return {
		empresa_nome: c.razao,
		sistema: c.sistemas || 'seus sistemas',
		data_vencimento: c.validade_licenca ? formatBrDate(c.validade_licenca) : 'sem data',
		dias_restantes: String(Math.max(0, days)),
		representante_nome: c.representante ?? 'seu representante'
	}
}

/** The phones that opted out through the bot (PARAR), by their phone key: a small table, read once per run. */
async function optedOut(db: DbOrTx): Promise<Set<string>> {
	return new Set((await db.select({ key: whatsappOptOuts.phone_key }).from(whatsappOptOuts)).map((r) => r.key))
}

/** Who receives it: the company's phone as 55 + DDD + number, unless missing, invalid or opted out through the bot. */
function recipient(fone: string | null, optOuts: Set<string>): { telefone: string | null; motivo: string | null } {
	const telefone = fone ? normaliseBrazilianPhone(fone) : null
	if (!telefone) return { telefone: null, motivo: fone ? 'Telefone da empresa inválido.' : 'Empresa sem telefone cadastrado.' }
	return optOuts.has(phoneKey(telefone)) ? { telefone, motivo: 'Número descadastrado pelo cliente (PARAR).' } : { telefone, motivo: null }
}

/** The active types whose daily run is due now (Brazil time, weekends only when allowed), unless switched off globally. */
async function dueTypes(db: Db, now: Date, includeDone: boolean): Promise<Setting[]> {
	if ((await getSetting(db, 'app.notificacoes_habilitadas')) !== 'true') return []
	const { today, time, weekend } = brazilNow(now)
	return (await db.select().from(notificationSettings).where(eq(notificationSettings.ativo, true))).filter(
		(s) => (includeDone || s.ultima_execucao !== today) && time >= s.horario_envio && (!weekend || s.enviar_fins_semana)
	)
}

/** What today's run sends now, type by type (GET /api/notification-settings/preview). */
export async function previewNotifications(ctx: Ctx): Promise<PlannedNotification[]> {
	const { today } = brazilNow(ctx.clock.now())
	const optOuts = await optedOut(ctx.db)
	const planned: PlannedNotification[] = []
	for (const setting of await dueTypes(ctx.db, ctx.clock.now(), true)) {
		for (const c of await companyFacts(ctx.db, and(dueCompanies(setting, today), notToldYet(setting.tipo)))) {
			planned.push({
				tipo: setting.tipo,
				empresa_codigo: c.codigo,
				empresa: c.razao,
				...recipient(c.fone, optOuts),
				texto: renderTemplate(setting.template_mensagem, valuesFor(c, today))
			})
		}
	}
	return planned
}

/** How many companies the template preview offers to render with. */
const SAMPLES = 50

/**
 * GET /api/notification-settings/{id}/amostras: the companies this type tells today, whatever the hour and whether
 * they were told already, with the values their message is filled with; when none, a labelled example dated as the
 * type dates it (about to end in its days, ended yesterday, or a new licence for a year), so the preview never shows
 * a date and days that no message of the type would carry.
 */
export async function notificationSamples(ctx: Ctx, id: number): Promise<NotificationSample[]> {
	const setting = (await ctx.db.select().from(notificationSettings).where(eq(notificationSettings.id, id)))[0]
	if (!setting) throw notFound('Configuração de notificação não encontrada.')
	const { today } = brazilNow(ctx.clock.now())
	const found = await companyFacts(ctx.db, dueCompanies(setting, today)).limit(SAMPLES)
	if (found.length > 0) {
		return found.map((c) => ({ empresa_codigo: c.codigo, empresa: c.razao, exemplo: false, valores: valuesFor(c, today) }))
	}
	const validade = {
		whatsapp_expiracao: addDaysIso(today, setting.dias_antecedencia),
		whatsapp_expirada: addDaysIso(today, -1),
		whatsapp_boas_vindas: addDaysIso(today, 365)
	}[setting.tipo]
	const example = {
		codigo: 0,
		razao: 'Empresa Exemplo Ltda',
		fone: null,
		validade_licenca: validade,
		representante: null,
		sistemas: SYSTEM_CATALOGUE.slice(1, 3)
			.map((s) => s.name)
			.join(', ')
	}
	return [
		{
			empresa_codigo: null,
			empresa: 'Empresa Exemplo (nenhuma empresa recebe este aviso hoje)',
			exemplo: true,
			valores: valuesFor(example, today)
		}
	]
}

/**
 * Writes today's recipients of every due type into the send log as pending rows, with the type's day marked done
 * in the same transaction: one INSERT … SELECT per type, whose unique key skips a row another run already wrote.
 * The phone and the text are settled when the row is sent, from the company as it is then.
 */
export async function chooseRecipients(ctx: Ctx): Promise<number> {
	const now = ctx.clock.now()
	const { today } = brazilNow(now)
	let chosen = 0
	for (const setting of await dueTypes(ctx.db, now, false)) {
		await writeTransaction(ctx.db, async (tx) => {
			// One row back per row written (RETURNING: both databases; SQLite's changes() is its own).
			const written = await sqlWriteRows<{ one: number }>(
				tx,
				sql`
				insert into ${notificationSends} (tipo, empresa_codigo, data_licenca, status, proxima_tentativa, criado_em)
				select ${setting.tipo}, ${companies.codigo}, ${licenceDateOf(setting.tipo)}, 'pendente', ${now.toISOString()}, ${now.toISOString()}
				from ${companies} where ${dueCompanies(setting, today)} and ${notToldYet(setting.tipo)}
				order by ${companies.codigo}
				on conflict do nothing
				returning 1 as one`
			)
			chosen += written.length
			await tx.update(notificationSettings).set({ ultima_execucao: today }).where(eq(notificationSettings.id, setting.id))
		})
	}
	return chosen
}

/**
 * Takes one due send in hand (one worker only, even across processes): pending → enviando. PostgreSQL skips a row
 * another process is taking at the same moment (SKIP LOCKED) instead of waiting for it and taking it again; the outer
 * condition re-checks the status on both databases.
 */
async function claimNext(ctx: Ctx) {
	const now = ctx.clock.now().toISOString()
	const skipLocked = onPostgres(ctx.db) ? sql` for update skip locked` : sql``
	return writeTransaction(
		ctx.db,
		async (tx) =>
			(
				await sqlWriteRows<typeof notificationSends.$inferSelect>(
					tx,
					sql`
		update notification_sends set status = 'enviando', tentativas = tentativas + 1, proxima_tentativa = ${now}
		where status = 'pendente' and id = (
			select id from notification_sends where status = 'pendente' and proxima_tentativa <= ${now} order by id limit 1${skipLocked})
		returning *`
				)
			)[0]
	)
}

/** Writes what became of a claimed send, in a transaction of its own (a leased run proves its lease in it). */
function recordSend(ctx: Ctx, id: number, values: Partial<typeof notificationSends.$inferInsert>) {
	return writeTransaction(ctx.db, async (tx) => {
		await tx.update(notificationSends).set(values).where(eq(notificationSends.id, id))
	})
}

/**
 * The phone and text of a claimed send, from the company and the type as they are now, or why it no longer goes:
 * the company was deleted, its licence date moved (a renewal: the new date gets its own notice), the type was
 * turned off, or the phone is missing, invalid or opted out.
 */
async function settleMessage(
	db: Db,
	row: typeof notificationSends.$inferSelect,
	today: string
): Promise<{ telefone: string; texto: string } | string> {
	const setting = (
		await db
			.select()
			.from(notificationSettings)
			.where(eq(notificationSettings.tipo, row.tipo as NotificationType))
	)[0]
	if (!setting?.ativo) return 'O tipo de notificação foi desligado antes do envio.'
	const company = (await companyFacts(db, eq(companies.codigo, row.empresa_codigo)))[0]
	if (!company) return 'A empresa foi excluída antes do envio.'
	if (setting.tipo !== 'whatsapp_boas_vindas' && (company.validade_licenca ?? '') !== row.data_licenca) {
		return 'A data da licença mudou antes do envio (renovação): a nova data tem o seu próprio aviso.'
	}
	const { telefone, motivo } = recipient(company.fone, await optedOut(db))
	if (motivo || !telefone) return motivo ?? 'Empresa sem telefone cadastrado.'
	return { telefone, texto: renderTemplate(setting.template_mensagem, valuesFor(company, today)) }
}

export interface SendOptions {
	/** How a pause between two sends is waited (tests record them). */
	sleep?: (ms: number) => Promise<void>
}

/**
 * Sends what is due, paced, and stops early when the gateway is not connected or fails several times in a row,
 * leaving the rest for the next run.
 */
export async function sendDue(ctx: Ctx, options: SendOptions = {}): Promise<RunResult> {
	const result = { enviadas: 0, falhas: 0, ignoradas: 0 }
	const nowIso = () => ctx.clock.now().toISOString()
	// A send cut short by a crash may have reached the gateway: it is set aside, never repeated blindly.
	await writeTransaction(ctx.db, async (tx) => {
		await tx
			.update(notificationSends)
			.set({ status: 'incerta', erro: 'O envio foi interrompido: a mensagem pode ter sido enviada. Confira antes de reenviar.' })
			.where(
				and(
					eq(notificationSends.status, 'enviando'),
					lte(notificationSends.proxima_tentativa, new Date(ctx.clock.now().getTime() - STUCK_SEND_MS).toISOString())
				)
			)
	})
	const gateway = await evolutionGateway(ctx)
	if (!gateway) return result
	try {
		if ((await gateway.connectionState()).state !== 'open') return result
	} catch {
		return result
	}
	let failuresInARow = 0
	let attempted = 0
	while (attempted < SENDS_PER_RUN && failuresInARow < MAX_FAILURES_IN_A_ROW) {
		const row = await claimNext(ctx)
		if (!row) break
		const message = await settleMessage(ctx.db, row, brazilNow(ctx.clock.now()).today)
		if (typeof message === 'string') {
			await recordSend(ctx, row.id, { status: 'ignorada', erro: message, tentativas: row.tentativas - 1 })
			result.ignoradas++
			continue
		}
		await recordSend(ctx, row.id, message)
		if (attempted++ > 0) await (options.sleep ?? Bun.sleep)(pauseBetweenSends(ctx.config.whatsappPauseMs))
		try {
			const answer = await gateway.sendText(message.telefone, message.texto)
			await recordSend(ctx, row.id, { status: 'enviada', message_id: answer.messageId, erro: null, enviado_em: nowIso() })
			result.enviadas++
			failuresInARow = 0
		} catch (error) {
			const uncertain = error instanceof EvolutionError && error.uncertain
			const giveUp = uncertain || row.tentativas >= MAX_ATTEMPTS
			await recordSend(ctx, row.id, {
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

/** The job's name: its lease keeps the scheduled run and 'Enviar agora' from sending side by side. */
export const NOTIFICATIONS_JOB = 'messaging.whatsapp-notifications'

/** The job's work every minute (and 'Enviar agora'): choose today's recipients, then send what is due. */
export async function runNotifications(ctx: Ctx, options: SendOptions = {}): Promise<RunResult> {
	await chooseRecipients(ctx)
	const result = await sendDue(ctx, options)
	if (result.enviadas + result.falhas + result.ignoradas > 0) ctx.log('notifications.run', { ...result })
	return result
}

export async function sendLog(db: Db, query: { page: number; limit: number; tipo?: string; status?: string }) {
	const where = and(
		query.tipo ? eq(notificationSends.tipo, query.tipo) : undefined,
		query.status ? eq(notificationSends.status, query.status as (typeof notificationSends.$inferSelect)['status']) : undefined
	)
	const total = (await db.select({ n: count() }).from(notificationSends).where(where))[0]?.n ?? 0
	const entries = await db
		.select({
			id: notificationSends.id,
			tipo: notificationSends.tipo,
			empresa_codigo: notificationSends.empresa_codigo,
			empresa: companies.razao,
			data_licenca: notificationSends.data_licenca,
			telefone: notificationSends.telefone,
			status: notificationSends.status,
			tentativas: notificationSends.tentativas,
			message_id: notificationSends.message_id,
			erro: notificationSends.erro,
			criado_em: notificationSends.criado_em,
			enviado_em: notificationSends.enviado_em
		})
		.from(notificationSends)
		.leftJoin(companies, eq(companies.codigo, notificationSends.empresa_codigo))
		.where(where)
		.orderBy(desc(notificationSends.id))
		.limit(query.limit)
		.offset((query.page - 1) * query.limit)
	return { entries, pagination: pagination(query.page, query.limit, total) }
}

/** PARAR: the number gets no more automatic notifications. VOLTAR undoes it. */
export async function setOptOut(db: Db, now: Date, phone: string, out: boolean) {
	const key = phoneKey(phone)
	if (out) await db.insert(whatsappOptOuts).values({ phone_key: key, criado_em: now.toISOString() }).onConflictDoNothing()
	else await db.delete(whatsappOptOuts).where(eq(whatsappOptOuts.phone_key, key))
}

/** Whether a run (the scheduled one or another 'Enviar agora') holds the job now. */
async function runInProgress(db: DbOrTx, now: Date): Promise<boolean> {
	return !!(
		await db
			.select({ name: jobLeases.name })
			.from(jobLeases)
			.where(and(eq(jobLeases.name, NOTIFICATIONS_JOB), gt(jobLeases.expires_at, now.toISOString())))
	)[0]
}

/**
 * 'Enviar agora': the same run, under the job's lease, so it never runs beside the scheduled one. While another run
 * holds it, messages are going out: that is said (`em_andamento`), not refused as an error.
 */
export async function runNotificationsNow(ctx: Ctx): Promise<RunNowResult> {
	let result: RunResult = { enviadas: 0, falhas: 0, ignoradas: 0 }
	// The process's pid in the holder's name: an operator (and the cluster tests) can tell which instance holds it.
	const holder = `manual-${process.pid}-${crypto.randomUUID()}`
	try {
		const ran = await withLease(ctx, NOTIFICATIONS_JOB, holder, ctx.config.jobLeaseMs, async () => {
			result = await runNotifications(ctx)
		})
		return { ...result, em_andamento: !ran }
	} catch (error) {
		if (!(error instanceof LeaseLost)) throw error
		// This run stalled past its lease and another took the job over: its write was refused, the other run goes on.
		ctx.log('job.fenced', { job: NOTIFICATIONS_JOB, token: error.lease.token })
		return { ...result, em_andamento: true }
	}
}

/** GET /api/notification-settings/hoje: today's sends (Brazil's day), the last one's time, those still to go, and a run in progress. */
export async function todaySends(ctx: Ctx): Promise<TodaySends> {
	const now = ctx.clock.now()
	const since = startOfDayInSaoPaulo(isoDateInSaoPaulo(now))
	const sent = (
		await ctx.db
			.select({ n: count(), last: max(notificationSends.enviado_em) })
			.from(notificationSends)
			.where(and(eq(notificationSends.status, 'enviada'), gte(notificationSends.enviado_em, since)))
	)[0]
	const waiting =
		(
			await ctx.db
				.select({ n: count() })
				.from(notificationSends)
				.where(inArray(notificationSends.status, ['pendente', 'enviando']))
		)[0]?.n ?? 0
	return { enviadas: sent?.n ?? 0, ultimo_envio: sent?.last ?? null, a_enviar: waiting, em_andamento: await runInProgress(ctx.db, now) }
}
