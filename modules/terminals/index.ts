export { terminalRoutes } from './routes'
export { registerMachine } from './service'
export * from './model'
export { terminals } from './schema'
