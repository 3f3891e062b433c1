/**
 * Issue 15: a representative's phone gets each screen's words and first rows with the page, and nothing moves
 * after the first paint. (The Lighthouse figures themselves: `bun run bench:lighthouse`.)
 */
import { type Page, expect, test } from '@playwright/test'
import { ACCOUNTS, signIn } from './fixtures'

const PHONE = { width: 390, height: 844 }
const FIRST_READS = [
	'/api/companies',
	'/api/terminals',
	'/api/users',
	'/api/credits/summary',
	'/api/dashboard/stats',
	'/api/activities/recent',
	'/api/notices/general',
	'/api/notices/individual',
	'/api/downloads',
	'/api/users/me',
	'/api/configuracoes',
	'/api/whatsapp/sessions'
]

/** Every request from now on whose path is one of `paths`, as path and query. */
function requestsTo(page: Page, paths: string[]): string[] {
	const asked: string[] = []
	page.on('request', (request) => {
		const url = new URL(request.url())
		if (paths.includes(url.pathname)) asked.push(url.pathname + url.search)
	})
	return asked
}

test('list screens arrive with their first page: the rows show and no request for them leaves the browser', async ({ page }) => {
	await page.setViewportSize(PHONE)
	await signIn(page, ACCOUNTS.administrador)
	const asked = requestsTo(page, FIRST_READS)
	// The view in the address is the one answered: here the companies sorted by CNPJ, descending.
	await page.goto('/companies?sort=cnpj&order=desc')
	await expect(page.getByRole('list', { name: 'Empresas' }).getByRole('listitem').first()).toBeVisible()
	await page.goto('/terminals')
	await expect(page.getByRole('list', { name: 'Terminais' }).getByRole('listitem').first()).toBeVisible()
	await page.goto('/users')
	await expect(page.getByRole('list', { name: 'Usuários' }).getByRole('listitem').first()).toBeVisible()
	await page.goto('/credits')
	await expect(page.getByText('Resumo por Representante')).toBeVisible()
	await page.goto('/')
	await expect(page.getByRole('heading', { name: 'Status dos Sistemas' })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Atividade Recente' })).toBeVisible()
	await page.goto('/notices')
	await expect(page.getByRole('list', { name: 'Avisos gerais' }).getByRole('listitem').first()).toBeVisible()
	await page.goto('/downloads')
	await expect(page.getByRole('list', { name: 'Downloads' }).getByRole('listitem').first()).toBeVisible()
	await page.goto('/profile')
	await expect(page.getByLabel('Nome')).not.toHaveValue('')
	await page.goto('/settings')
	await expect(page.getByText('Conectado')).toBeVisible()
	await page.goto('/whatsapp-admin')
	await expect(page.getByText(/^Bot (ligado|desligado)$/)).toBeVisible()
	expect(asked).toEqual([])

	// A new view is the island's to ask for.
	await page.goto('/companies')
	const search = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/companies' && r.url().includes('search=Padaria'))
	await page.getByRole('searchbox', { name: 'Buscar empresas' }).fill('Padaria')
	await search
})

test('the history, the report, the carnês and the self-purchase arrive with their first reads too', async ({ browser }) => {
	const watched = ['/api/activities', '/api/reports', '/api/carnes', '/api/credits/available', '/api/configuracoes']

	const admin = await browser.newPage({ viewport: PHONE })
	await signIn(admin, ACCOUNTS.administrador)
	const askedByAdmin = requestsTo(admin, watched)
	await admin.goto('/activities?type=info')
	await expect(admin.getByRole('list', { name: 'Atividades' }).getByRole('listitem').first()).toBeVisible()
	await admin.goto('/reports')
	await expect(admin.getByText('Empresas Ativas')).toBeVisible()
	await admin.goto('/carnes')
	await expect(admin.getByRole('button', { name: 'Novo Carnê' })).toBeVisible()
	expect(askedByAdmin).toEqual([])
	await admin.close()

	const rep = await browser.newPage({ viewport: PHONE })
	await signIn(rep, ACCOUNTS.representante)
	const askedByRep = requestsTo(rep, watched)
	await rep.goto('/carnes')
	await expect(rep.getByRole('button', { name: 'Novo Carnê' })).toBeVisible()
	await rep.goto('/autocompra-creditos')
	await expect(rep.getByTestId('credits-available')).toHaveText(/^\d/)
	expect(askedByRep).toEqual([])
	await rep.close()
})

test("no page loads daisyUI's noise texture: the portal's themes have no noise", async ({ page }) => {
	await page.goto('/login')
	await expect(page.getByRole('button', { name: 'Entrar no Sistema' })).toBeVisible()
	const noise = await page.evaluate(() => ({
		root: getComputedStyle(document.documentElement).getPropertyValue('--fx-noise').trim(),
		button: getComputedStyle(document.querySelector('.btn')!).backgroundImage
	}))
	expect(noise.root).toBe('none')
	expect(noise.button).not.toContain('url(')
})

test('the screen heading is in the page as served, before any script runs', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	for (const [path, words] of [
		['/companies', 'Licenças, sistemas e terminais das empresas clientes.'],
		['/terminals', 'Computadores registrados nas licenças das empresas.'],
		['/downloads', 'Instaladores e atualizações dos sistemas.']
	]) {
		expect(await (await page.request.get(path)).text(), path).toContain(words)
	}
})

