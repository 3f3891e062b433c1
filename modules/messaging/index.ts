export { messagingRoutes } from './routes'
export { notifications, generalNotices, individualNotices, noticeReads } from './schema'
export * from './model'
