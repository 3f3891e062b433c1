import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import { sweepBotRecords } from './store'

export function botJobs(ctx: AppContext): JobDefinition[] {
	return [{ name: 'bot.sweep', pattern: '17 * * * *', run: () => sweepBotRecords(ctx.db, ctx.clock.now()) }]
}
