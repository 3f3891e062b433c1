import type { Company } from '../../../modules/companies/model'
import type { GetRoute } from '../lib/api'
import { routeStore } from '../lib/query'
import { CREDIT_READS } from './credits'

export type { Company }

/** Every company the user may act on, for selection lists (limit 1000, as the spec asks). */
export const $companyOptions = routeStore('GET /api/companies', { page: 1, limit: 1000 })

/** What a change to companies can change elsewhere: the lists to refetch afterwards. */
export const COMPANY_KEYS: readonly GetRoute[] = [
	'GET /api/companies',
	'GET /api/terminals',
	'GET /api/dashboard/stats',
	'GET /api/activities',
	'GET /api/activities/recent',
	...CREDIT_READS
]
