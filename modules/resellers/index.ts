export { managedRepresentativeCnpjs, findRepresentativeByCnpj, listRepresentatives, RESELLER_MESSAGES } from './service'
export { resellersRoutes } from './routes'
export { representatives } from './schema'
export type { RepresentativeView, ManagerView } from './model'
