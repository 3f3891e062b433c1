export { resellersRoutes } from './routes'
export {
	representativeScope,
	findRepresentativeByCnpj,
	ensureRepresentativeRecord,
	setAsaasActivation,
	listRepresentatives,
	RESELLER_MESSAGES,
	type RepresentativeScope,
	type RepresentativeHoldings
} from './service'
export { promoUrl, PROMO_MAX_BYTES, importPromoFiles } from './promo'
export * from './model'
export { representatives } from './schema'
