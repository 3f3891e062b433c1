import { expect, test } from '@playwright/test'
import { addDaysIso } from '../../modules/core/dates'
import { formatCnpj } from '../../modules/core/cnpj'
import { isoDateInSaoPaulo } from '../../modules/core/format'
import { ACCOUNTS, companyAction, freshCnpj, journeyRepresentative, openDialog, signIn, toastTitled, uniqueTag } from './fixtures'

test('an administrador creates a company, edits its dates, blocks and unblocks it, toggles notices and maintenance, and deletes it', async ({
	page
}) => {
	// Ten steps through five dialogs: on a loaded machine this takes a minute, so it gets the long time of a slow test.
	test.slow()
	// A company of this attempt alone: its own alphanumeric CNPJ and name (a retry makes another).
	const cnpj = freshCnpj('12ABC')
	const razao = `Mercearia E2E ${uniqueTag()} Ltda`
	await signIn(page, ACCOUNTS.administrador)
	const form = await openDialog(page, '/companies', 'Nova Empresa', 'Nova Empresa')
	await form.getByLabel('Razão social *').fill(razao)
	await form.getByLabel('CNPJ *').fill(cnpj)
	await expect(form.getByLabel('CNPJ *')).toHaveValue(formatCnpj(cnpj))
	await form.getByLabel('Representante *').selectOption({ label: 'Rafael Representações' })
	await form.getByLabel('Cidade').fill('Fortaleza')
	await form.getByLabel('Terminais permitidos').fill('2')
	await page.getByRole('button', { name: 'Criar empresa' }).click()
	await expect(toastTitled(page, 'Empresa criada')).toBeVisible()

	const search = page.getByRole('searchbox', { name: 'Buscar empresas', exact: true })
	await search.fill(formatCnpj(cnpj))
	const row = page.getByRole('row', { name: new RegExp(razao) })
	await expect(row).toBeVisible()
	await expect(row.getByText('Sem licença')).toBeVisible()

	// Dates (administrador only)
	await companyAction(page, razao, 'Editar datas', row)
	const dates = page.getByRole('dialog', { name: 'Editar datas de validade' })
	await dates.getByLabel('Validade da licença').fill('31/12/2030')
	await dates.getByLabel('Validade do certificado').fill('30/06/2030')
	await dates.getByRole('button', { name: 'Salvar datas' }).click()
	await expect(toastTitled(page, 'Datas atualizadas')).toBeVisible()
	await expect(row.getByText('31/12/2030')).toBeVisible()
	await expect(row.getByText(/^Ativa \(\d+ dias\)$/)).toBeVisible()
	// Dates read dd/mm/aaaa whatever the browser's language.
	await companyAction(page, razao, 'Editar datas', row)
	await expect(dates.getByLabel('Validade da licença')).toHaveValue('31/12/2030')
	await dates.getByLabel('Validade do certificado').fill('31/02/2031')
	await expect(dates.getByText('Data inexistente.')).toBeVisible()
	await dates.getByRole('button', { name: 'Cancelar' }).click()

	// Block all systems, then unblock (both confirmed)
	await companyAction(page, razao, 'Bloquear todos os sistemas', row)
	await page.getByRole('dialog', { name: 'Bloquear todos os sistemas?' }).getByRole('button', { name: 'Bloquear' }).click()
	await expect(toastTitled(page, 'Sistemas bloqueados')).toBeVisible()
	await expect(row.getByText('Bloqueada')).toBeVisible()
	await companyAction(page, razao, 'Desbloquear todos os sistemas', row)
	await page.getByRole('dialog', { name: 'Desbloquear todos os sistemas?' }).getByRole('button', { name: 'Desbloquear' }).click()
	await expect(toastTitled(page, 'Sistemas desbloqueados')).toBeVisible()
	await expect(row.getByText(/^Ativa/)).toBeVisible()

	// Notices and maintenance toggles
	await row.getByRole('checkbox', { name: `Exibir aviso de ${razao}` }).click()
	await expect(toastTitled(page, 'Avisos ativados')).toBeVisible()
	await expect(row.getByRole('checkbox', { name: `Exibir aviso de ${razao}` })).toBeChecked()
	await row.getByRole('checkbox', { name: `Manutenção de ${razao}` }).click()
	await expect(toastTitled(page, 'Manutenção ativada')).toBeVisible()
	await expect(row.getByRole('checkbox', { name: `Manutenção de ${razao}` })).toBeChecked()

	// Delete, confirmed
	await companyAction(page, razao, 'Excluir', row)
	await page.getByRole('dialog', { name: 'Excluir empresa?' }).getByRole('button', { name: 'Excluir' }).click()
	await expect(toastTitled(page, 'Empresa excluída')).toBeVisible()
	await expect(page.getByText('Nenhuma empresa encontrada')).toBeVisible()
})

