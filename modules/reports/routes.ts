import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import type { AppContext } from '../core/server'
import { RecentActivitiesQuery, ReportQuery } from './model'
import { buildReport, dashboardStats, recentActivities } from './service'

export function reportRoutes(ctx: AppContext) {
	return new Elysia({ name: 'reports.routes', prefix: '/api' })
		.use(authGuard(ctx))
		.get('/dashboard/stats', ({ user }) => dashboardStats(ctx.db, ctx.clock, user), { roles: 'any' })
		.get('/activities/recent', ({ user, query }) => recentActivities(ctx.db, user, query), { roles: 'any', query: RecentActivitiesQuery })
		.get('/reports', ({ query }) => buildReport(ctx.db, ctx.clock, query), { roles: ['administrador'], query: ReportQuery })
}
