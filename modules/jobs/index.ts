export { type JobDefinition, acquireLease, releaseLease, runJob } from './service'
export { scheduleJobs } from './scheduler'
export { jobLeases } from './schema'
