export { authGuard, sessionCookieName, GUARD_MESSAGES } from './guard'
export { authRoutes } from './routes'
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
export { LoginThrottle, THROTTLE_MESSAGE } from './throttle'
export { RefusalLog, recordOf, type Refusal } from './refusals'
export * from './model'
export { users, sessions } from './schema'
export { authJobs, cleanupSessions } from './jobs'
export { serve, serveRoutes, type Access, type Endpoint, type RouteInput } from './serve'
