import { type Page, expect, test } from '@playwright/test'
import { ACCOUNTS, signIn, toastTitled } from './fixtures'
import { sentByGateway, signInWithGateway } from './gateways'
import { EVOLUTION_INSTANCE, EVOLUTION_KEY, asaasUrl, evolutionUrl } from './ports'

/** Does what changes one field of a notification type and waits until the server has saved it. */
async function savedEdit(page: Page, field: string, edit: () => Promise<unknown>) {
	const saved = page.waitForResponse(
		(r) =>
			r.request().method() === 'PUT' && r.url().includes('/api/notification-settings/') && (r.request().postData() ?? '').includes(field)
	)
	await edit()
	expect((await saved).status()).toBe(200)
}

test('an administrador connects the WhatsApp gateway and a test message reaches it', async ({ page, request }) => {
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/notification-settings')
	await page.getByLabel('URL da API').fill(evolutionUrl)
	await page.getByLabel('Chave da API', { exact: true }).fill(EVOLUTION_KEY)
	await page.getByLabel('Nome da instância').fill(EVOLUTION_INSTANCE)
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	await expect(page.getByText('Configurações da Evolution API salvas com sucesso!')).toBeVisible()
	await expect(page.getByText('Conectado', { exact: true })).toBeVisible()
	// The key comes back masked, never in clear.
	await page.reload()
	await expect(page.getByLabel('Chave da API', { exact: true })).not.toHaveValue(EVOLUTION_KEY)

	await page.getByRole('tab', { name: 'Teste' }).click()
	// Sent blank, each field says what it misses beside it, before anything is sent (issue 34, point 7).
	await page.getByLabel('Mensagem').fill('')
	await page.getByRole('button', { name: 'Enviar teste' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Informe o telefone.' })).toBeVisible()
	await expect(page.getByRole('alert').filter({ hasText: 'Escreva a mensagem.' })).toBeVisible()
	const phone = '5585991230001'
	const text = `Teste do portal ${Date.now()}`
	// Typed without the 55: the message goes to 55 + DDD + number (issue 34, point 6).
	await page.getByLabel('Telefone', { exact: true }).fill(phone.slice(2))
	await page.getByLabel('Mensagem').fill(text)
	await page.getByRole('button', { name: 'Enviar teste' }).click()
	await expect(page.getByText(/Mensagem enviada com sucesso! ID: \S+/)).toBeVisible()
	expect((await sentByGateway(request, phone)).map((m) => m.text)).toContain(text)

	// The full rehearsal of the gateway, as check:evolution runs it, to the operator's own number.
	await page.getByLabel('Seu telefone').fill('5585991230002')
	await page.getByRole('button', { name: 'Ensaio completo' }).click()
	await expect(page.getByText('Aprovado: o portal consegue usar esta Evolution API.')).toBeVisible({ timeout: 20_000 })
	await expect(page.getByText(/^ok$/).first()).toBeVisible()
})

test('settings that arrive late never overwrite what the administrador typed in the gateway form', async ({ page }) => {
	await signIn(page, ACCOUNTS.administrador)
	// A slow network: the saved settings come 1.5 s after the page.
	await page.route('**/api/configuracoes', async (route) => {
		if (route.request().method() !== 'GET') return route.fallback()
		await new Promise((resolve) => setTimeout(resolve, 1500))
		await route.fallback()
	})
	const arrived = page.waitForResponse((r) => r.url().endsWith('/api/configuracoes') && r.request().method() === 'GET')
	await page.goto('/notification-settings')
	await page.getByLabel('URL da API').fill(evolutionUrl)
	await page.getByLabel('Chave da API', { exact: true }).fill(EVOLUTION_KEY)
	await page.getByLabel('Nome da instância').fill(EVOLUTION_INSTANCE)
	await arrived
	// Two frames: whatever the answer makes React do is on the screen.
	await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
	await expect(page.getByLabel('URL da API')).toHaveValue(evolutionUrl)
	await expect(page.getByLabel('Chave da API', { exact: true })).toHaveValue(EVOLUTION_KEY)
})

test('an administrador turns on expiring-licence notices, edits them, sends now, and the log shows what the gateway received', async ({
	page,
	request
}) => {
	await signInWithGateway(page, '/notification-settings')
	await page.getByRole('tab', { name: 'Notificações' }).click()
	await page.getByRole('checkbox', { name: 'Licenças expirando' }).check()
	await expect(toastTitled(page, 'Configuração criada com sucesso!')).toBeVisible()
	const card = page.getByRole('region', { name: 'Licenças expirando' })
	const sendAt = async (time: string) =>
		savedEdit(page, 'horario_envio', async () => {
			await card.getByLabel('Horário de envio').fill(time)
			// Tab moves between the hour, minute and second of a time field: leave it at once.
			await card.getByLabel('Horário de envio').blur()
		})
	// The server's own run (every minute) sends whatever is due: until the edits below are made, nothing is.
	await sendAt('23:59:59')
	// A number out of 1-30 is said beside the field in its own words when it is left, and nothing is sent (issue 34,
	// point 7).
	const days = card.getByLabel('Dias de antecedência')
	await days.fill('0')
	await days.press('Tab')
	await expect(card.getByRole('alert').filter({ hasText: 'Dias de antecedência: de 1 a 30.' })).toBeVisible()
	await expect(page.getByText(/Dados inválidos|dias_antecedencia/)).toHaveCount(0)
	// Each edit is saved when the field is left.
	await savedEdit(page, 'dias_antecedencia', async () => {
		await card.getByLabel('Dias de antecedência').fill('30')
		await card.getByLabel('Dias de antecedência').press('Tab')
	})
	await savedEdit(page, 'enviar_fins_semana', () => card.getByLabel('Enviar nos fins de semana').check())
	// A template naming an unknown variable is refused on the spot and not saved.
	const template = card.getByLabel('Modelo da mensagem')
	await template.fill('Olá {{cliente}}')
	await expect(card.getByRole('alert')).toContainText('{{cliente}}')
	const marker = `E2E-${Date.now()}`
	await savedEdit(page, 'template_mensagem', async () => {
		await template.fill(`Olá, *{{empresa_nome}}*! Sua licença vence em {{data_vencimento}}. ${marker}`)
		await template.press('Tab')
	})
	// Due from midnight, whatever the hour this runs; made due at the start of a minute, so the steps below (about
	// fifteen seconds) see today's sends before the server's next run takes them.
	const second = new Date().getSeconds()
	if (second > 30) {
		test.setTimeout(120_000)
		await page.waitForTimeout((61 - second) * 1000)
	}
	await sendAt('00:00:00')
	await page.reload()
	await page.getByRole('tab', { name: 'Notificações' }).click()
	await expect(card.getByLabel('Dias de antecedência')).toHaveValue('30')
	await expect(card.getByLabel('Horário de envio')).toHaveValue('00:00:00')
	await expect(card.getByLabel('Enviar nos fins de semana')).toBeChecked()
	await expect(template).toHaveValue(new RegExp(marker))
	// The live preview renders a real company, with WhatsApp's bold.
	const preview = card.getByTestId('message-preview')
	await expect(preview).toContainText(/Sua licença vence em \d{2}\/\d{2}\/\d{4}\./)
	await expect(preview.locator('strong')).not.toBeEmpty()

	const today = page.getByRole('region', { name: 'Envios de hoje' })
	await expect(today.getByRole('listitem').first()).toBeVisible()
	await today.getByRole('button', { name: 'Enviar agora' }).click()
	await page.getByRole('dialog', { name: 'Enviar agora?' }).getByRole('button', { name: 'Enviar agora' }).click()
	await expect(toastTitled(page, 'Envio concluído')).toBeVisible()
	// 'Envios de hoje' agrees with the run: it says how many went out today and when.
	await expect(today.getByTestId('today-status')).toContainText(
		/Hoje já (foi enviada 1 mensagem|foram enviadas \d+ mensagens); a última em \d{2}\/\d{2}\/\d{4}/
	)

	const log = page.getByRole('region', { name: 'Registro de envios' })
	const sentRow = log.getByRole('listitem').filter({ hasText: 'Enviada' }).first()
	await expect(sentRow).toBeVisible()
	const company = (await sentRow.getByTestId('log-company').textContent()) ?? ''
	const received = (await sentByGateway(request)).map((m) => m.text ?? '')
	expect(received.some((t) => t.includes(`Olá, *${company}*!`) && t.includes(marker))).toBe(true)
})

test('the template preview renders a company the notice goes to today, or a labelled example; Licenças expiradas has no days field', async ({
	page
}) => {
	await signInWithGateway(page, '/notification-settings')
	const origin = { origin: new URL(page.url()).origin }
	// Switched on through the API at an hour the server's run does not reach today: no client is messaged by this journey.
	const created = await page.request.post('/api/notification-settings', {
		headers: origin,
		data: { tipo: 'whatsapp_expirada', ativo: true, horario_envio: '23:59:59' }
	})
	expect(created.status(), await created.text()).toBe(201)
	const setting = await created.json()
	const samples = await (await page.request.get(`/api/notification-settings/${setting.id}/amostras`)).json()
	await page.reload()
	await page.getByRole('tab', { name: 'Notificações' }).click()
	const card = page.getByRole('region', { name: 'Licenças expiradas' })
	await expect(card.getByLabel('Modelo da mensagem')).toBeVisible()
	// The type tells licences that have just ended: no days of notice to set.
	await expect(card.getByLabel('Dias de antecedência')).toHaveCount(0)
	await expect(card.getByText('vencidas há até 30 dias')).toBeVisible()
	// The preview is a company this notice goes to today (or the example, said as such), with its real date.
	const select = card.getByLabel('Pré-visualização para a empresa')
	await expect(select.locator('option:checked')).toHaveText(samples[0].empresa)
	await expect(card.getByTestId('message-preview')).toContainText(`venceu em ${samples[0].valores.data_vencimento}`)
	if (samples[0].exemplo) await expect(card.getByText('Nenhuma empresa recebe este aviso hoje')).toBeVisible()
	await page.getByRole('checkbox', { name: 'Licenças expiradas' }).uncheck()
	await expect(toastTitled(page, 'Configuração atualizada com sucesso!')).toBeVisible()
})

test('a representante connects their own Asaas account: saves the key, tests it, and the portal registers its webhook', async ({
	page,
	request
}) => {
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/financeiro-config')
	// Saving an active integration without a key is refused with the spec's message.
	await page.getByRole('checkbox', { name: 'Ativar integração com o Asaas' }).check()
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	await expect(page.getByText('A chave API do Asaas é obrigatória quando a integração está ativada.')).toBeVisible()
	const key = `$aact_hmlg_e2e${Date.now()}`
	await page.getByLabel('Chave API do Asaas', { exact: true }).fill(key)
	await page.getByLabel('Ambiente').selectOption('sandbox')
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	await expect(toastTitled(page, 'Configurações salvas')).toBeVisible()
	await expect(page.getByText('Configurado', { exact: true })).toBeVisible()
	await page.getByRole('button', { name: 'Testar configuração' }).click()
	await expect(toastTitled(page, 'Configuração válida')).toBeVisible()
	await expect(page.getByText('O webhook do portal está registrado.')).toBeVisible()
	// The stand-in holds the webhook the portal registered with this key, pointing back at the portal.
	const hooks = await request.get(`${asaasUrl}/webhooks`, { headers: { access_token: key } })
	const urls = ((await hooks.json()).data as { url: string }[]).map((h) => h.url)
	expect(urls.some((u) => u.endsWith('/api/asaas/webhook/99000000000310'))).toBe(true)

	// Clearing the saved key asks first; "Voltar" saves nothing and the key stays.
	// The key is cleared while the field is still enabled; switching the integration off then disables it.
	await page.getByLabel('Chave API do Asaas', { exact: true }).fill('')
	await page.getByRole('checkbox', { name: 'Ativar integração com o Asaas' }).uncheck()
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	const confirm = page.getByRole('dialog', { name: 'Remover a chave API' })
	await expect(confirm).toContainText('A chave API salva será apagada')
	await confirm.getByRole('button', { name: 'Voltar' }).click()
	await expect(confirm).toBeHidden()
	await page.reload()
	await expect(page.getByText('Configurado', { exact: true })).toBeVisible()
	await expect(page.getByLabel('Chave API do Asaas', { exact: true })).not.toHaveValue('')

	// The Guia tab shows the saved webhook token masked; its owner can reveal it to type it into Asaas by hand.
	await page.getByRole('tab', { name: 'Guia de Configuração' }).click()
	const token = page.getByTestId('webhook-token')
	await expect(token).toContainText('•')
	await page.getByRole('button', { name: 'Mostrar token' }).click()
	await expect(token).toHaveText(/^[A-Za-z0-9]{32,}$/)
	await page.getByRole('button', { name: 'Ocultar' }).click()
	await expect(token).toContainText('•')
})
