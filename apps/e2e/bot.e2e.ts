import { expect, test } from '@playwright/test'
import { ACCOUNTS, shellReady, signIn, toastTitled } from './fixtures'
import { clientWrites, sentByGateway, signInWithGateway } from './gateways'

test.describe.configure({ mode: 'serial' })

test('the administrador turns the bot on, tests it, a client writes through the gateway, an attendant takes over and the conversation is resumed', async ({
	page,
	request
}) => {
	await signInWithGateway(page, '/whatsapp-admin')
	const control = page.getByRole('checkbox', { name: /Bot (ligado|desligado)/ })
	if (!(await control.isChecked())) {
		await control.click()
		await expect(toastTitled(page, 'Bot ativado com sucesso')).toBeVisible()
	}
	await expect(page.getByText('Ativo', { exact: true })).toBeVisible()

	// Testar Bot: the replies go to the phone (the stand-in got them) and show on the screen.
	const phone = '5585991237777'
	await page.goto('/whatsapp-bot')
	// The phone's hint says what it takes (issue 34, point 6); sent blank, each field says what it misses beside it,
	// before anything is sent (point 7).
	await expect(page.getByText('DDD e número, com ou sem o 55: (85) 98103-9595, 85981039595 ou 5585981039595.')).toBeVisible()
	await page.getByLabel('Mensagem do teste').fill('')
	await page.getByRole('button', { name: 'Testar' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Informe o telefone.' })).toBeVisible()
	await expect(page.getByRole('alert').filter({ hasText: 'Escreva a mensagem.' })).toBeVisible()
	await page.getByLabel('Telefone do teste').fill(phone)
	await page.getByLabel('Mensagem do teste').fill('Oi')
	await page.getByRole('button', { name: 'Testar' }).click()
	await expect(toastTitled(page, 'Teste enviado')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Respostas do bot' })).toContainText('assistente virtual')
	expect((await sentByGateway(request, phone)).map((m) => m.text)).toEqual([expect.stringContaining('assistente virtual')])

	// Enabling the bot set the instance's webhook: a client's message travels Evolution → portal → Evolution.
	const client = '5585991238888'
	const inbound = await clientWrites(request, client, 'Bom dia')
	expect((await inbound.json()).delivery.status).toBe(200)
	await expect.poll(async () => (await sentByGateway(request, client)).length).toBe(1)
	await page.getByRole('button', { name: 'Atualizar' }).click()
	await expect(page.getByText('+55 (85) 99123-8888').first()).toBeVisible()
	await expect(page.getByText('Aguardando CNPJ').first()).toBeVisible()

	// The client asks for a person (option 5): the administrador is told in the top bar, and Admin Bot lists the
	// conversation as waiting, with how long.
	await clientWrites(request, client, '5')
	await expect.poll(async () => (await sentByGateway(request, client)).length).toBe(2)
	await page.goto('/whatsapp-admin')
	const paused = page.getByRole('list', { name: 'Conversas pausadas' })
	await expect(paused.getByRole('listitem').filter({ hasText: '+55 (85) 99123-8888' })).toContainText(/Aguardando (atendente agora|há)/)
	await shellReady(page)
	await page.getByRole('button', { name: /^Notificações/ }).click()
	await expect(
		page
			.getByRole('dialog', { name: 'Notificações' })
			.getByText(/\+55 \(85\) 99123-8888 \(empresa não identificada\) pediu para falar/)
			.first()
	).toBeVisible()
	await page.keyboard.press('Escape')

	// The administrador answers from the portal: the text goes to the client through the gateway and the conversation
	// stays paused (nobody waiting any more) until resumed.
	// A wrong number is said beside the field before anything is sent (issue 34, point 7); typed without the 55 and
	// masked, it is the same number (point 6).
	await page.getByLabel('Telefone do cliente').fill('(85) 9912')
	await page.getByLabel('Mensagem do atendente').fill('Olá, aqui é a Ana')
	await page.getByRole('button', { name: 'Enviar ao cliente' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Telefone inválido: informe DDD e número' })).toBeVisible()
	await page.getByLabel('Telefone do cliente').fill('(85) 99123-8888')
	await page.getByLabel('Mensagem do atendente').fill('Olá, aqui é a Ana')
	await page.getByRole('button', { name: 'Enviar ao cliente' }).click()
	await expect(toastTitled(page, 'Mensagem de atendente simulada - bot pausado automaticamente')).toBeVisible()
	await expect.poll(async () => (await sentByGateway(request, client)).map((m) => m.text).at(-1)).toBe('Olá, aqui é a Ana')
	await expect(paused.getByText('+55 (85) 99123-8888')).toBeVisible()
	await expect(page.getByText('Pausada').first()).toBeVisible()
	// While paused the bot sends nothing to that phone.
	await clientWrites(request, client, 'Alô?')
	await page.waitForTimeout(300)
	expect(await sentByGateway(request, client)).toHaveLength(3)

	await paused.getByRole('button', { name: 'Retomar +55 (85) 99123-8888' }).click()
	await expect(toastTitled(page, 'Conversa retomada com sucesso')).toBeVisible()
	await expect(page.getByText('Nenhuma conversa pausada')).toBeVisible()
	await clientWrites(request, client, 'Oi de novo')
	await expect.poll(async () => (await sentByGateway(request, client)).length).toBe(4)
})

test('the administrador saves the bot’s PIX key and sees the invalid-key message for a bad one', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/configuracoes-bot')
	const field = page.getByLabel('Chave PIX')
	await field.fill('abc')
	await expect(page.getByText('✗ Formato inválido. Use CPF, CNPJ, email, telefone ou chave aleatória.')).toBeVisible()
	await page.getByRole('button', { name: 'Salvar Configurações' }).click()
	await expect(toastTitled(page, 'Chave PIX inválida')).toBeVisible()

	await field.fill('11.222.333/0001-81')
	await expect(page.getByText('✓ Chave PIX válida (CNPJ): 11.222.333/0001-81')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Prévia da mensagem' })).toContainText('Chave PIX (CNPJ): 11.222.333/0001-81')
	await page.getByRole('button', { name: 'Salvar Configurações' }).click()
	await expect(toastTitled(page, 'Configurações salvas!')).toBeVisible()
	await page.reload()
	await expect(page.getByLabel('Chave PIX')).toHaveValue('11.222.333/0001-81')
})

test('switching the bot off asks first; "Voltar" leaves it on', async ({ page }) => {
	await signInWithGateway(page, '/whatsapp-admin')
	const control = page.getByRole('checkbox', { name: /Bot (ligado|desligado)/ })
	if (!(await control.isChecked())) {
		await control.click()
		await expect(toastTitled(page, 'Bot ativado com sucesso')).toBeVisible()
	}
	const confirm = page.getByRole('dialog', { name: 'Desligar o bot' })
	await control.click()
	await expect(confirm).toContainText('ficam sem resposta automática')
	await confirm.getByRole('button', { name: 'Voltar' }).click()
	await expect(confirm).toBeHidden()
	await expect(control).toBeChecked()
	await control.click()
	await confirm.getByRole('button', { name: 'Desligar bot' }).click()
	await expect(toastTitled(page, 'Bot desativado com sucesso')).toBeVisible()
	await expect(control).not.toBeChecked()
	// Switching it on again asks nothing.
	await control.click()
	await expect(toastTitled(page, 'Bot ativado com sucesso')).toBeVisible()
	await expect(control).toBeChecked()
})
