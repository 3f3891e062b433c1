export { type JobDefinition, LeaseLost, acquireLease, runJob, withLease } from './service'
export { scheduleJobs } from './scheduler'
export { jobLeases } from './schema'
