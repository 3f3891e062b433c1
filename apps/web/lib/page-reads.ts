import { type Role, can } from '../../../modules/core'
import { usersRead } from '../islands/auth/users-view'
import { carnesRead, historicoRead, pagamentosRead } from '../islands/billing/billing-views'
import { poolRead, summaryRead, transfersRead } from '../islands/credits/views'
import { companiesRead } from '../islands/licensing/companies/view'
import { terminalsRead } from '../islands/licensing/terminals-view'
import { activitiesRead } from '../islands/reports/activities-view'
import { openingReport } from '../islands/reports/reports-view'
import { representativesRead } from '../islands/resellers/representatives-view'
import { firstPageRead, listReadUrl, readUrl } from './first-reads'

/**
 * The reads a page's island makes first, by the page's route (as the pages plugin resolves it): the server answers
 * them into the page (#session-data `reads`), so the island's first render already has its rows instead of waiting
 * for a fetch after hydration (issue 15). The addresses are exactly the keys the islands' stores ask for.
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
		readUrl('GET /api/configuracoes')
	],
	'/dashboard': () => [readUrl('GET /api/dashboard/stats'), readUrl('GET /api/activities/recent', { limit: 10 })],
	// Its sections arrived one by one after hydration and pushed each other down (CLS 0.159).
	'/admin/financeiro-config': () => [
		readUrl('GET /api/admin/financial-stats'),
		readUrl('GET /api/admin/asaas-vendor'),
		readUrl('GET /api/admin/asaas-configs')
	],
	'/financeiro-config': () => [readUrl('GET /api/representantes/asaas-config')],
	// A representante's page is their own API settings: without it the form waited for a fetch after hydration,
	// drawing a skeleton first (one React commit and one long task more).
	'/representatives': (search, role) =>
		can(role, 'representatives.manage')
			? [listReadUrl(representativesRead, search)]
			: can(role, 'representatives.ownSettings')
				? [readUrl('GET /api/representatives/current')]
				: [],
	'/configuracoes-bot': () => [readUrl('GET /api/configuracoes')],
	// Their largest paint is a summary card drawn from the list's first read (LCP 3.5–4.0 s waiting for the fetch).
	'/pagamentos-parcelas': (search) => [listReadUrl(firstPageRead(pagamentosRead), search)],
	'/historico-pagamentos': (search) => [listReadUrl(historicoRead, search)],
	'/carnes': (search) => [listReadUrl(firstPageRead(carnesRead), search)],
	'/activities': (search) => [listReadUrl(activitiesRead, search)],
	// The report the screen opens on (its period is not in the address): today's, in São Paulo days, as the island asks.
	'/reports': () => [readUrl('GET /api/reports', openingReport(new Date()))],
	'/autocompra-creditos': () => [readUrl('GET /api/configuracoes'), readUrl('GET /api/credits/available')],
	// Short lists held whole (the island searches and sorts them): one read each, whatever the address.
	'/notices': () => [readUrl('GET /api/notices/general'), readUrl('GET /api/notices/individual')],
	'/downloads': () => [readUrl('GET /api/downloads')],
	'/profile': () => [readUrl('GET /api/users/me')],
	'/settings': () => [readUrl('GET /api/configuracoes')],
	'/whatsapp-admin': () => [
		readUrl('GET /api/whatsapp/bot-status'),
		readUrl('GET /api/whatsapp/paused-conversations'),
		readUrl('GET /api/whatsapp/sessions')
	]
}
