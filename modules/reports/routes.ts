import { serve, serveRoutes } from '../auth'
import type { AppContext } from '../core/server'
import { dashboardStatsRoute, exportActivitiesRoute, listActivitiesRoute, recentActivitiesRoute, reportRoute } from './model'
import { buildReport, dashboardStats, exportActivities, listActivities, recentActivities } from './service'

export function reportRoutes(ctx: AppContext) {
	return serveRoutes(ctx, 'reports.routes', ({ db, clock }) => [
		serve(dashboardStatsRoute, 'session', ({ user }) => dashboardStats(db, clock, user)),
		serve(recentActivitiesRoute, 'activities.read', ({ user, query }) => recentActivities(db, user, query)),
		serve(listActivitiesRoute, 'activities.read', ({ user, query }) => listActivities(db, user, query)),
		serve(exportActivitiesRoute, 'activities.read', ({ user, query }) => exportActivities(db, clock, user, query)),
		serve(reportRoute, 'reports.view', ({ query }) => buildReport(db, clock, query))
	])
}
