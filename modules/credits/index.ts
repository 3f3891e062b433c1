export { credits, creditConsumptions, creditBalances, creditPurchases } from './schema'
export { creditJobs } from './jobs'
export { purchasePaymentHandler, checkPendingPurchases, refreshPurchase } from './purchases'
export { creditRoutes } from './routes'
export { applyDueRenewals, renewalPaymentHandler } from './renewals'
export {
	rebuildCreditBalances,
	addCredits,
	applyRenewals,
	transferToCompany,
	availableCredits,
	creditTotals,
	creditBatchesPerRepresentative,
	AVAILABLE,
	TRANSFER,
	INACTIVE
} from './service'
export * from './model'
