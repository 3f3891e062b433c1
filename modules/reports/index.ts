export { reportRoutes } from './routes'
export { dashboardStats, recentActivities, buildReport, UNBLOCKED_COMPANY } from './service'
export * from './model'
