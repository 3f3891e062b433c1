import { type Page, expect, test } from '@playwright/test'
import { addDaysIso } from '../../modules/core/dates'
import { isoDateInSaoPaulo } from '../../modules/core/format'
import { ACCOUNTS, expectVisibleTexts, journeyRepresentative, openDialog, sidebar, signIn } from './fixtures'

const NORTE = '99ABC000000536'
const inDays = (days: number) => addDaysIso(isoDateInSaoPaulo(new Date()), days)
const fmt = (iso: string) => iso.split('-').reverse().join('/')
const n = (v: number) => v.toLocaleString('pt-BR')

async function available(page: Page): Promise<number> {
	const res = await page.request.get('/api/credits/available')
	expect(res.ok()).toBe(true)
	return ((await res.json()) as { total: number }).total
}

test('an administrador adds 10 credits; the representative sees them, transfers 3 to a company; dashboard and history show it', async ({
	browser,
	baseURL
}) => {
	// A representative of this journey alone, with no credits and one company with a licence date.
	const rep = await journeyRepresentative(baseURL!, { companies: [{ validade_licenca: inDays(45) }] })
	const [company] = rep.companies

	// The administrador adds 10 credits to it.
	const adminPage = await (await browser.newContext()).newPage()
	await signIn(adminPage, ACCOUNTS.administrador)
	const summary = await adminPage.request.get(`/api/credits/summary?search=${rep.cnpj}`)
	expect(((await summary.json()) as { representatives: { disponivel: number }[] }).representatives[0].disponivel).toBe(0)

	await sidebar(adminPage).getByRole('link', { name: 'Créditos' }).click()
	await expect(adminPage.getByRole('heading', { name: 'Créditos', level: 2 })).toBeVisible()
	await adminPage.getByRole('button', { name: 'Adicionar Créditos' }).click()
	const add = adminPage.getByRole('dialog', { name: 'Adicionar Créditos' })
	await add.getByLabel('Representante').selectOption(rep.cnpj)
	await add.getByLabel('Quantidade').fill('10')
	await add.getByLabel('Valor unitário (R$)').fill('50')
	await add.getByRole('button', { name: 'Adicionar' }).click()
	await expect(adminPage.getByText('Créditos adicionados', { exact: true })).toBeVisible()
	await expect(add).toBeHidden()
	await expect(adminPage.getByRole('row', { name: new RegExp(rep.nome) })).toContainText('10')

	// The representative signs in on the credits screen and sees exactly 10 available, 330 days.
	const repPage = await (await browser.newContext()).newPage()
	await signIn(repPage, rep.masked, rep.senha)
	await expect(repPage.getByRole('heading', { name: 'Créditos', level: 2 })).toBeVisible()
	await expect(repPage.getByTestId('credits-available')).toHaveText('10')
	await expect(repPage.getByText('330 dias').first()).toBeVisible()
	expect(await available(repPage)).toBe(10)

	// It transfers 3 credits to its company.
	const expected = addDaysIso(company.validade_licenca!, 3 * 33)
	await repPage.getByRole('button', { name: 'Transferir para Empresa' }).click()
	const dialog = repPage.getByRole('dialog', { name: 'Transferir Créditos para Empresa' })
	await dialog.getByLabel('Empresa', { exact: true }).selectOption(String(company.codigo))
	await dialog.getByLabel('Sistema').selectOption('K-PDV')
	await dialog.getByLabel('Quantidade de créditos').fill('3')
	await expect(dialog.getByTestId('transfer-available')).toHaveText('10')
	await expect(dialog.getByTestId('transfer-new-expiry')).toHaveText(fmt(expected))
	await dialog.getByRole('button', { name: 'Transferir' }).click()
	const confirm = repPage.getByRole('dialog', { name: 'Confirmar transferência' })
	await expect(confirm).toContainText(`3 créditos do K-PDV`)
	await expect(confirm).toContainText(fmt(expected))
	const [response] = await Promise.all([
		repPage.waitForResponse((r) => r.url().endsWith('/api/credits/transfer-to-company')),
		confirm.getByRole('button', { name: 'Transferir' }).click()
	])
	expect(response.status()).toBe(200)
	expect(await response.json()).toMatchObject({
		creditos: 3,
		dias: 99,
		validade_anterior: company.validade_licenca,
		validade_licenca: expected
	})
	await expect(repPage.getByText('Créditos transferidos', { exact: true })).toBeVisible()
	await expect(dialog).toBeHidden()
	await expect(repPage.getByTestId('credits-available')).toHaveText('7')
	await expect(repPage.getByRole('region', { name: 'Transferências para Empresas' }).getByText(company.razao).first()).toBeVisible()

	// The company's licence moved by 99 days.
	await repPage.goto('/companies')
	await repPage.getByRole('searchbox', { name: 'Buscar empresas', exact: true }).fill(company.razao)
	await expect(repPage.getByRole('row', { name: new RegExp(company.razao) }).getByText(fmt(expected))).toBeVisible()

	// The administrador's dashboard shows the credits the API counts (other journeys move credits at the same time,
	// so the card is compared with what the API says now), and the history shows the transfer and the addition.
	await adminPage.goto('/')
	await expect(adminPage.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible()
	await expect
		.poll(
			async () => {
				const api = ((await (await adminPage.request.get('/api/dashboard/stats')).json()) as { availableCredits: number }).availableCredits
				await adminPage.reload()
				const card = adminPage.getByTestId('dashboard-credits')
				await card.waitFor()
				return (await card.textContent()) === n(api)
			},
			{ timeout: 30_000 }
		)
		.toBe(true)
	await adminPage.getByRole('region', { name: 'Atividade Recente' }).getByRole('link', { name: 'Ver todas as atividades' }).click()
	await expect(adminPage.getByRole('heading', { name: 'Histórico de Atividades', level: 2 })).toBeVisible()
	// The history is everyone's: the search narrows it to this journey's company and representative.
	const search = adminPage.getByRole('searchbox', { name: 'Buscar atividades' })
	await search.fill(company.razao)
	const transferLine = adminPage.getByText(`3 créditos transferidos para ${company.razao}`)
	await expect(transferLine).toBeVisible()
	// The transfer is a success line: filtering by warnings hides it.
	await adminPage.getByLabel('Tipo', { exact: true }).selectOption('warning')
	await expect(transferLine).toBeHidden()
	await adminPage.getByLabel('Tipo', { exact: true }).selectOption('success')
	await expect(transferLine).toBeVisible()
	await adminPage.getByLabel('Tipo', { exact: true }).selectOption('')
	await search.fill(rep.nome)
	await expect(adminPage.getByText('10 créditos adicionados')).toBeVisible()
})

test('the reports screen exports the current view as a pt-BR CSV', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/reports')
	await expect(page.getByRole('heading', { name: 'Relatórios', level: 2 })).toBeVisible()
	await page.getByLabel('Tipo de relatório').selectOption('financeiro')
	await page.getByRole('button', { name: 'Atualizar' }).click()
	await expect(page.getByRole('heading', { name: 'Receita Mensal' })).toBeVisible()
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar Relatório' }).click()])
	expect(download.suggestedFilename()).toMatch(/^relatorio-financeiro-\d{4}-\d{2}-\d{2}-a-\d{4}-\d{2}-\d{2}\.csv$/)
	const bytes = await (await import('node:fs/promises')).readFile((await download.path())!)
	expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
	const text = bytes.toString('utf8').slice(1)
	expect(text).toContain('Relatório;Financeiro\r\n')
	expect(text).toContain('Mês;Créditos vendidos;Receita (R$)\r\n')
	expect(text).toMatch(/\d{4}-\d{2};\d+;\d+,\d{2}\r\n/)
})

