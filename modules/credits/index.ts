export { credits, creditConsumptions, creditBalances } from './schema'
export { creditRoutes } from './routes'
export { rebuildCreditBalances, addCredits, transferToCompany, availableCredits, canActFor, creditTotals, representativeScope, AVAILABLE, TRANSFER, INACTIVE } from './service'
