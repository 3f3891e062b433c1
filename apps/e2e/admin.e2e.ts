import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { type Page, expect, test } from '@playwright/test'
import {
	ACCOUNTS,
	answerApi,
	expectVisibleTexts,
	fillFields,
	openDialog,
	shellReady,
	signIn,
	uniqueTag,
	withoutFirstReads
} from './fixtures'

/** The colour a `bg-primary` element gets on this page, as the browser computes it. */
function primaryColour(page: Page) {
	return page.evaluate(() => {
		const probe = document.createElement('div')
		probe.className = 'bg-primary'
		document.body.append(probe)
		const colour = getComputedStyle(probe).backgroundColor
		probe.remove()
		return colour
	})
}

async function saveTheme(page: Page, primary: string) {
	await page.getByRole('tab', { name: 'Aparência' }).click()
	await page.getByRole('textbox', { name: 'Cor primária', exact: true }).fill(primary)
	await expect(page.getByText('Você tem alterações não salvas.')).toBeVisible()
	await page.getByRole('button', { name: 'Salvar Alterações' }).click()
	await expect(page.getByText('Configurações salvas')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Salvar Alterações' })).toBeDisabled()
}

test('an administrador changes the primary colour and sees it applied after reload', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	try {
		await page.goto('/settings')
		await expect(page.getByText('Conectado')).toBeVisible()
		expect(await primaryColour(page)).toBe('rgb(17, 5, 59)')
		await saveTheme(page, '#FF0000')
		await page.reload()
		await expect(page.locator('style#kportal-tema')).toHaveCount(1)
		expect(await primaryColour(page)).toBe('rgb(255, 0, 0)')
		// Saved for everyone: another page, too.
		await page.goto('/notices')
		expect(await primaryColour(page)).toBe('rgb(255, 0, 0)')
		await page.goto('/settings')
		await saveTheme(page, '#11053B')
		await page.reload()
		expect(await primaryColour(page)).toBe('rgb(17, 5, 59)')
	} finally {
		// The theme is everyone's: whatever happened above, the next journey (or a retry) finds the default colour.
		const reset = await page.request.post('/api/configuracoes/bulk', {
			data: { configuracoes: [{ chave: 'tema.cor_primaria', valor: '#11053B' }] },
			headers: { origin: new URL(page.url()).origin }
		})
		expect(reset.status()).toBe(200)
	}
})

test('an administrador creates a backup, downloads it and deletes it', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/settings')
	await page.getByRole('tab', { name: 'Sistema' }).click()
	await expect(page.getByText('v2.1.0')).toBeVisible()
	await expect(page.getByText('Online')).toBeVisible()
	await page.getByRole('button', { name: 'Criar Backup' }).click()
	await expect(page.getByText('Backup criado')).toBeVisible()
	const link = page.getByRole('link', { name: /^Baixar backup-manual-.*\.tar\.gz$/ }).first()
	await expect(link).toBeVisible()
	const filename = ((await link.getAttribute('aria-label')) ?? '').replace('Baixar ', '')

	const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
	expect(download.suggestedFilename()).toBe(filename)
	const tar = gunzipSync(readFileSync((await download.path())!))
	// A tar whose entries include the database and the manifest.
	expect(tar.subarray(257, 262).toString()).toBe('ustar')
	const names = tar.toString('latin1')
	expect(names).toContain('portal.sqlite')
	expect(names).toContain('manifest.json')
	expect(names).toContain('SQLite format 3')

	await page.getByRole('button', { name: `Excluir ${filename}` }).click()
	await page.getByRole('dialog', { name: 'Excluir backup' }).getByRole('button', { name: 'Excluir' }).click()
	await expect(page.getByText('Backup deletado')).toBeVisible()
	await expect(page.getByRole('link', { name: `Baixar ${filename}` })).toBeHidden()
})