test('a representative cannot open the reports and is refused by the API', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/reports')
	await expect(page.getByText('Apenas administradores podem acessar os relatórios.')).toBeVisible()
	expect((await page.request.get('/api/reports')).status()).toBe(403)
})

test('the credit forms refuse bad input with the spec’s messages, beside each field', async ({ browser, baseURL }) => {
	// The balance this journey asserts is of a representative of its own: no other journey can spend it meanwhile.
	const rep = await journeyRepresentative(baseURL!, { credits: 5, companies: [{ validade_licenca: inDays(30) }] })
	const admin = await (await browser.newContext()).newPage()
	await signIn(admin, ACCOUNTS.administrador)
	const add = await openDialog(admin, '/credits', 'Adicionar Créditos', 'Adicionar Créditos')
	await add.getByRole('button', { name: 'Adicionar' }).click()
	await expect(add.getByText('Selecione um representante para adicionar os créditos.')).toBeVisible()
	await add.getByLabel('Representante').selectOption(NORTE)
	await add.getByLabel('Quantidade').fill('0')
	await expect(add.getByText('A quantidade de créditos deve ser maior que zero.')).toBeVisible()
	await add.getByLabel('Quantidade').fill('2')
	await add.getByLabel('Valor unitário (R$)').fill('0')
	await add.getByRole('button', { name: 'Adicionar' }).click()
	await expect(add.getByText('O valor unitário do crédito deve ser maior que zero.')).toBeVisible()
	await expect(add).toBeVisible()

	const page = await (await browser.newContext()).newPage()
	await signIn(page, rep.masked, rep.senha)
	await page.getByRole('button', { name: 'Transferir para Empresa' }).click()
	const dialog = page.getByRole('dialog', { name: 'Transferir Créditos para Empresa' })
	await dialog.getByRole('button', { name: 'Transferir' }).click()
	await expectVisibleTexts(dialog, ['Selecione a empresa.', 'Selecione o sistema.'])
	await dialog.getByLabel('Empresa', { exact: true }).selectOption(String(rep.companies[0].codigo))
	await dialog.getByLabel('Sistema').selectOption('K-CHEF')
	await dialog.getByLabel('Quantidade de créditos').fill('0')
	await dialog.getByRole('button', { name: 'Transferir' }).click()
	await expect(dialog.getByText('A quantidade de créditos deve ser maior que zero.')).toBeVisible()
	await expect(dialog.getByTestId('transfer-available')).toHaveText('5')
	await dialog.getByLabel('Quantidade de créditos').fill('6')
	await dialog.getByRole('button', { name: 'Transferir' }).click()
	await expect(dialog.getByText('Você possui apenas 5 créditos disponíveis.')).toBeVisible()
	expect(await available(page)).toBe(5)
})
