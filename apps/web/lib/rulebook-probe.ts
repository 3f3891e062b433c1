/**
 * What a gerente meets at the reports, as each reader of core/access.ts decides it: the API, the page the server
 * serves, the side menu and the island. Prints it as one line of JSON; rulebook.test.ts runs it on the repository and
 * on a copy whose access.ts gives gerentes the reports.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { denialOf } from '../../../modules/core'
import { loadSite } from '../../server/plugins/pages'
import { CNPJ, createTestApp } from '../../server/testing'
import ReportsPage from '../islands/reports/ReportsPage'
import { $user } from '../stores/session'
import { MENU, seenBy } from './menu'

/** Built pages reduced to their titles: the server's choice of page is what is probed, not the page. */
function siteOfTitles() {
	const dist = mkdtempSync(join(tmpdir(), 'kportal-probe-'))
	for (const route of ['login', 'reports', 'acesso-negado']) {
		mkdirSync(join(dist, route))
		writeFileSync(join(dist, route, 'index.html'), `<!doctype html><html><body><h1>${route}</h1></body></html>`)
	}
	writeFileSync(join(dist, '404.html'), '<!doctype html><html><body><h1>404</h1></body></html>')
	return loadSite(dist)
}

const t = await createTestApp({ site: siteOfTitles() })
const gerente = await t.createUser({ cnpj: CNPJ.gerente, tipo: 'gerente', nome: 'Gabriel Gerente' })
const cookie = await t.login(CNPJ.gerente)
const page = await t.call('GET', '/reports', { cookie })
$user.set({ id: gerente.id, cnpj: gerente.cnpj, nome: gerente.nome, email: null, tipo: 'gerente' })
const island = renderToStaticMarkup(createElement(ReportsPage))

console.log(
	JSON.stringify({
		api: (await t.call('GET', '/api/reports', { cookie })).status,
		page: page.text.includes('<h1>reports</h1>') ? 'served' : page.text.includes('<h1>acesso-negado</h1>') ? 'denied' : page.status,
		menu: seenBy(MENU.find((item) => item.href === '/reports')!)?.includes('gerente') ?? true,
		island: island.includes(denialOf('/reports').message) ? 'denied' : island.includes('Relatório') ? 'shown' : island
	})
)
// The island's stores keep timers (their reads' retries): the answer is out, the process is done.
process.exit(0)
