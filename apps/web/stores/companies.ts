import { computed, map } from 'nanostores'
import type { Pagination } from '../../../modules/core'
import type { CompanyJson } from '../../../modules/licensing/service'
import { createFetcherStore } from '../lib/query'

export type Company = CompanyJson
export interface CompanyList {
	companies: Company[]
	pagination: Pagination
}

export type StatusFilter = 'todas' | 'ativas' | 'bloqueadas' | 'expiradas'
export type NoticeFilter = 'todas' | 'com' | 'sem'

export const $companyQuery = map({ page: 1, limit: 20, search: '', status: 'todas' as StatusFilter, avisos: 'todas' as NoticeFilter })

const $queryString = computed($companyQuery, (q) => new URLSearchParams({ page: String(q.page), limit: String(q.limit), search: q.search, status: q.status, avisos: q.avisos }).toString())

export const $companies = createFetcherStore<CompanyList>(['/api/companies?', $queryString])

/** Every company the user may act on, for selection lists (limit 1000, as the spec asks). */
export const $companyOptions = createFetcherStore<CompanyList>(['/api/companies?page=1&limit=1000&search='])

export const COMPANY_KEYS = ['/api/companies', '/api/terminals', '/api/dashboard', '/api/activities', '/api/credits']
