import { expect, test } from '@playwright/test'
import { ACCOUNTS, administradorApi, journeyRepresentative, signIn, uniqueTag } from './fixtures'
import { asaasUrl } from './ports'

test('an administrador rehearses a representative’s sandbox account on Admin Financeiro and sees the portal’s use of it', async ({
	page,
	baseURL
}) => {
	const rep = await journeyRepresentative(baseURL!)
	const admin = await administradorApi(baseURL!)
	const key = `$aact_hmlg_ensaio_${uniqueTag()}_0000000000000000`
	const saved = await admin.put(`/api/admin/asaas-configs/${rep.cnpj}`, {
		data: { representante_cnpj: rep.cnpj, ativar_api_asaas: true, asaas_api_key: key, asaas_ambiente: 'sandbox' }
	})
	expect(saved.status(), await saved.text()).toBe(200)
	await admin.dispose()

	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/admin/financeiro-config')
	const card = page
		.getByRole('heading', { name: 'Contas dos representantes' })
		.locator('..')
		.locator('div.space-y-2', { hasText: rep.nome })
	await expect(card.getByText(/Uso do Asaas pelo portal \(12 h\): \d+ de 25\.000 requisições/)).toBeVisible()
	const rehearse = () => card.getByRole('button', { name: `Ensaio completo no sandbox de ${rep.nome}` }).click()
	const dialog = page.getByRole('dialog', { name: `Ensaio completo no sandbox — ${rep.nome}` })
	// A new sandbox account has no Pix key: the rehearsal says what fails and what to do.
	await rehearse()
	await expect(dialog.getByText('1 passo(s) de que o portal depende falharam: veja cada um abaixo.')).toBeVisible({ timeout: 30_000 })
	await expect(dialog.getByText(/Cadastre uma chave Pix na conta Asaas/)).toBeVisible()
	await page.keyboard.press('Escape')
	await expect(dialog).toBeHidden()
	// The key registered at the (local) Asaas, the same rehearsal passes.
	expect((await page.request.post(`${new URL(asaasUrl).origin}/__standin/pix-keys`, { data: { apiKey: key } })).status()).toBe(200)
	await rehearse()
	await expect(dialog.getByText('Tudo certo: o portal funciona com esta conta.')).toBeVisible({ timeout: 30_000 })
	await expect(dialog.getByText(/Carnê de 2 parcelas:/)).toBeVisible()
	await dialog.getByText('Fechar', { exact: true }).click()
	await expect(dialog).toBeHidden()
})