test('a representante sees only their own companies and cannot change dates', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/companies')
	// Other journeys may add a company for this representative meanwhile, so the count is read, not assumed.
	const body = await (await page.request.get('/api/companies?page=1&limit=100')).json()
	expect(body.pagination.total).toBeGreaterThanOrEqual(14)
	expect(body.pagination.total).toBeLessThan(42)
	expect(new Set(body.companies.map((c: { representante: { nome: string } }) => c.representante.nome))).toEqual(
		new Set(['Rafael Representações'])
	)
	await expect(page.getByText(/Mostrando 1 a \d+ de \d+ empresas/)).toBeVisible()
	await expect(page.getByRole('button', { name: 'Editar datas' })).toHaveCount(0)
	await page
		.getByRole('button', { name: /^Editar / })
		.first()
		.click()
	const form = page.getByRole('dialog', { name: 'Editar Empresa' })
	await expect(form.getByLabel('Validade da licença')).toBeDisabled()
	await expect(form.getByText('Representantes não podem alterar este campo')).toBeVisible()
})

test('the companies screen on a phone shows cards', async ({ page }, testInfo) => {
	await page.setViewportSize({ width: 390, height: 844 })
	await signIn(page, ACCOUNTS.gerente)
	await page.goto('/companies')
	await expect(page.getByRole('listitem').filter({ hasText: 'Licença' }).first()).toBeVisible()
	await page.screenshot({ path: testInfo.outputPath('companies-390x844.png') })
	await page.setViewportSize({ width: 1440, height: 900 })
	await expect(page.getByRole('table', { name: 'Empresas' })).toBeVisible()
	await page.screenshot({ path: testInfo.outputPath('companies-1440x900.png') })
})

test('a representante renews a company from the companies screen and sees the new expiry there', async ({ page, baseURL }) => {
	// A representative of this journey alone, with credits and an active company nobody else renews meanwhile.
	const validade = addDaysIso(isoDateInSaoPaulo(new Date()), 30)
	const rep = await journeyRepresentative(baseURL!, { credits: 2, companies: [{ validade_licenca: validade }] })
	const [company] = rep.companies
	await signIn(page, rep.masked, rep.senha)
	await page.goto('/companies')
	await page.getByRole('searchbox', { name: 'Buscar empresas', exact: true }).fill(company.razao)
	const row = page.getByRole('row', { name: new RegExp(company.razao) })
	await companyAction(page, company.razao, 'Renovar créditos', row)
	const dialog = page.getByRole('dialog', { name: `Renovar créditos — ${company.razao}` })
	await dialog.getByLabel('Sistema').selectOption('K-RETA')
	await dialog.getByLabel('Quantidade de créditos').fill('1')
	const expected = addDaysIso(validade, 33).split('-').reverse().join('/')
	await expect(dialog.getByTestId('transfer-new-expiry')).toHaveText(expected)
	await dialog.getByRole('button', { name: 'Renovar' }).click()
	await page.getByRole('dialog', { name: 'Confirmar renovação' }).getByRole('button', { name: 'Renovar' }).click()
	await expect(toastTitled(page, 'Créditos renovados')).toBeVisible()
	await expect(row.getByText(expected)).toBeVisible()
})

