import { type APIRequestContext, type Locator, type Page, expect, request } from '@playwright/test'
import { completeCnpj, formatCnpj } from '../../modules/core'

/** The demo accounts of db/seed.ts (password demo1234): shared by every journey, so journeys only read their data. */
export const ACCOUNTS = {
	administrador: '99.000.000/0001-59',
	gerente: '99.000.000/0002-30',
	representante: '99.000.000/0003-10',
	/** Norte Sistemas e Automação: alphanumeric CNPJ, no credits in the demo data. */
	representanteSemCreditos: '99.ABC.000/0005-36'
}
export const DEMO_PASSWORD = 'demo1234'

/**
 * The page's server-rendered top bar and menu answer clicks: the layout's script has run and the top bar's island
 * has hydrated (each sets a mark on <html>). Before that a click on 'Sair' or the bell does nothing.
 */
export async function shellReady(page: Page) {
	await page.locator('html[data-shell-ready][data-controls-ready]').waitFor({ state: 'attached' })
}

export async function signIn(page: Page, cnpj: string, senha = DEMO_PASSWORD) {
	await page.goto('/')
	// fill and click wait for the login form's island: its fields are read-only and its button disabled until then.
	await page.getByLabel('CNPJ').fill(cnpj)
	await page.getByLabel('Senha', { exact: true }).fill(senha)
	await page.getByRole('button', { name: 'Entrar no Sistema' }).click()
	await expect(page.getByText('Login realizado com sucesso')).toBeVisible()
	await shellReady(page)
}

/**
 * Pages arrive with their first reads answered by the server (issue 15): a test that makes an API call fail
 * in the browser takes those answers out of the page, so the island asks the API as it did before.
 */
export async function withoutFirstReads(page: Page) {
	await page.route('**/*', async (route) => {
		if (route.request().resourceType() !== 'document') return route.fallback()
		const response = await route.fetch()
		const html = (await response.text()).replace(/"reads":[\s\S]*?\}<\/script>/, '"reads":{}}</script>')
		await route.fulfill({ response, body: html })
	})
}

/** The browser gets this JSON answer (`status`, `body`) for the API calls matching `pattern`, instead of the server's. */
export function answerApi(page: Page, pattern: string, status: number, body: string) {
	return page.route(pattern, (route) => route.fulfill({ status, contentType: 'application/json', body }))
}

export const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Menu principal' })

/** Goes to `path`, clicks its button `button` and answers the dialog that opens, named `dialog`. */
export async function openDialog(page: Page, path: string, button: string, dialog: string) {
	await page.goto(path)
	await page.getByRole('button', { name: button }).click()
	return page.getByRole('dialog', { name: dialog })
}

/** Chooses `action` in the menu of the company `razao` (its "Mais ações" button, inside `where` when given). */
export async function companyAction(page: Page, razao: string, action: string, where: Page | Locator = page) {
	await where.getByRole('button', { name: `Mais ações de ${razao}` }).click()
	await page.getByRole('button', { name: action }).click()
}

/** Types each value into the field of its label inside `where`, in order. */
export async function fillFields(where: Locator, values: Record<string, string>) {
	for (const [label, value] of Object.entries(values)) await where.getByLabel(label).fill(value)
}

/**
 * Sends the form in `dialog` with its button `send`: it is refused with `message` beside the one invalid field; then
 * the fields are fixed with `fixes` and it is sent again.
 */
export async function sendRefusedThenFixed(dialog: Locator, send: string, message: string, fixes: Record<string, string>) {
	await dialog.getByRole('button', { name: send }).click()
	await expect(dialog.getByRole('alert')).toHaveText(message)
	await fillFields(dialog, fixes)
	await dialog.getByRole('button', { name: send }).click()
}

/** Each text is visible inside `where` (e.g. a form's messages beside their fields, a row's badges). */
export async function expectVisibleTexts(where: Locator, texts: string[]) {
	for (const text of texts) await expect(where.getByText(text)).toBeVisible()
}

/** The toast region's current toast with this title. */
export const toastTitled = (page: Page, title: string) => page.getByLabel('Notificações (F8)').getByText(title, { exact: true })

/** A valid CNPJ nobody else in this run uses (a retry gets a new one too); `prefix` may hold letters. */
export function freshCnpj(prefix: string) {
	const digits = String(Math.floor(Math.random() * 1e12)).padStart(12, '0')
	return completeCnpj((prefix + digits).slice(0, 12))
}

/** A suffix that tells this attempt's records apart from every other journey's (and from a retry's). */
export const uniqueTag = () => Math.random().toString(36).slice(2, 8).toUpperCase()

/** The administrador's API, signed in, for journeys that prepare data of their own. Dispose it at the end. */
export async function administradorApi(baseURL: string): Promise<APIRequestContext> {
	const api = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } })
	const res = await api.post('/api/auth/login', { data: { cnpj: ACCOUNTS.administrador, senha: DEMO_PASSWORD } })
	expect(res.status()).toBe(200)
	return api
}

export const JOURNEY_PASSWORD = 'jornada-e2e-senha'

export interface JourneyRepresentative {
	cnpj: string
	masked: string
	nome: string
	senha: string
	companies: { codigo: number; razao: string; validade_licenca: string | null }[]
}

/**
 * A representative of this journey alone, made through the API as the administrador: a login (JOURNEY_PASSWORD),
 * its representative record, `credits` credits and the companies asked for. Nothing another journey does can touch it.
 */
export async function journeyRepresentative(
	baseURL: string,
	options: { credits?: number; companies?: { validade_licenca?: string | null; nterminais?: number; fone?: string }[] } = {}
): Promise<JourneyRepresentative> {
	const api = await administradorApi(baseURL)
	try {
		const tag = uniqueTag()
		const cnpj = freshCnpj('7')
		const nome = `Representante Jornada ${tag}`
		const user = await api.post('/api/users', { data: { cnpj, nome, tipo: 'representante', senha: JOURNEY_PASSWORD } })
		expect(user.status(), await user.text()).toBe(201)
		if (options.credits) {
			const added = await api.post('/api/credits', { data: { representanteId: cnpj, amount: options.credits, unitValue: 50 } })
			expect(added.status(), await added.text()).toBe(201)
		}
		const companies: JourneyRepresentative['companies'] = []
		for (const [i, company] of (options.companies ?? []).entries()) {
			const razao = `Cliente ${tag} ${i + 1} Ltda`
			const created = await api.post('/api/companies', {
				data: { razao, cnpj: freshCnpj('6'), cnpj_representante: cnpj, nterminais: company.nterminais ?? 1, ...company }
			})
			expect(created.status(), await created.text()).toBe(201)
			const { codigo, validade_licenca } = (await created.json()).company as { codigo: number; validade_licenca: string | null }
			companies.push({ codigo, razao, validade_licenca })
		}
		return { cnpj, masked: formatCnpj(cnpj), nome, senha: JOURNEY_PASSWORD, companies }
	} finally {
		await api.dispose()
	}
}
