export { userRoutes } from './routes'
export { USER_MESSAGES } from './service'
export * from './model'
