import { expect, test } from '@playwright/test'
import { ACCOUNTS, answerApi, shellReady, sidebar, signIn, withoutFirstReads } from './fixtures'

test('a wrong password shows "Senha incorreta"', async ({ page }) => {
	await page.goto('/')
	await page.getByLabel('CNPJ').fill('99000000000159')
	await expect(page.getByLabel('CNPJ')).toHaveValue('99.000.000/0001-59')
	await page.getByLabel('Senha', { exact: true }).fill('nao-e-esta')
	await page.getByRole('button', { name: 'Mostrar senha' }).click()
	await expect(page.getByLabel('Senha', { exact: true })).toHaveAttribute('type', 'text')
	await page.getByRole('button', { name: 'Entrar no Sistema' }).click()
	await expect(page.getByText('Senha incorreta')).toBeVisible()
	await expect(page.getByText('A senha informada está incorreta. Verifique e tente novamente.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Entrar no Sistema' })).toBeEnabled()
})

test('an unknown CNPJ shows "CNPJ não encontrado"', async ({ page }) => {
	await page.goto('/')
	await page.getByLabel('CNPJ').fill('45.997.418/0001-53')
	await page.getByLabel('Senha', { exact: true }).fill('qualquer')
	await page.getByRole('button', { name: 'Entrar no Sistema' }).click()
	await expect(page.getByText('CNPJ não encontrado')).toBeVisible()
	await expect(page.getByText('Este CNPJ não está cadastrado no sistema.')).toBeVisible()
})

test('an administrator signs in, sees Usuários, switches to dark theme, keeps it after reload and signs out', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	await expect(page).toHaveURL(/\/$/)
	await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible()
	await expect(sidebar(page).getByRole('link', { name: 'Usuários' })).toBeVisible()
	await expect(sidebar(page).getByText('Ana Administradora')).toBeVisible()

	await expect(page.locator('html')).not.toHaveClass(/dark/)
	await page.getByRole('button', { name: 'Alternar tema claro/escuro' }).click()
	await expect(page.locator('html')).toHaveClass(/dark/)
	await page.reload()
	await expect(page.locator('html')).toHaveClass(/dark/)
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'kportal-dark')

	await shellReady(page)
	await sidebar(page).getByRole('button', { name: 'Sair' }).click()
	await expect(page.getByText('Logout realizado com sucesso')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Entrar no Sistema' })).toBeVisible()
	const me = await page.request.get('/api/auth/me')
	expect(me.status()).toBe(401)
})

test('a representative lands on the credits screen and has no Usuários item', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	await expect(page).toHaveURL(/\/$/)
	await expect(page.getByRole('heading', { name: 'Créditos', level: 2 })).toBeVisible()
	await expect(sidebar(page).getByRole('link', { name: 'Usuários' })).toBeHidden()
	await expect(sidebar(page).getByRole('link', { name: 'Empresas' })).toBeVisible()
	await expect(sidebar(page).getByRole('link', { name: 'Configurações' })).toBeHidden()
	const forbidden = await page.request.post('/api/configuracoes/auto-logout', {
		data: { enabled: true, timeoutMinutes: 30 },
		headers: { origin: new URL(page.url()).origin }
	})
	expect(forbidden.status()).toBe(403)
})

test('an unknown path shows "Page Not Found"', async ({ page }) => {
	await signIn(page, ACCOUNTS.gerente)
	const response = await page.goto('/nao-existe/de-jeito-nenhum')
	expect(response?.status()).toBe(404)
	await expect(page.getByText('Page Not Found')).toBeVisible()
})

test('without a session every page URL shows the login screen', async ({ page }) => {
	await page.goto('/companies')
	await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible()
	await expect(page).toHaveURL(/\/companies$/)
})

test('the session countdown shows the time left and can be renewed', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	const countdown = page.getByTestId('session-countdown')
	await expect(countdown).toContainText(/^(29|30):\d\d/)
	await expect(countdown.locator('span').first()).toHaveClass(/text-success/)
	await page.getByRole('button', { name: 'Renovar sessão' }).click()
	await expect(page.getByText('Sessão renovada')).toBeVisible()
})

test('the dashboard at phone and desktop sizes', async ({ page }, testInfo) => {
	await signIn(page, ACCOUNTS.administrador)
	for (const [width, height] of [
		[390, 844],
		[1440, 900]
	]) {
		await page.setViewportSize({ width, height })
		await page
			.getByText('Login realizado com sucesso')
			.waitFor({ state: 'hidden', timeout: 10_000 })
			.catch(() => {})
		await page.screenshot({ path: testInfo.outputPath(`dashboard-${width}x${height}.png`) })
	}
	await page.setViewportSize({ width: 390, height: 844 })
	await page.getByRole('button', { name: 'Abrir menu' }).click()
	const sheet = page.getByRole('dialog', { name: 'Menu' })
	await expect(sheet.getByRole('link', { name: 'Empresas' })).toBeInViewport()
	// The picture is taken once the sheet has finished sliding in, not after a guessed pause.
	await sheet.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)))
	await page.screenshot({ path: testInfo.outputPath('menu-sheet-390x844.png') })
})

test('a session ended on the server sends the open page back to the login at its next call', async ({ page }) => {
	await signIn(page, ACCOUNTS.gerente)
	await page.goto('/companies')
	await expect(page.getByText(/Mostrando 1 a/)).toBeVisible()
	// Sign out through the API, as another tab would; the page finds out at its next call.
	await page.request.post('/api/auth/logout', { headers: { origin: new URL(page.url()).origin } })
	await page.getByRole('searchbox', { name: 'Buscar empresas', exact: true }).fill('Padaria')
	await expect(page.getByRole('button', { name: 'Entrar no Sistema' })).toBeVisible({ timeout: 10_000 })
	await expect(page.getByText('Sessão expirada')).toBeVisible()
})

test('a screen that fails to render shows the error fallback, and reloading recovers', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	// An answer the dashboard cannot draw (no systemsStatus) makes the island throw while rendering.
	await withoutFirstReads(page)
	await answerApi(page, '**/api/dashboard/stats', 200, '{"totalCompanies": 1}')
	await page.goto('/')
	await expect(page.getByRole('heading', { name: 'Ops! Algo deu errado' })).toBeVisible()
	await expect(page.getByText('Ocorreu um erro inesperado. Tente recarregar a página.')).toBeVisible()
	await page.getByText('Detalhes do erro').click()
	await expect(page.getByText(/systemsStatus|undefined/)).toBeVisible()
	await page.unroute('**/api/dashboard/stats')
	await page.getByRole('button', { name: 'Recarregar Página' }).click()
	await expect(page.getByRole('heading', { name: 'Status dos Sistemas' })).toBeVisible()
})