test('on a slow phone nothing moves after the first paint of the dashboard, the credits and the login', async ({ page, browser }) => {
	const shifts = async (target: typeof page, path: string) => {
		const cdp = await target.context().newCDPSession(target)
		await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
		await target.goto(path)
		await target.waitForLoadState('networkidle')
		const cls = await target.evaluate(
			() =>
				new Promise<number>((resolve) => {
					let sum = 0
					new PerformanceObserver((list) => {
						for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
							if (!entry.hadRecentInput) sum += entry.value
					}).observe({ type: 'layout-shift', buffered: true })
					setTimeout(() => resolve(sum), 500)
				})
		)
		await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
		return cls
	}
	await page.setViewportSize(PHONE)
	const anonymous = await browser.newPage({ viewport: PHONE })
	expect(await shifts(anonymous, '/login'), '/login').toBeLessThan(0.05)
	await anonymous.close()
	await signIn(page, ACCOUNTS.administrador)
	expect(await shifts(page, '/'), '/dashboard').toBeLessThan(0.05)
	expect(await shifts(page, '/credits'), '/credits').toBeLessThan(0.05)
})

test('a page of 50 companies on a phone is drawn whole, in batches', async ({ page }) => {
	await page.setViewportSize(PHONE)
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/companies?limit=50')
	const cards = page.getByRole('list', { name: 'Empresas' }).getByRole('listitem')
	const shown = page.getByText(/^Mostrando 1 a \d+ de \d+ empresas$/)
	const [, last, total] = /a (\d+) de (\d+)/.exec((await shown.textContent()) ?? '')!.map(Number)
	expect(total).toBeGreaterThan(20)
	await expect(cards).toHaveCount(last)

	// A change refreshes the list: every card stays drawn (the page does not shrink under the reader) and the switch
	// just used keeps the focus.
	await page.getByRole('list', { name: 'Empresas' }).evaluate((list) => {
		const w = window as unknown as { fewestCards: number }
		w.fewestCards = list.children.length
		new MutationObserver(() => {
			w.fewestCards = Math.min(w.fewestCards, list.children.length)
		}).observe(list, { childList: true })
	})
	// The switch is found again by its company's name: other journeys add companies at the same time, and a card's
	// place in the list may change while this one runs.
	const label = await cards
		.nth(last - 5)
		.getByRole('checkbox', { name: /^Exibir aviso de / })
		.getAttribute('aria-label')
	const far = page.getByRole('checkbox', { name: label!, exact: true })
	const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/companies' && r.request().method() === 'GET')
	await far.focus()
	await page.keyboard.press('Space')
	await expect(page.getByText(/^Avisos (ativados|desativados)$/)).toBeVisible()
	const after = ((await (await refreshed).json()) as { companies: unknown[] }).companies.length
	await expect(cards).toHaveCount(after)
	await expect(far).toBeFocused()
	// A journey that deletes a company meanwhile shortens the page by one; a redraw from the first batch would show 20.
	expect(await page.evaluate(() => (window as unknown as { fewestCards: number }).fewestCards)).toBe(Math.min(last, after))
})

test('a page names in its HTML every script it runs, so a phone asks for them all at once', async ({ page, browser }) => {
	const scriptsOf = async (target: typeof page, path: string, drawn: () => Promise<void>) => {
		const asked: string[] = []
		const listen = (request: { resourceType(): string; url(): string }) => {
			if (request.resourceType() === 'script') asked.push(new URL(request.url()).pathname)
		}
		target.on('request', listen)
		const html = (await (await target.goto(path))!.text()) as string
		await drawn()
		target.off('request', listen)
		const named = new Set([...html.matchAll(/(?:src|href)="(\/_astro\/[^"]+\.js)"/g)].map((m) => m[1]))
		return { asked, unnamed: asked.filter((script) => !named.has(script)) }
	}
	const anonymous = await browser.newPage()
	const login = await scriptsOf(anonymous, '/login', () =>
		expect(anonymous.getByRole('button', { name: 'Entrar no Sistema' })).toBeEnabled()
	)
	expect(login.asked.length).toBeGreaterThan(0)
	expect(login.unnamed).toEqual([])
	expect(login.asked.filter((script) => /\/zod\.[^/]+\.js$/.test(script))).toEqual([])
	await anonymous.close()

	await page.setViewportSize(PHONE)
	await signIn(page, ACCOUNTS.administrador)
	for (const [path, list] of [
		['/companies', 'Empresas'],
		['/terminals', 'Terminais']
	]) {
		const { asked, unnamed } = await scriptsOf(page, path, () =>
			expect(page.getByRole('list', { name: list }).getByRole('listitem').first()).toBeVisible()
		)
		expect(asked.length, path).toBeGreaterThan(3)
		expect(unnamed, path).toEqual([])
		// The schema library comes only with a form that validates with it, never with a page's first load.
		expect(
			asked.filter((script) => /\/zod\.[^/]+\.js$/.test(script)),
			path
		).toEqual([])
	}
})
