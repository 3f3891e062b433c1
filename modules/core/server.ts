// The server-only part of core: errors with HTTP statuses, the context, request helpers, SQL helpers.
export * from './errors'
export * from './context'
export * from './http'
export * from './rate'
export * from './sql'
export * from './csv-stream'
export * from './secrets'
export * from './files'
