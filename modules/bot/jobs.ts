import type { AppContext } from '../core/server'
import type { JobDefinition } from '../jobs'
import type { BotService } from './service'
import { sweepBotRecords } from './store'

export function botJobs(ctx: AppContext, bot: BotService): JobDefinition[] {
	return [
		// Messages whose instance died after answering the webhook: every 5 s in every process (a phone is handled under
		// its lease, so no job lease is needed), so a crash delays a client's answer by seconds.
		{ name: 'bot.inbox', pattern: '*/5 * * * * *', lease: false, run: () => bot.takeUpLeftWaiting() },
		{ name: 'bot.sweep', pattern: '17 * * * *', run: () => sweepBotRecords(ctx.db, ctx.clock.now()) }
	]
}
