export { companyRoutes } from './routes'
export {
	findCompany,
	extendLicence,
	companyInScope,
	getCompanyJson,
	companiesPerRepresentative,
	companyCountSql,
	scopeCondition,
	trustReleaseByBot,
	newLicenceKey
} from './service'
export { blockForNonPayment, liftNonPaymentBlock } from './payment-block'
export { licenceState, nonPaymentFlags, TRUST_RELEASE_HOURS } from './status'
export { SYSTEM_CATALOGUE } from './systems'
export type { CompanyRow } from './service'
export * from './model'
export { companies } from './schema'
