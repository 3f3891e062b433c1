export {
	type JobDefinition,
	type JobLease,
	DEFAULT_LEASE_MS,
	LeaseLost,
	acquireLease,
	proveLease,
	releaseLease,
	renewLease,
	runJob,
	withLease
} from './service'
export { processHolder, scheduleJobs } from './scheduler'
export { jobLeases } from './schema'
