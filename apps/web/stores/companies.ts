import type { Company } from '../../../modules/companies/model'
import { routeStore } from '../lib/query'

export type { Company }

/** Every company the user may act on, for selection lists (limit 1000, as the spec asks). */
export const $companyOptions = routeStore('GET /api/companies', { page: 1, limit: 1000 })

/** What a change to companies can change elsewhere: the lists to refetch afterwards. */
export const COMPANY_KEYS = ['/api/companies', '/api/terminals', '/api/dashboard', '/api/activities', '/api/credits']