test('Nova Empresa with a CNPJ already registered says so beside the CNPJ field, with no toast', async ({ page }) => {
	await page.setViewportSize({ width: 1440, height: 900 })
	const cnpj = freshCnpj('12DUP')
	await signIn(page, ACCOUNTS.administrador)
	const fill = async (razao: string) => {
		const form = await openDialog(page, '/companies', 'Nova Empresa', 'Nova Empresa')
		await form.getByLabel('Razão social *').fill(razao)
		await form.getByLabel('CNPJ *').fill(cnpj)
		await form.getByLabel('Representante *').selectOption({ label: 'Rafael Representações' })
		await form.getByRole('button', { name: 'Criar empresa' }).click()
		return form
	}
	await fill(`Primeira E2E ${uniqueTag()} Ltda`)
	await expect(toastTitled(page, 'Empresa criada')).toBeVisible()
	const form = await fill(`Segunda E2E ${uniqueTag()} Ltda`)
	const field = form.getByLabel('CNPJ *')
	await expect(field).toHaveAttribute('aria-invalid', 'true')
	await expect(field).toBeFocused()
	await expect(form.getByRole('alert').filter({ hasText: 'Já existe uma empresa cadastrada com este CNPJ.' })).toBeVisible()
	await expect(toastTitled(page, 'Erro ao criar empresa')).toHaveCount(0)
	// Changing the CNPJ clears the message.
	await field.fill(freshCnpj('12DUP'))
	await expect(form.getByRole('alert').filter({ hasText: 'Já existe uma empresa' })).toHaveCount(0)
	await form.getByRole('button', { name: 'Cancelar' }).click()
})

for (const [size, viewport] of [
	['390x844', { width: 390, height: 844 }],
	['1440x900', { width: 1440, height: 900 }]
] as const) {
	test(`at ${size}, an error toast over Nova Empresa covers none of its buttons`, async ({ page }, testInfo) => {
		await page.setViewportSize(viewport)
		await signIn(page, ACCOUNTS.administrador)
		const form = await openDialog(page, '/companies', 'Nova Empresa', 'Nova Empresa')
		await form.getByLabel('Razão social *').fill(`Falha E2E ${uniqueTag()} Ltda`)
		await form.getByLabel('CNPJ *').fill(freshCnpj('12ERR'))
		await form.getByLabel('Representante *').selectOption({ label: 'Rafael Representações' })
		// The server fails this once: the error can only be a toast.
		await page.route('**/api/companies', (route) =>
			route.request().method() === 'POST'
				? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Falha simulada.' }) })
				: route.fallback()
		)
		await form.getByRole('button', { name: 'Criar empresa' }).click()
		const toast = toastTitled(page, 'Erro ao criar empresa')
		await expect(toast).toBeVisible()
		const box = (await toast.boundingBox())!
		for (const name of ['Cancelar', 'Criar empresa']) {
			const button = (await form.getByRole('button', { name, exact: true }).boundingBox())!
			const apart =
				box.x + box.width <= button.x ||
				button.x + button.width <= box.x ||
				box.y + box.height <= button.y ||
				button.y + button.height <= box.y
			expect(apart, `the toast covers '${name}'`).toBe(true)
		}
		await page.screenshot({ path: testInfo.outputPath(`toast-over-company-dialog-${size}.png`) })
	})
}

test('on a phone, an error toast from a dialog shows on top of the dialog', async ({ page }, testInfo) => {
	await page.setViewportSize({ width: 390, height: 844 })
	await signIn(page, ACCOUNTS.representante)
	const dialog = await openDialog(page, '/terminals', 'Novo Terminal', 'Novo terminal')
	// A company already using all its terminals: "(n/n)".
	const full = dialog.locator('option', { hasText: /\((\d+)\/\1\)$/ }).first()
	await dialog.getByLabel('Empresa *').selectOption((await full.getAttribute('value'))!)
	await dialog.getByLabel('Endereço MAC *').fill('AABBCC001199')
	await dialog.getByRole('button', { name: 'Salvar' }).click()
	const toast = toastTitled(page, 'Erro ao criar terminal')
	await expect(toast).toBeVisible()
	const box = (await toast.boundingBox())!
	const onTop = await page.evaluate(
		([x, y]) => document.elementFromPoint(x, y)?.closest('[aria-label="Notificações (F8)"]') !== null,
		[box.x + box.width / 2, box.y + box.height / 2]
	)
	expect(onTop).toBe(true)
	await expect(dialog).toBeVisible()
	await page.screenshot({ path: testInfo.outputPath('toast-over-dialog-390x844.png') })
})
