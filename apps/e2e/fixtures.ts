import { type Page, expect } from '@playwright/test'

/** The demo accounts of db/seed.ts (password demo1234). */
export const ACCOUNTS = {
	administrador: '99.000.000/0001-59',
	gerente: '99.000.000/0002-30',
	representante: '99.000.000/0003-10',
	/** Norte Sistemas e Automação: alphanumeric CNPJ, no credits in the demo data. */
	representanteSemCreditos: '99.ABC.000/0005-36'
}
export const DEMO_PASSWORD = 'demo1234'

export async function signIn(page: Page, cnpj: string, senha = DEMO_PASSWORD) {
	await page.goto('/')
	await page.getByLabel('CNPJ').fill(cnpj)
	await page.getByLabel('Senha', { exact: true }).fill(senha)
	await page.getByRole('button', { name: 'Entrar no Sistema' }).click()
	await expect(page.getByText('Login realizado com sucesso')).toBeVisible()
}

export const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Menu principal' })

/** The toast region's current toast with this title. */
export const toastTitled = (page: Page, title: string) => page.getByLabel('Notificações (F8)').getByText(title, { exact: true })
