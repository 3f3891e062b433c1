export { authGuard, sessionCookieName, GUARD_MESSAGES } from './guard'
export { authRoutes, userRoutes } from './routes'
export { USER_MESSAGES } from './users'
export {
	validateSession,
	invalidateSession,
	invalidateUserSessions,
	createSession,
	ensureFirstAdmin,
	deleteExpiredSessions,
	hashToken,
	LOGIN_MESSAGES
} from './service'
export { hashPassword, verifyPassword, generatePassword } from './password'
export { LoginBody, SessionUser } from './model'
export type { UserView } from './model'
export { users, sessions } from './schema'
export { authJobs } from './jobs'
