import { map } from 'nanostores'
import type { Company } from '../../../modules/companies/model'
import { routeStore } from '../lib/query'

export type { Company }

export type StatusFilter = 'todas' | 'ativas' | 'bloqueadas' | 'expiradas'
export type NoticeFilter = 'todas' | 'com' | 'sem'

export const $companyQuery = map({ page: 1, limit: 20, search: '', status: 'todas' as StatusFilter, avisos: 'todas' as NoticeFilter })

export const $companies = routeStore('GET /api/companies', $companyQuery)

/** Every company the user may act on, for selection lists (limit 1000, as the spec asks). */
export const $companyOptions = routeStore('GET /api/companies', { page: 1, limit: 1000 })

export const COMPANY_KEYS = ['/api/companies', '/api/terminals', '/api/dashboard', '/api/activities', '/api/credits']
