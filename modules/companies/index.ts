export { companyRoutes } from './routes'
export {
	findCompany,
	extendLicence,
	companyInScope,
	getCompanyJson,
	companiesPerRepresentative,
	scopeCondition,
	TRUST_RELEASE_HOURS
} from './service'
export type { CompanyRow } from './service'
export * from './model'
export { companies } from './schema'
