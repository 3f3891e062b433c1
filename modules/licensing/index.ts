export { findCompany, extendLicence } from './service'
export { companies, terminals } from './schema'
