export { credits, creditConsumptions } from './schema'
export { creditRoutes } from './routes'
export { addCredits, transferToCompany, availableCredits, canActFor, creditTotals, representativeScope, AVAILABLE, TRANSFER, INACTIVE } from './service'
export { SISTEMAS } from './model'
