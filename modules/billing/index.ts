export { billingRoutes } from './routes'
export { billingJobs, checkWebhooks } from './jobs'
export { createAsaasInbox, type AsaasInbox, type InboxEvent, type PaymentEventHandler } from './inbox'
export { asaasAccount, asaasClient, type AsaasAccount, webhookState } from './accounts'
export { accountWallet, accountWarning, trustRemoval } from './identity'
export { ASAAS_QUOTA_PER_12H, accountUsage } from './usage'
export { openParcelsOfCompany, type OpenParcel } from './parcels'
export { carnePaymentHandler, reconcileCarnes } from './sync'
export { listHistorico, listPagamentos } from './history'
export { chooseDay } from './dunning'
export {
	type DueRenewal,
	cancelRenewal,
	claimRenewal,
	completeRenewal,
	dueRenewals,
	representativesWithPendingRenewals,
	sendRenewalNotices,
	waitForCredits
} from './renewals'
export * from './model'
export {
	asaasAccounts,
	asaasEvents,
	asaasIdentities,
	asaasUsage,
	asaasWebhooks,
	carneParcelas,
	carneRenovacoes,
	carnes,
	historicoPagamentos
} from './schema'
