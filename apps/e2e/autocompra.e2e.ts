import { expect, test } from '@playwright/test'
import { ACCOUNTS, administradorApi, signIn, toastTitled } from './fixtures'
import { asaasUrl } from './ports'

const asaasOrigin = new URL(asaasUrl).origin

test('without the vendor’s Asaas account the screen says so before anyone fills the form', async ({ page, baseURL }) => {
	const admin = await administradorApi(baseURL!)
	const cleared = await admin.put('/api/admin/asaas-vendor', { data: { asaas_api_key: '', asaas_ambiente: 'sandbox' } })
	expect(cleared.status()).toBe(200)
	await admin.dispose()
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/autocompra-creditos')
	await expect(page.getByText('Sistema indisponível')).toBeVisible()
	await expect(page.getByRole('alert').filter({ hasText: 'Sistema não configurado' })).toBeVisible()
	await expect(page.getByText('Sistema ativo')).toHaveCount(0)
	await expect(page.getByLabel('Quantidade de créditos')).toHaveCount(0)
})

test('a representante buys 2 credits by PIX, pays at the stand-in, and the screen confirms it with the credits added', async ({
	page,
	browser,
	baseURL
}) => {
	// The vendor's Asaas account, as the administrador saves it in Admin Financeiro: the stand-in's sandbox.
	const admin = await administradorApi(baseURL!)
	const vendorKey = `$aact_hmlg_e2e_vendor_${Date.now()}`
	const saved = await admin.put('/api/admin/asaas-vendor', { data: { asaas_api_key: vendorKey, asaas_ambiente: 'sandbox' } })
	expect(saved.status()).toBe(200)
	// A real account charges by PIX only with a Pix key registered (the stand-in refuses the QR without one).
	expect((await page.request.post(`${asaasOrigin}/__standin/pix-keys`, { data: { apiKey: vendorKey } })).status()).toBe(200)
	await admin.dispose()

	await signIn(page, ACCOUNTS.representante)
	await page.goto('/autocompra-creditos')
	await expect(page.getByText('Sistema ativo')).toBeVisible()
	const availableFigure = page.getByTestId('credits-available')
	await expect(availableFigure).toHaveText(/^\d[\d.]*$/)
	const before = Number((await availableFigure.textContent())!.replace(/\./g, ''))

	// Above 1.000 is refused beside the field, never bought as 1.000.
	const quantity = page.getByLabel('Quantidade de créditos')
	await quantity.fill('1500')
	await page.getByRole('button', { name: /^Comprar por/ }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Informe uma quantidade de 1 a 1000 créditos.' })).toBeVisible()
	await expect(quantity).toHaveValue('1500')
	await expect(quantity).toHaveAttribute('aria-invalid', 'true')
	await expect(toastTitled(page, 'Compra processada')).toHaveCount(0)
	await quantity.fill('2')
	await expect(page.getByRole('alert').filter({ hasText: 'Informe uma quantidade' })).toHaveCount(0)
	await expect(page.getByText('Mínimo: 1 crédito | Máximo: 1.000 créditos')).toBeVisible()
	await page.getByRole('button', { name: 'Comprar por R$ 100,00' }).click()
	await expect(toastTitled(page, 'Compra processada')).toBeVisible()
	await expect(page.getByRole('img', { name: 'QR Code PIX para pagamento' })).toBeVisible()
	const code = page.getByLabel('PIX Copia e Cola')
	await expect(code).toHaveValue(/^000201/)
	await expect(page.getByRole('button', { name: 'Copiar' })).toBeVisible()
	await expect(page.getByText('Aguardando pagamento', { exact: true })).toBeVisible()

	// Leaving a PIX still awaited asks first; 'Voltar' keeps it on screen.
	await page.getByRole('button', { name: 'Fazer Nova Compra' }).click()
	const leave = page.getByRole('dialog', { name: 'PIX ainda não pago' })
	await expect(leave).toContainText('você é avisado nas notificações')
	await leave.getByRole('button', { name: 'Voltar' }).click()
	await expect(leave).toBeHidden()
	await expect(code).toHaveValue(/^000201/)

	// The buyer pays: the stand-in's "pagar" on its charges page.
	const asaas = await (await browser.newContext()).newPage()
	await asaas.goto(`${asaasOrigin}/`)
	const row = asaas.getByRole('row').filter({ hasText: 'compra nº' }).filter({ hasText: 'Aguardando pagamento' }).first()
	await expect(row).toContainText('R$ 100,00')
	await row.getByRole('button', { name: 'pagar' }).click()
	await asaas.close()

	await expect(page.getByText('🎉 Pagamento Confirmado!').first()).toBeVisible({ timeout: 15_000 })
	await expect(availableFigure).toHaveText(String(before + 2))
	await page.getByRole('button', { name: 'Fazer Nova Compra' }).click()
	await expect(page.getByRole('button', { name: 'Comprar por R$ 50,00' })).toBeVisible()

	// A PIX left for a new purchase and paid afterwards: the top bar tells the buyer when it is credited.
	await page.getByRole('button', { name: 'Comprar por R$ 50,00' }).click()
	await expect(code).toHaveValue(/^000201/)
	await page.getByRole('button', { name: 'Fazer Nova Compra' }).click()
	await page.getByRole('dialog', { name: 'PIX ainda não pago' }).getByRole('button', { name: 'Fazer nova compra' }).click()
	await expect(page.getByRole('button', { name: 'Comprar por R$ 50,00' })).toBeVisible()
	const later = await (await browser.newContext()).newPage()
	await later.goto(`${asaasOrigin}/`)
	const left = later
		.getByRole('row')
		.filter({ hasText: 'compra nº' })
		.filter({ hasText: 'Aguardando pagamento' })
		.filter({ hasText: 'R$ 50,00' })
	await left.first().getByRole('button', { name: 'pagar' }).click()
	await later.close()
	const bell = page.getByRole('button', { name: /^Notificações \(\d+ não lidas\)$/ })
	await expect(async () => {
		await bell.click()
		const told = page.getByRole('dialog', { name: 'Notificações', exact: true })
		try {
			await expect(told.getByText('PIX de R$ 50,00 recebido: 1 crédito adicionado ao seu saldo.').first()).toBeVisible({ timeout: 1000 })
		} finally {
			await told.getByRole('button', { name: 'Fechar' }).first().click()
		}
	}).toPass({ timeout: 20_000 })
	// The figure on the form follows: the notification has the balances read again.
	await expect(availableFigure).toHaveText(String(before + 3))
})
