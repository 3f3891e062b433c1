export { downloadRoutes } from './routes'
export * from './model'
export { downloads } from './schema'
