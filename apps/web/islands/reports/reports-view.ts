import { isoDateInSaoPaulo, oneMonthBefore } from '../../../../modules/core'
import type { ReportQuery } from '../../../../modules/reports/model'

/** The report the screen opens on: the general one of the last month, in São Paulo days (the server answers it into the page). */
export function openingReport(now: Date): Required<ReportQuery> {
	const today = isoDateInSaoPaulo(now)
	return { tipo: 'geral', inicio: oneMonthBefore(today), fim: today }
}