test('a representante opening /settings sees Acesso Negado', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/settings')
	await expect(page.getByRole('heading', { name: 'Acesso Negado', level: 2 })).toBeVisible()
	await expect(page.getByText('Você não tem permissão para acessar as configurações do sistema.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Salvar Alterações' })).toBeHidden()
})

test('an administrador publishes an urgent general notice and a representante sees it in the notifications', async ({ page, browser }) => {
	// Its own title: a retry, or another run's leftover, is never the row this attempt looks for.
	const titulo = `Atualização obrigatória E2E ${uniqueTag()}`
	await signIn(page, ACCOUNTS.administrador)
	const dialog = await openDialog(page, '/notices', 'Novo Aviso Geral', 'Novo aviso geral')
	await dialog.getByRole('button', { name: 'Criar aviso' }).click()
	await expect(dialog.getByText('Título é obrigatório')).toBeVisible()
	await fillFields(dialog, { Título: titulo, Texto: 'Atualize o K-PDV até sexta-feira.' })
	await dialog.getByLabel('Urgente').check()
	await dialog.getByRole('button', { name: 'Criar aviso' }).click()
	await expect(page.getByText('Aviso geral criado')).toBeVisible()
	const row = page.getByRole('row', { name: new RegExp(titulo) })
	await expectVisibleTexts(row, ['Urgente', 'Ativo'])

	const rep = await browser.newPage()
	await signIn(rep, ACCOUNTS.representante)
	const bell = rep.getByRole('button', { name: /^Notificações \(\d+ não lidas\)$/ })
	const panel = rep.getByRole('dialog', { name: 'Notificações' })
	// The bell is server-rendered before its island hydrates (and disabled until then).
	await shellReady(rep)
	await bell.click()
	await expect(panel).toBeVisible()
	const item = panel.getByText(titulo)
	await expect(item).toBeVisible()
	await rep.getByRole('button', { name: 'Marcar todas como lidas' }).click()
	await expect(rep.getByText('Notificações limpas com sucesso!')).toBeVisible()
	await expect(rep.getByRole('button', { name: 'Notificações', exact: true })).toBeVisible()
	await rep.close()

	await row.getByRole('button', { name: `Excluir aviso ${titulo}` }).click()
	await page.getByRole('dialog', { name: 'Excluir aviso geral' }).getByRole('button', { name: 'Excluir' }).click()
	await expect(page.getByText('Aviso geral excluído')).toBeVisible()
})

test('the settings screen falls back to the values saved in this browser, marked Local, when the server cannot answer', async ({
	page
}) => {
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/settings')
	await expect(page.getByText('Conectado')).toBeVisible()
	await expect(page.getByLabel('Dias por crédito')).toHaveValue('33')
	await withoutFirstReads(page)
	await answerApi(page, '**/api/configuracoes', 503, '{"message":"Banco de dados indisponível."}')
	await page.reload()
	await expect(page.getByText('Local', { exact: true })).toBeVisible({ timeout: 15_000 })
	await expect(page.getByLabel('Dias por crédito')).toHaveValue('33')
	await expect(page.getByText('Exibindo os valores salvos neste navegador.')).toBeVisible()
})

test('a gerente reads the settings but cannot change them or reach backups', async ({ page }) => {
	await signIn(page, ACCOUNTS.gerente)
	await page.goto('/settings')
	await expect(page.getByText('Conectado')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Salvar Alterações' })).toBeHidden()
	await expect(page.getByLabel('Dias por crédito')).toBeDisabled()
	await page.getByRole('tab', { name: 'Segurança' }).click()
	await expect(page.getByRole('heading', { name: 'Acesso Restrito' })).toBeVisible()
	await page.getByRole('tab', { name: 'Sistema' }).click()
	await expect(page.getByText('v2.1.0')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Criar Backup' })).toBeHidden()
	await expect(page.getByRole('button', { name: 'Limpar Cache' })).toBeHidden()
})
