import { type SQL, and, eq, ne, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import {
	type Clock,
	PASSWORD_MESSAGES,
	ROLE_LABELS,
	formatBrDate,
	csvFilename,
	formatCnpj,
	isoDateInSaoPaulo,
	normalizeCnpj,
	passwordUsesCnpj,
	todayIso
} from '../core'
import {
	type CsvColumn,
	badRequest,
	conflict,
	contains,
	csvColumnsResponse,
	invalidDataMessage,
	notFound,
	unprocessable,
	writeTransaction,
	sortedBy
} from '../core/server'
import { type LoginThrottle, type SessionUser, hashPassword, invalidateUserSessions, users, verifyPassword } from '../auth'
import { ensureRepresentativeRecord } from '../resellers'
import type { ChangePasswordBody, ProfileUpdate, UserCreate, UserListQuery, UserUpdate, UserView } from './model'

export const USER_MESSAGES = {
	notFound: 'Usuário não encontrado.',
	duplicateCnpj: 'Já existe um usuário com este CNPJ.',
	deleteSelf: 'Você não pode excluir seu próprio usuário.',
	deactivateSelf: 'Você não pode desativar seu próprio usuário.',
	lastAdmin: 'Não é possível remover o último administrador ativo do sistema.',
	wrongCurrentPassword: 'Senha atual incorreta'
}

const userColumns = {
	id: users.id,
	cnpj: users.cnpj,
	nome: users.nome,
	tipo: users.tipo,
	representante_id: users.representante_id,
	email: users.email,
	ativo: users.ativo,
	created_at: users.created_at
}

async function getUserView(db: DbOrTx, id: number): Promise<UserView> {
	const row = (await db.select(userColumns).from(users).where(eq(users.id, id)))[0]
	if (!row) throw notFound(USER_MESSAGES.notFound)
	return row
}

/** Every user (administrators only), in the chosen order; `search` matches name, CNPJ (masked or not) or e-mail. */
export async function listUsers(db: DbOrTx, query: UserListQuery = { search: '', sort: 'nome', order: 'asc' }): Promise<UserView[]> {
	let where: SQL | undefined
	const search = query.search
	if (search) {
		const bare = normalizeCnpj(search)
		where = or(
			contains(users.nome, search),
			contains(sql`coalesce(${users.email}, '')`, search),
			contains(users.cnpj, search),
			bare ? contains(users.cnpj, bare) : undefined
		)
	}
	return await db
		.select(userColumns)
		.from(users)
		.where(where)
		.orderBy(sortedBy(users[query.sort], query.order), sortedBy(users.id, query.order))
}

const USER_CSV_COLUMNS: CsvColumn<UserView>[] = [
	['Nome', (u) => u.nome],
	['CNPJ', (u) => formatCnpj(u.cnpj)],
	['Tipo', (u) => ROLE_LABELS[u.tipo]],
	['E-mail', (u) => u.email],
	['Ativo', (u) => (u.ativo ? 'Sim' : 'Não')],
	['Data de criação', (u) => formatBrDate(isoDateInSaoPaulo(new Date(u.created_at)))]
]

/** GET /api/users/export: the filtered list, in its order, as a pt-BR spreadsheet. */
export async function exportUsers(db: DbOrTx, clock: Clock, query: UserListQuery): Promise<Response> {
	return csvColumnsResponse(csvFilename('usuarios', todayIso(clock)), USER_CSV_COLUMNS, await listUsers(db, query))
}

async function otherActiveAdmins(db: DbOrTx, exceptId: number): Promise<number> {
	const row = (
		await db
			.select({ n: sql<number>`count(*)` })
			.from(users)
			.where(and(eq(users.tipo, 'administrador'), eq(users.ativo, true), ne(users.id, exceptId)))
	)[0]
	return Number(row?.n ?? 0)
}

async function assertCnpjFree(db: DbOrTx, cnpj: string, exceptId?: number) {
	const clash = (
		await db
			.select({ id: users.id })
			.from(users)
			.where(exceptId ? and(eq(users.cnpj, cnpj), ne(users.id, exceptId)) : eq(users.cnpj, cnpj))
	)[0]
	if (clash) throw conflict(USER_MESSAGES.duplicateCnpj, 'DUPLICATE_CNPJ')
}

export async function createUserAccount(db: Db, clock: Clock, actor: SessionUser, input: UserCreate): Promise<UserView> {
	await assertCnpjFree(db, input.cnpj)
	const hash = await hashPassword(input.senha)
	const now = clock.now().toISOString()
	const id = await writeTransaction(db, async (tx) => {
		await assertCnpjFree(tx, input.cnpj)
		const created = (
			await tx
				.insert(users)
				.values({
					cnpj: input.cnpj,
					nome: input.nome,
					email: input.email,
					tipo: input.tipo,
					representante_id: input.tipo === 'gerente' ? input.representante_id : null,
					ativo: input.ativo ?? true,
					senha_hash: hash,
					created_at: now,
					updated_at: now
				})
				.returning({ id: users.id })
		)[0]
		const newRecord = input.tipo === 'representante' && (await ensureRepresentativeRecord(tx, clock, input))
		await logActivity(
			tx,
			clock,
			'users.created',
			{ nome: input.nome, papel: ROLE_LABELS[input.tipo], representativeCreated: newRecord },
			{ actor, entityId: created.id, representanteCnpj: input.tipo === 'representante' ? input.cnpj : null }
		)
		return created.id
	})
	return getUserView(db, id)
}

/**
 * Edits a user. A blank password keeps the current one; a new one ends the user's sessions (but not the
 * caller's own). A change of type or a deactivation ends all their sessions. The last active
 * administrador cannot be demoted or deactivated, and nobody deactivates themself.
 */
export async function updateUserAccount(
	db: Db,
	clock: Clock,
	actor: SessionUser,
	actorSessionId: string,
	id: number,
	input: UserUpdate
): Promise<UserView> {
	await getUserView(db, id)
	const hash = input.senha ? await hashPassword(input.senha) : null
	await writeTransaction(db, async (tx) => {
		const current = (await tx.select().from(users).where(eq(users.id, id)))[0]
		if (!current) throw notFound(USER_MESSAGES.notFound)
		const ativo = input.ativo ?? current.ativo
		if (id === actor.id && !ativo) throw unprocessable(USER_MESSAGES.deactivateSelf, 'SELF_DEACTIVATE')
		const wasActiveAdmin = current.tipo === 'administrador' && current.ativo
		if (wasActiveAdmin && (input.tipo !== 'administrador' || !ativo) && (await otherActiveAdmins(tx, id)) === 0) {
			throw conflict(USER_MESSAGES.lastAdmin, 'LAST_ADMIN')
		}
		if (input.cnpj !== current.cnpj) await assertCnpjFree(tx, input.cnpj, id)

		await tx
			.update(users)
			.set({
				cnpj: input.cnpj,
				nome: input.nome,
				email: input.email,
				tipo: input.tipo,
				representante_id: input.tipo === 'gerente' ? input.representante_id : null,
				ativo,
				...(hash ? { senha_hash: hash } : {}),
				updated_at: clock.now().toISOString()
			})
			.where(eq(users.id, id))
		const newRecord = input.tipo === 'representante' && (await ensureRepresentativeRecord(tx, clock, input))

		const keep = id === actor.id ? actorSessionId : undefined
		if (input.tipo !== current.tipo || !ativo || input.cnpj !== current.cnpj || hash) await invalidateUserSessions(tx, id, keep)

		await logActivity(
			tx,
			clock,
			'users.updated',
			{ nome: input.nome, papel: ROLE_LABELS[input.tipo], passwordReset: !!hash, representativeCreated: newRecord },
			{ actor, entityId: id, representanteCnpj: input.tipo === 'representante' ? input.cnpj : null }
		)
	})
	return getUserView(db, id)
}

/** Deletes a user and their sessions; never oneself, never the last active administrador. A representative record stays. */
export async function deleteUserAccount(db: Db, clock: Clock, actor: SessionUser, id: number) {
	if (id === actor.id) throw unprocessable(USER_MESSAGES.deleteSelf, 'SELF_DELETE')
	await writeTransaction(db, async (tx) => {
		const current = (await tx.select().from(users).where(eq(users.id, id)))[0]
		if (!current) throw notFound(USER_MESSAGES.notFound)
		if (current.tipo === 'administrador' && current.ativo && (await otherActiveAdmins(tx, id)) === 0) {
			throw conflict(USER_MESSAGES.lastAdmin, 'LAST_ADMIN')
		}
		await invalidateUserSessions(tx, id)
		await tx.delete(users).where(eq(users.id, id))
		await logActivity(
			tx,
			clock,
			'users.deleted',
			{ nome: current.nome, papel: ROLE_LABELS[current.tipo] },
			{ actor, entityId: id, representanteCnpj: current.tipo === 'representante' ? current.cnpj : null }
		)
	})
}

/**
 * The signed-in user's own password: checks the current one (throttled like a login, on the same count: a stolen
 * session cannot guess it faster than the login page), then ends every other session of theirs.
 */
export async function changeOwnPassword(
	deps: { db: Db; clock: Clock; throttle: LoginThrottle },
	caller: { user: SessionUser; sessionId: string; ip: string },
	input: ChangePasswordBody
) {
	const { db, clock, throttle } = deps
	const { user, sessionId } = caller
	if (passwordUsesCnpj(input.newPassword, user.cnpj))
		throw badRequest(invalidDataMessage('newPassword', PASSWORD_MESSAGES.cnpj), 'VALIDATION')
	const row = (await db.select({ senha_hash: users.senha_hash }).from(users).where(eq(users.id, user.id)))[0]
	if (!row) throw notFound(USER_MESSAGES.notFound)
	const right = await throttle.check(user.cnpj, caller.ip, () => verifyPassword(input.currentPassword, row.senha_hash))
	if (!right) throw badRequest(USER_MESSAGES.wrongCurrentPassword, 'WRONG_PASSWORD')
	const hash = await hashPassword(input.newPassword)
	await writeTransaction(db, async (tx) => {
		await tx.update(users).set({ senha_hash: hash, updated_at: clock.now().toISOString() }).where(eq(users.id, user.id))
		await invalidateUserSessions(tx, user.id, sessionId)
		await logActivity(
			tx,
			clock,
			'users.password-changed',
			{ nome: user.nome },
			{ actor: user, entityId: user.id, representanteCnpj: user.tipo === 'representante' ? user.cnpj : null }
		)
	})
}

/** Meu Perfil: the signed-in user's name and e-mail. */
export async function updateOwnProfile(db: Db, clock: Clock, user: SessionUser, input: ProfileUpdate): Promise<UserView> {
	await writeTransaction(db, async (tx) => {
		await tx.update(users).set({ nome: input.nome, email: input.email, updated_at: clock.now().toISOString() }).where(eq(users.id, user.id))
		await logActivity(
			tx,
			clock,
			'users.profile-updated',
			{ nome: input.nome },
			{ actor: { id: user.id, nome: input.nome }, entityId: user.id, representanteCnpj: user.tipo === 'representante' ? user.cnpj : null }
		)
	})
	return getUserView(db, user.id)
}

/** The signed-in user's own account (GET /api/users/me), for Meu Perfil. */
export function ownAccount(db: DbOrTx, user: SessionUser): Promise<UserView> {
	return getUserView(db, user.id)
}
