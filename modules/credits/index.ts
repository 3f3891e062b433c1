export { credits, creditConsumptions, creditBalances } from './schema'
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
