import { chromium, type Page } from '@playwright/test'
const base = 'http://127.0.0.1:3312'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
async function login(cnpj: string, w: number, h: number) {
	const ctx = await browser.newContext({ viewport: { width: w, height: h }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' })
	const page = await ctx.newPage()
	page.on('console', (m) => { if (m.type() === 'error') console.log('console error', m.text()) })
	page.on('pageerror', (e) => console.log('pageerror', e.message))
	await page.goto(base + '/')
	await page.getByLabel('CNPJ').fill(cnpj)
	await page.getByLabel('Senha', { exact: true }).fill('demo1234')
	await page.getByRole('button', { name: 'Entrar no Sistema' }).click()
	await page.waitForURL(base + '/')
	await page.waitForTimeout(800)
	return page
}
const which = process.argv[2] ?? 'all'
for (const [w, h] of [[1440, 900], [390, 844]]) {
	const admin = await login('99000000000159', w, h)
	const origin = { origin: base }
	if (w === 1440 && which === 'all') {
		await admin.request.post(base + '/api/notices/general', { headers: origin, data: { titulo: 'Manutenção programada', texto: 'O portal ficará indisponível no domingo das 2h às 4h.', urgente: 1, ativo: 1 } })
		await admin.request.post(base + '/api/notices/general', { headers: origin, data: { titulo: 'Nova versão do K-PDV', texto: 'A versão 5.2 já está disponível em Downloads.', urgente: 0, ativo: 1 } })
		await admin.request.post(base + '/api/notices/individual', { headers: origin, data: { representante_id: '99000000000310', titulo: 'Repasse de novembro', texto: 'Seu extrato de comissões está disponível.', urgente: 0, ativo: 1 } })
	}
	await admin.goto(base + '/notices')
	await admin.waitForTimeout(1200)
	await admin.screenshot({ path: `/tmp/admin-shots/notices-${w}.png`, fullPage: true })
	await admin.getByRole('tab', { name: 'Avisos Individuais' }).click()
	await admin.getByRole('button', { name: /Novo Aviso Individual/ }).click()
	await admin.waitForTimeout(500)
	await admin.screenshot({ path: `/tmp/admin-shots/notice-dialog-${w}.png` })
	await admin.keyboard.press('Escape')
	for (const tab of ['Geral', 'Aparência', 'Segurança', 'Sistema']) {
		await admin.goto(base + '/settings')
		await admin.getByRole('tab', { name: tab }).click()
		await admin.waitForTimeout(900)
		await admin.screenshot({ path: `/tmp/admin-shots/settings-${tab}-${w}.png`, fullPage: true })
	}
	const rep = await login('99000000000310', w, h)
	await rep.getByRole('button', { name: /Notificações/ }).click()
	await rep.waitForTimeout(500)
	await rep.screenshot({ path: `/tmp/admin-shots/rep-notifications-${w}.png` })
	await rep.goto(base + '/settings')
	await rep.waitForTimeout(800)
	await rep.screenshot({ path: `/tmp/admin-shots/rep-settings-${w}.png` })
	const ger = await login('99000000000230', w, h)
	await ger.goto(base + '/settings')
	await ger.getByRole('tab', { name: 'Sistema' }).click()
	await ger.waitForTimeout(800)
	await ger.screenshot({ path: `/tmp/admin-shots/gerente-sistema-${w}.png`, fullPage: true })
}
await browser.close()
