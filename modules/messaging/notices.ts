import { and, desc, eq, or, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { type ActivityEvent, type ActivityParams, logActivity } from '../activity'
import type { SessionUser } from '../auth'
import { type Clock, can, todayIso } from '../core'
import { contains, forbidden, notFound, writeTransaction } from '../core/server'
import { representativeScope, representatives } from '../resellers'
import type { GeneralNoticeBody, IndividualNoticeBody } from './model'
import { generalNotices, individualNotices, noticeReads } from './schema'

/*
 * Who may do what with notices (2-administration §6, decided where the spec is silent):
 * - general notices: everyone reads (representantes only the active ones); only administradores write.
 * - individual notices: administradores read and write all; a gerente reads and writes those of the
 *   representatives they manage; a representante reads and writes only their own (representante_id = own CNPJ).
 * Anything out of scope answers 404, so its existence is not revealed.
 */

type Actor = Pick<SessionUser, 'id' | 'cnpj' | 'nome' | 'tipo'>

const NOT_FOUND = 'Aviso não encontrado.'

export async function listGeneralNotices(db: DbOrTx, user: Actor, search?: string) {
	const where: SQL[] = []
	if (!can(user.tipo, 'notices.general.readInactive')) where.push(eq(generalNotices.ativo, 1))
	if (search?.trim()) {
		const text = search.trim()
		where.push(or(contains(generalNotices.titulo, text), contains(generalNotices.texto, text))!)
	}
	return await db
		.select({
			id: generalNotices.id,
			titulo: generalNotices.titulo,
			texto: generalNotices.texto,
			urgente: generalNotices.urgente,
			ativo: generalNotices.ativo,
			data: generalNotices.data,
			created_at: generalNotices.created_at
		})
		.from(generalNotices)
		.where(and(...where))
		.orderBy(desc(generalNotices.created_at), desc(generalNotices.id))
}

const individualColumns = {
	id: individualNotices.id,
	representante_id: individualNotices.representante_id,
	titulo: individualNotices.titulo,
	texto: individualNotices.texto,
	urgente: individualNotices.urgente,
	ativo: individualNotices.ativo,
	data: individualNotices.data,
	created_at: individualNotices.created_at,
	representante_nome: representatives.nome
}

function shapeIndividual<T extends { representante_nome: string | null }>(row: T) {
	const { representante_nome, ...rest } = row
	return { ...rest, representante: { nome: representante_nome ?? '' } }
}

export async function listIndividualNotices(db: DbOrTx, user: Actor, search?: string) {
	const where: SQL[] = [representativeScope(db, user).on(individualNotices.representante_id)]
	if (search?.trim()) {
		const text = search.trim()
		where.push(
			or(
				contains(individualNotices.titulo, text),
				contains(individualNotices.texto, text),
				contains(representatives.nome, text),
				contains(individualNotices.representante_id, text)
			)!
		)
	}
	return (
		await db
			.select(individualColumns)
			.from(individualNotices)
			.leftJoin(representatives, eq(representatives.cnpj, individualNotices.representante_id))
			.where(and(...where))
			.orderBy(desc(individualNotices.created_at), desc(individualNotices.id))
	).map(shapeIndividual)
}

/** The representatives a user may address an individual notice to (for the dialog's select). */
export async function noticeRecipients(db: DbOrTx, user: Actor) {
	return await db
		.select({ codigo: representatives.codigo, cnpj: representatives.cnpj, nome: representatives.nome })
		.from(representatives)
		.where(representativeScope(db, user).on(representatives.cnpj))
		.orderBy(representatives.nome)
}

async function getGeneral(db: DbOrTx, id: number) {
	const row = (await db.select().from(generalNotices).where(eq(generalNotices.id, id)))[0]
	if (!row) throw notFound(NOT_FOUND)
	return row
}

async function getIndividualInScope(db: DbOrTx, user: Actor, id: number) {
	const row = (await db.select().from(individualNotices).where(eq(individualNotices.id, id)))[0]
	if (!row || !(await representativeScope(db, user).includes(row.representante_id))) throw notFound(NOT_FOUND)
	return row
}

/** A representative the user may address: representantes only themselves; gerentes their own; 404 otherwise. */
async function assertRecipient(db: DbOrTx, user: Actor, cnpj: string) {
	if (!can(user.tipo, 'notices.chooseRepresentative') && cnpj !== user.cnpj) {
		throw forbidden('Representantes só podem criar avisos individuais para si mesmos.')
	}
	const rep = (await db.select({ nome: representatives.nome }).from(representatives).where(eq(representatives.cnpj, cnpj)))[0]
	if (!rep || !(await representativeScope(db, user).includes(cnpj))) throw notFound('Representante não encontrado.')
	return rep
}

/** What a notice's form writes, general or individual. */
function noticeContent(body: GeneralNoticeBody) {
	return { titulo: body.titulo, texto: body.texto, urgente: body.urgente, ativo: body.ativo }
}

/** A new notice's row: its content, dated today unless the form says otherwise. */
function newNotice(clock: Clock, body: GeneralNoticeBody) {
	const now = clock.now().toISOString()
	return { ...noticeContent(body), data: body.data ?? todayIso(clock), created_at: now, updated_at: now }
}

/** A deleted notice's read marks go with it. */
async function forgetReads(tx: DbOrTx, tipo: 'geral' | 'individual', id: number) {
	await tx.delete(noticeReads).where(and(eq(noticeReads.tipo, tipo), eq(noticeReads.aviso_id, id)))
}

export function createGeneralNotice(db: Db, clock: Clock, user: Actor, body: GeneralNoticeBody) {
	return writeTransaction(db, async (tx) => {
		const row = (await tx.insert(generalNotices).values(newNotice(clock, body)).returning())[0]
		await logActivity(tx, clock, 'notices.general-created', { titulo: row.titulo }, { actor: user, entityId: row.id })
		return row
	})
}

export function updateGeneralNotice(db: Db, clock: Clock, user: Actor, id: number, body: GeneralNoticeBody) {
	return writeTransaction(db, async (tx) => {
		const current = await getGeneral(tx, id)
		const row = (
			await tx
				.update(generalNotices)
				.set({
					...noticeContent(body),
					data: body.data ?? current.data,
					updated_at: clock.now().toISOString()
				})
				.where(eq(generalNotices.id, id))
				.returning()
		)[0]
		await logActivity(tx, clock, 'notices.general-updated', { titulo: row.titulo }, { actor: user, entityId: id })
		return row
	})
}

export function deleteGeneralNotice(db: Db, clock: Clock, user: Actor, id: number) {
	return writeTransaction(db, async (tx) => {
		const current = await getGeneral(tx, id)
		await forgetReads(tx, 'geral', id)
		await tx.delete(generalNotices).where(eq(generalNotices.id, id))
		await logActivity(tx, clock, 'notices.general-deleted', { titulo: current.titulo }, { actor: user, entityId: id })
	})
}

/** An individual notice's activity line, filed under the notice and its representative. */
async function logIndividual<E extends Extract<ActivityEvent, `notices.individual-${string}`>>(
	tx: DbOrTx,
	clock: Clock,
	user: Actor,
	event: E,
	notice: { id: number; representante_id: string },
	params: ActivityParams<E>
) {
	await logActivity(tx, clock, event, params, { actor: user, entityId: notice.id, representanteCnpj: notice.representante_id })
}

export function createIndividualNotice(db: Db, clock: Clock, user: Actor, body: IndividualNoticeBody) {
	return writeTransaction(db, async (tx) => {
		const rep = await assertRecipient(tx, user, body.representante_id)
		const row = (
			await tx
				.insert(individualNotices)
				.values({ ...newNotice(clock, body), representante_id: body.representante_id })
				.returning()
		)[0]
		await logIndividual(tx, clock, user, 'notices.individual-created', row, { titulo: row.titulo, representante: rep.nome })
		return { ...row, representante: { nome: rep.nome } }
	})
}

export function updateIndividualNotice(db: Db, clock: Clock, user: Actor, id: number, body: IndividualNoticeBody) {
	return writeTransaction(db, async (tx) => {
		await getIndividualInScope(tx, user, id)
		const rep = await assertRecipient(tx, user, body.representante_id)
		const row = (
			await tx
				.update(individualNotices)
				.set({
					...noticeContent(body),
					representante_id: body.representante_id,
					...(body.data ? { data: body.data } : {}),
					updated_at: clock.now().toISOString()
				})
				.where(eq(individualNotices.id, id))
				.returning()
		)[0]
		await logIndividual(tx, clock, user, 'notices.individual-updated', row, { titulo: row.titulo, representante: rep.nome })
		return { ...row, representante: { nome: rep.nome } }
	})
}

export function deleteIndividualNotice(db: Db, clock: Clock, user: Actor, id: number) {
	return writeTransaction(db, async (tx) => {
		const current = await getIndividualInScope(tx, user, id)
		await forgetReads(tx, 'individual', id)
		await tx.delete(individualNotices).where(eq(individualNotices.id, id))
		await logIndividual(tx, clock, user, 'notices.individual-deleted', current, { titulo: current.titulo })
	})
}

/** A notice as a top-bar notification item: same shape as a notification row, string id, urgent → warning. */
export interface NoticeItem {
	id: string
	title: string
	message: string
	type: 'warning' | 'info'
	read: boolean
	created_at: string
}

/** A notice as a top-bar item ("aviso-geral-7"), read or not by the user whose read marks are `read`. */
function noticeItem(
	kind: 'geral' | 'individual',
	n: { id: number; titulo: string; texto: string; urgente: number; created_at: string },
	read: Set<string>
): NoticeItem {
	return {
		id: `aviso-${kind}-${n.id}`,
		title: n.titulo,
		message: n.texto,
		type: n.urgente ? 'warning' : 'info',
		read: read.has(`${kind}-${n.id}`),
		created_at: n.created_at
	}
}

/** Active general notices and the user's own active individual notices, with this user's read marks. */
export async function noticeItemsFor(db: DbOrTx, user: Pick<SessionUser, 'id' | 'cnpj'>): Promise<NoticeItem[]> {
	const reads = await db
		.select({ tipo: noticeReads.tipo, aviso_id: noticeReads.aviso_id })
		.from(noticeReads)
		.where(eq(noticeReads.user_id, user.id))
	const read = new Set(reads.map((r) => `${r.tipo}-${r.aviso_id}`))
	const general = (
		await db.select().from(generalNotices).where(eq(generalNotices.ativo, 1)).orderBy(desc(generalNotices.created_at)).limit(50)
	).map((n) => noticeItem('geral', n, read))
	const own = (
		await db
			.select()
			.from(individualNotices)
			.where(and(eq(individualNotices.ativo, 1), eq(individualNotices.representante_id, user.cnpj)))
			.orderBy(desc(individualNotices.created_at))
			.limit(50)
	).map((n) => noticeItem('individual', n, read))
	return [...general, ...own]
}

/** Marks notices read for this user; only notices the user can actually see are recorded. */
export async function markNoticesRead(
	db: DbOrTx,
	clock: Clock,
	user: Pick<SessionUser, 'id' | 'cnpj'>,
	ids: { tipo: 'geral' | 'individual'; id: number }[]
): Promise<number> {
	if (ids.length === 0) return 0
	const visible = new Set((await noticeItemsFor(db, user)).filter((n) => !n.read).map((n) => n.id))
	const now = clock.now().toISOString()
	let count = 0
	for (const { tipo, id } of ids) {
		if (!visible.has(`aviso-${tipo}-${id}`)) continue
		await db.insert(noticeReads).values({ user_id: user.id, tipo, aviso_id: id, read_at: now }).onConflictDoNothing()
		count++
		visible.delete(`aviso-${tipo}-${id}`)
	}
	return count
}
