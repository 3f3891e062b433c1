export { logActivity } from './service'
export type { ActivityEntry, ActivityIcon, ActivityType } from './service'
export { activities } from './schema'
