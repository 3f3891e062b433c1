export { credits, creditConsumptions, creditBalances, creditPurchases } from './schema'
export { creditJobs } from './jobs'
export { purchasePaymentHandler, checkPendingPurchases, refreshPurchase } from './purchases'
export { creditRoutes } from './routes'
export {
	rebuildCreditBalances,
	addCredits,
	transferToCompany,
	availableCredits,
	creditTotals,
	creditBatchesPerRepresentative,
	AVAILABLE,
	TRANSFER,
	INACTIVE
} from './service'
export * from './model'
