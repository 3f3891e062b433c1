import type { GetRoute } from '../../lib/api'

/** What a change to representatives can change elsewhere: the lists to refetch afterwards. */
export const REPRESENTATIVE_KEYS: readonly GetRoute[] = [
	'GET /api/representatives',
	'GET /api/representatives/current',
	'GET /api/dashboard/stats',
	'GET /api/reports'
]
