export { messagingRoutes } from './routes'
export { notifications } from './schema'
