import { Cron } from 'croner'
const c = new Cron('*/5 * * * * *', { paused: true }, () => {})
console.log(c.nextRuns(3).map((d) => d.toISOString()))
