import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { dashboardStatsRoute, exportActivitiesRoute, listActivitiesRoute, recentActivitiesRoute, reportRoute } from './model'
import { buildReport, dashboardStats, exportActivities, listActivities, recentActivities } from './service'

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
		.route(listActivitiesRoute.method, listActivitiesRoute.path, ({ user, query }) => listActivities(db, user, query), {
			...routeHooks(listActivitiesRoute),
			can: 'activities.read'
		})
		.route(exportActivitiesRoute.method, exportActivitiesRoute.path, ({ user, query }) => exportActivities(db, clock, user, query), {
			...routeHooks(exportActivitiesRoute),
			can: 'activities.read'
		})
		.route(reportRoute.method, reportRoute.path, ({ query }) => buildReport(db, clock, query), {
			...routeHooks(reportRoute),
			can: 'reports.view'
		})
}
