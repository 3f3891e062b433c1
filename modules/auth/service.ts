import { and, eq, lt, ne, or } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import { type Clock, HOUR, MINUTE } from '../core'
import { type AppConfig, AppError, writeTransaction } from '../core/server'
import { getAutoLogoutConfig } from '../settings'
import type { SessionUser } from './model'
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './password'
import { sessions, users } from './schema'
import { type LoginThrottle, THROTTLE_MESSAGE } from './throttle'

/** Activity is written to the session at most this often, so a busy page does not write on every call. */
const TOUCH_INTERVAL_MS = MINUTE
/** The browser logs out at the configured minute; the server waits a little longer so the two never race. */
const IDLE_GRACE_MS = 2 * MINUTE

export interface SessionInfo {
	id: string
	createdAt: string
	/** When the session ends if nothing happens: the idle limit or the absolute limit, whichever comes first. */
	expiresAt: string
}

export function hashToken(token: string): string {
	return new Bun.CryptoHasher('sha256').update(token).digest('hex')
}

function newToken(): string {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

function toSessionUser(u: typeof users.$inferSelect): SessionUser {
	return { id: u.id, cnpj: u.cnpj, nome: u.nome, email: u.email, tipo: u.tipo }
}

async function idleLimitMs(db: DbOrTx): Promise<number | null> {
	const config = await getAutoLogoutConfig(db)
	return config.enabled ? config.timeoutMinutes * MINUTE + IDLE_GRACE_MS : null
}

function sessionExpiry(row: { last_active_at: string; expires_at: string }, idleMs: number | null): number {
	const absolute = Date.parse(row.expires_at)
	if (idleMs === null) return absolute
	return Math.min(absolute, Date.parse(row.last_active_at) + idleMs)
}

export async function createSession(
	db: DbOrTx,
	clock: Clock,
	config: AppConfig,
	userId: number,
	meta: { ip: string; userAgent: string | null }
): Promise<{ token: string; session: SessionInfo }> {
	const token = newToken()
	const now = clock.now()
	const row = {
		id: hashToken(token),
		user_id: userId,
		created_at: now.toISOString(),
		last_active_at: now.toISOString(),
		expires_at: new Date(now.getTime() + config.sessionMaxHours * HOUR).toISOString(),
		ip: meta.ip,
		user_agent: meta.userAgent?.slice(0, 300) ?? null
	}
	await db.insert(sessions).values(row)
	return {
		token,
		session: { id: row.id, createdAt: row.created_at, expiresAt: new Date(sessionExpiry(row, await idleLimitMs(db))).toISOString() }
	}
}

/**
 * Resolves a cookie token to its user. Expired sessions are deleted; a live one has its activity
 * time moved forward (at most once a minute), which is what keeps an active user signed in.
 */
export async function validateSession(
	db: Db,
	clock: Clock,
	token: string | undefined | null,
	options: { renew?: boolean } = {}
): Promise<{ user: SessionUser; session: SessionInfo } | null> {
	if (!token || token.length > 100) return null
	const id = hashToken(token)
	const found = (
		await db
			.select({ session: sessions, user: users })
			.from(sessions)
			.innerJoin(users, eq(users.id, sessions.user_id))
			.where(eq(sessions.id, id))
	)[0]
	if (!found) return null
	const now = clock.now().getTime()
	const idleMs = await idleLimitMs(db)
	if (now >= sessionExpiry(found.session, idleMs) || !found.user.ativo) {
		await db.delete(sessions).where(eq(sessions.id, id))
		return null
	}
	let lastActive = found.session.last_active_at
	if (options.renew || now - Date.parse(lastActive) >= TOUCH_INTERVAL_MS) {
		lastActive = new Date(now).toISOString()
		await db.update(sessions).set({ last_active_at: lastActive }).where(eq(sessions.id, id))
	}
	const expiresAt = new Date(sessionExpiry({ last_active_at: lastActive, expires_at: found.session.expires_at }, idleMs))
	return {
		user: toSessionUser(found.user),
		session: { id, createdAt: found.session.created_at, expiresAt: expiresAt.toISOString() }
	}
}

export async function invalidateSession(db: DbOrTx, token: string | undefined | null) {
	if (!token) return
	await db.delete(sessions).where(eq(sessions.id, hashToken(token)))
}

/** Ends every session of a user (password change, deactivation, role change), optionally keeping one. */
export async function invalidateUserSessions(db: DbOrTx, userId: number, keepSessionId?: string) {
	await db
		.delete(sessions)
		.where(keepSessionId ? and(eq(sessions.user_id, userId), ne(sessions.id, keepSessionId)) : eq(sessions.user_id, userId))
}

export const LOGIN_MESSAGES = {
	unknownCnpj: 'Usuário não encontrado: este CNPJ não está cadastrado.',
	wrongPassword: 'Senha inválida.',
	inactive: 'Usuário inativo. Procure o administrador.',
	throttled: THROTTLE_MESSAGE
}

/**
 * Checks the credentials and opens a fresh session. The throttle answers 429 before any hashing while the account and
 * address must wait. An unknown CNPJ verifies the password against a dummy hash, so it answers as slowly as a wrong
 * password; the two still get the specification's different messages (1-core §8).
 */
export async function login(
	deps: { db: Db; clock: Clock; config: AppConfig; throttle: LoginThrottle },
	input: { cnpj: string; senha: string; ip: string; userAgent: string | null }
): Promise<{ token: string; user: SessionUser; session: SessionInfo }> {
	const { db, clock, config, throttle } = deps
	const user = (await db.select().from(users).where(eq(users.cnpj, input.cnpj)))[0]
	const ok = await throttle.check(input.cnpj, input.ip, () =>
		user ? verifyPassword(input.senha, user.senha_hash) : verifyAgainstDummy(input.senha)
	)
	if (!user) throw new AppError(401, LOGIN_MESSAGES.unknownCnpj, 'USER_NOT_FOUND')
	if (!ok) throw new AppError(401, LOGIN_MESSAGES.wrongPassword, 'WRONG_PASSWORD')
	if (!user.ativo) throw new AppError(403, LOGIN_MESSAGES.inactive, 'USER_INACTIVE')

	const newHash = needsRehash(user.senha_hash) ? await hashPassword(input.senha) : null
	const result = await writeTransaction(db, async (tx) => {
		if (newHash) await tx.update(users).set({ senha_hash: newHash }).where(eq(users.id, user.id))
		return createSession(tx, clock, config, user.id, { ip: input.ip, userAgent: input.userAgent })
	})
	return { token: result.token, user: toSessionUser(user), session: result.session }
}

/** The first administrator, created once on an empty database. Returns false when users already exist. */
export async function ensureFirstAdmin(db: Db, clock: Clock, input: { cnpj: string; senha: string; nome?: string }): Promise<boolean> {
	const existing = (await db.select({ id: users.id }).from(users).limit(1))[0]
	if (existing) return false
	const hash = await hashPassword(input.senha)
	const now = clock.now().toISOString()
	return writeTransaction(db, async (tx) => {
		if ((await tx.select({ id: users.id }).from(users).limit(1))[0]) return false
		const created = (
			await tx
				.insert(users)
				.values({
					cnpj: input.cnpj,
					nome: input.nome ?? 'Administrador',
					tipo: 'administrador',
					senha_hash: hash,
					created_at: now,
					updated_at: now
				})
				.returning({ id: users.id })
		)[0]
		await logActivity(tx, clock, 'auth.first-admin', { nome: input.nome ?? 'Administrador' }, { entityId: created.id })
		return true
	})
}

/** Deletes sessions past their absolute or idle limit (run by the hourly job). */
export async function deleteExpiredSessions(db: DbOrTx, clock: Clock): Promise<number> {
	const now = clock.now().getTime()
	const idleMs = await idleLimitMs(db)
	const conditions = [lt(sessions.expires_at, new Date(now).toISOString())]
	if (idleMs !== null) conditions.push(lt(sessions.last_active_at, new Date(now - idleMs).toISOString()))
	// In a transaction: the hourly job's run proves its lease there (modules/jobs).
	return writeTransaction(
		db,
		async (tx) =>
			(
				await tx
					.delete(sessions)
					.where(or(...conditions))
					.returning({ id: sessions.id })
			).length
	)
}
