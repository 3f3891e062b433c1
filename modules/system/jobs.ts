import { cron } from '@elysiajs/cron'
import { logActivity } from '../activity'
import type { AppContext } from '../core/server'
import { runAutomaticBackup } from './backup'
import { VERSION } from './info'

/** Every 10 minutes: take an automatic backup when one is due (app.backup_automatico, app.intervalo_backup). */
export function systemJobs(ctx: AppContext) {
	return cron({
		name: 'system.automatic-backup',
		pattern: '*/10 * * * *',
		async run() {
			try {
				const backup = await runAutomaticBackup(ctx, VERSION)
				if (!backup) return
				logActivity(ctx.db, ctx.clock, { type: 'success', icon: 'AlertTriangle', title: 'Backup automático criado', subtitle: backup.filename, entity: 'backup', entityId: backup.filename })
				ctx.log('backup.created', { filename: backup.filename, kind: 'automatico', size: backup.size })
			} catch (error) {
				ctx.log('backup.failed', { message: String((error as Error)?.message ?? error) })
			}
		}
	})
}
