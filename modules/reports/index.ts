export { reportRoutes } from './routes'
export { dashboardStats, recentActivities, buildReport, ACTIVE_COMPANY } from './service'
