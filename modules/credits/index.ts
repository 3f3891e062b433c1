export { credits, creditConsumptions, creditBalances } from './schema'
export { creditRoutes } from './routes'
export { rebuildCreditBalances, addCredits, transferToCompany, availableCredits, creditTotals, AVAILABLE, TRANSFER, INACTIVE } from './service'
