export { systemRoutes } from './routes'
export { systemJobs } from './jobs'
export { createBackup, listBackups, backupStats, runAutomaticBackup, backupDir, uploadsDir } from './backup'
export { writePidFile } from './restore'
