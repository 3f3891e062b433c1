export {
	managedRepresentativeCnpjs,
	representativeScope,
	inRepresentativeScope,
	canActFor,
	representativeCondition,
	findRepresentativeByCnpj, listRepresentatives, RESELLER_MESSAGES } from './service'
export { resellersRoutes } from './routes'
export { representatives } from './schema'
export type { RepresentativeView, ManagerView } from './model'
export type { RepresentativeScope } from './service'
