import { expect, test } from '@playwright/test'
import { journeyRepresentative, signIn, toastTitled } from './fixtures'
import { withOwnAsaas } from './gateways'
import { ASAAS_PORT } from './ports'

/** YYYY-MM-DD and dd/mm/aaaa of a day some days from now (Brazil time). */
function dayIn(days: number) {
	const br = new Date(Date.now() + days * 86_400_000).toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' })
	return { br, iso: br.split('/').reverse().join('-') }
}

test('a carnê with automatic renewal: parcel 1 paid on the Asaas stand-in’s page moves the licence date and writes the history line', async ({
	page,
	baseURL
}) => {
	// Issuing at Asaas, paying on its page and the webhook: longer than the usual journey on two shared cores.
	test.setTimeout(120_000)
	const licence = dayIn(20)
	const renewed = dayIn(20 + 66)
	const rep = await journeyRepresentative(baseURL!, { credits: 5, companies: [{ validade_licenca: licence.iso }] })
	const [company] = rep.companies
	await signIn(page, rep.masked, rep.senha)
	await withOwnAsaas(page, baseURL!)

	await page.goto('/carnes')
	await page.getByRole('button', { name: 'Criar Primeiro Carnê' }).click()
	const dialog = page.getByRole('dialog', { name: 'Novo Carnê' })
	const picker = dialog.getByRole('combobox', { name: 'Empresa' })
	await picker.fill(company.razao)
	await expect(dialog.getByRole('option').first()).toContainText(company.razao)
	await picker.press('Enter')
	await dialog.getByLabel('Valor Total (R$)').fill('300,00')
	await dialog.getByLabel('Parcelas').fill('3')
	await dialog.getByPlaceholder('dd/mm/aaaa').fill(dayIn(10).br)
	// With credits, the renewal is on by default; the dialog says what each parcel's credits buy.
	const renew = dialog.getByRole('checkbox', { name: 'Renovar a licença a cada parcela paga' })
	await expect(renew).toBeChecked()
	await expect(dialog.getByText('Você tem 5 créditos disponíveis.')).toBeVisible()
	await expect(dialog.getByText('1 crédito = 33 dias de licença')).toBeVisible()
	await dialog.getByLabel('Créditos por parcela').fill('2')
	await expect(dialog.getByText('2 créditos = 66 dias de licença')).toBeVisible()
	await dialog.getByRole('button', { name: 'Criar Carnê' }).click()
	await expect(toastTitled(page, 'Carnê criado com sucesso!')).toBeVisible()
	const card = page.getByRole('article').filter({ hasText: company.razao })
	await expect(card.getByText('Renova a licença a cada parcela paga (2 créditos por parcela)')).toBeVisible()

	// The client pays parcel 1 on the Asaas stand-in's page.
	await page.goto(`http://127.0.0.1:${ASAAS_PORT}/`)
	const parcel1 = page.getByRole('row').filter({ hasText: company.razao }).filter({ hasText: '(parcela 1)' })
	await parcel1.getByRole('button', { name: 'pagar' }).click()
	await expect(parcel1).toContainText(/Confirmada|Recebida/)

	// Back in the portal: the parcel says what it renewed (the list reads again by itself within seconds).
	await page.goto('/carnes')
	await card.getByRole('button', { name: 'Ver parcelas' }).click()
	await expect(card.getByText(`Renovou a licença até ${renewed.br}`)).toBeVisible({ timeout: 20_000 })
	// The licence date moved by 2 credits × 33 days.
	await page.goto('/companies')
	await expect(page.getByRole('row').filter({ hasText: company.razao }).getByText(renewed.br)).toBeVisible()
	// The history line says which parcel renewed what, up to which date.
	await page.goto('/historico-pagamentos')
	const line = page.getByRole('row').filter({ hasText: 'Renovação da licença' })
	await expect(line).toHaveCount(1)
	await expect(line).toContainText(`renovou a licença de ${company.razao} até ${renewed.br} (2 créditos, +66 dias)`)
	// Two credits left the representative's pool.
	await page.goto('/credits')
	await expect(page.getByTestId('credits-available')).toHaveText('3')
})
