import { adminConfigsRoute, financialStatsRoute, ownConfigRoute, vendorConfigRoute } from '../../modules/billing/model'
import { carnesRead, historicoRead, pagamentosRead } from '../../modules/billing/reads'
import { botSessionsRoute, botStatusRoute, pausedConversationsRoute } from '../../modules/bot/model'
import { companiesRead } from '../../modules/companies/reads'
import { type Role, addressOf, can, firstPageRead, listReadUrl } from '../../modules/core'
import { availableCreditsRoute } from '../../modules/credits/model'
import { poolRead, summaryRead, transfersRead } from '../../modules/credits/reads'
import { listDownloadsRoute } from '../../modules/downloads/model'
import { listIndividualNoticesRoute, listGeneralNoticesRoute } from '../../modules/messaging/model'
import { dashboardStatsRoute, recentActivitiesRoute, reportRoute } from '../../modules/reports/model'
import { activitiesRead, openingReport } from '../../modules/reports/reads'
import { currentRepresentativeRoute } from '../../modules/resellers/model'
import { representativesRead } from '../../modules/resellers/reads'
import { listSettingsRoute } from '../../modules/system/model'
import { terminalsRead } from '../../modules/terminals/reads'
import { ownAccountRoute } from '../../modules/users/model'
import { usersRead } from '../../modules/users/reads'

/**
 * The reads a page's island makes first, by the page's route (as the pages plugin resolves it): the server answers
 * them into the page (#session-data `reads`), so the island's first render already has its rows instead of waiting
 * for a fetch after hydration (issue 15). A list's read is the one its module declares (reads.ts), which the island
 * builds its list from; a fixed read is addressed by the route's contract, as the island's store keys it.
 */
export const PAGE_READS: Record<string, (search: URLSearchParams, role: Role) => string[]> = {
	'/companies': (search) => [listReadUrl(companiesRead, search)],
	'/terminals': (search) => [listReadUrl(terminalsRead, search)],
	'/users': (search) => [listReadUrl(usersRead, search)],
	// The settings give the cards' days per credit: without them the cards grow after the first paint (CLS).
	'/credits': (search, role) => [
		...(can(role, 'credits.own')
			? [listReadUrl(poolRead, search), listReadUrl(transfersRead, search)]
			: [listReadUrl(summaryRead, search)]),
		addressOf(listSettingsRoute)
	],
	'/dashboard': () => [addressOf(dashboardStatsRoute), addressOf(recentActivitiesRoute, { limit: 10 })],
	// Its sections arrived one by one after hydration and pushed each other down (CLS 0.159).
	'/admin/financeiro-config': () => [addressOf(financialStatsRoute), addressOf(vendorConfigRoute), addressOf(adminConfigsRoute)],
	'/financeiro-config': () => [addressOf(ownConfigRoute)],
	// A representante's page is their own API settings: without it the form waited for a fetch after hydration,
	// drawing a skeleton first (one React commit and one long task more).
	'/representatives': (search, role) =>
		can(role, 'representatives.manage')
			? [listReadUrl(representativesRead, search)]
			: can(role, 'representatives.ownSettings')
				? [addressOf(currentRepresentativeRoute)]
				: [],
	'/configuracoes-bot': () => [addressOf(listSettingsRoute)],
	// Their largest paint is a summary card drawn from the list's first read (LCP 3.5–4.0 s waiting for the fetch).
	'/pagamentos-parcelas': (search) => [listReadUrl(firstPageRead(pagamentosRead), search)],
	'/historico-pagamentos': (search) => [listReadUrl(historicoRead, search)],
	'/carnes': (search) => [listReadUrl(firstPageRead(carnesRead), search)],
	'/activities': (search) => [listReadUrl(activitiesRead, search)],
	// The report the screen opens on (its period is not in the address): today's, in São Paulo days, as the island asks.
	'/reports': () => [addressOf(reportRoute, openingReport(new Date()))],
	'/autocompra-creditos': () => [addressOf(listSettingsRoute), addressOf(availableCreditsRoute)],
	// Short lists held whole (the island searches and sorts them): one read each, whatever the address.
	'/notices': () => [addressOf(listGeneralNoticesRoute), addressOf(listIndividualNoticesRoute)],
	'/downloads': () => [addressOf(listDownloadsRoute)],
	'/profile': () => [addressOf(ownAccountRoute)],
	'/settings': () => [addressOf(listSettingsRoute)],
	'/whatsapp-admin': () => [addressOf(botStatusRoute), addressOf(pausedConversationsRoute), addressOf(botSessionsRoute)]
}
