export { companyRoutes } from './routes'
export {
	findCompany,
	extendLicence,
	companyInScope,
	getCompanyJson,
	companiesPerRepresentative,
	companyCountSql,
	scopeCondition
} from './service'
export type { CompanyRow } from './service'
export * from './model'
export { companies } from './schema'
