import type { GetRoute } from '../lib/api'

/** Every read of the credit figures: what a change to credits (added, transferred, bought) has the screens read again. */
export const CREDIT_READS: readonly GetRoute[] = [
	'GET /api/credits',
	'GET /api/credits/summary',
	'GET /api/credits/available',
	'GET /api/credits/auto-purchase/status',
	// Credits that arrive apply the carnês' renewals that waited for them.
	'GET /api/carnes/renovacoes'
]
