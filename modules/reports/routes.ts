import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { dashboardStatsRoute, recentActivitiesRoute, reportRoute } from './model'
import { buildReport, dashboardStats, recentActivities } from './service'

export function reportRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	return new Elysia({ name: 'reports.routes' })
		.use(authGuard(ctx))
		.route(dashboardStatsRoute.method, dashboardStatsRoute.path, ({ user }) => dashboardStats(db, clock, user), {
			...routeHooks(dashboardStatsRoute),
			can: 'session'
		})
		.route(recentActivitiesRoute.method, recentActivitiesRoute.path, ({ user, query }) => recentActivities(db, user, query), {
			...routeHooks(recentActivitiesRoute),
			can: 'activities.read'
		})
		.route(reportRoute.method, reportRoute.path, ({ query }) => buildReport(db, clock, query), {
			...routeHooks(reportRoute),
			can: 'reports.view'
		})
}
