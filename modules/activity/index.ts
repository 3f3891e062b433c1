export { logActivity, type ActivityMeta } from './service'
export { ACTIVITY_EVENTS, type ActivityEvent, type ActivityParams, type ActivityIcon, type ActivityType } from './events'
export { activities } from './schema'
