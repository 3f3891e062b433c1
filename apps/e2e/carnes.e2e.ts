import { expect, test } from '@playwright/test'
import { ACCOUNTS, administradorApi, journeyRepresentative, signIn, toastTitled } from './fixtures'
import { clientPays, connectWhatsAppGateway, sentByGateway, withOwnAsaas } from './gateways'
import { asaasUrl } from './ports'

/** dd/mm/aaaa of a day some days from now, as the date field is typed. */
function brDateIn(days: number) {
	const d = new Date(Date.now() + days * 86_400_000)
	return d.toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' })
}
/** YYYY-MM-DD of a day some days from now, as the API takes it. */
const isoDateIn = (days: number) => brDateIn(days).split('/').reverse().join('-')

test('a representante issues a carnê, opens its parcels and PDF, sends it by WhatsApp, and a payment shows as Pago and in the history', async ({
	page,
	request,
	baseURL
}) => {
	// Issuing, the PDF, the WhatsApp send and the webhook: longer than the usual journey on two shared cores.
	test.setTimeout(120_000)
	// The WhatsApp gateway, as an administrador saves it on the API tab.
	const admin = await administradorApi(baseURL!)
	await connectWhatsAppGateway(admin)
	await admin.dispose()

	// The company has a registered phone, which the WhatsApp send offers (issue 34, point 6).
	const companyPhone = `859${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
	const rep = await journeyRepresentative(baseURL!, { companies: [{ fone: companyPhone }] })
	const [company] = rep.companies
	await signIn(page, rep.masked, rep.senha)
	const key = await withOwnAsaas(page, baseURL!)

	await page.goto('/carnes')
	await expect(page.getByText('Nenhum carnê encontrado')).toBeVisible()
	await page.getByRole('button', { name: 'Criar Primeiro Carnê' }).click()
	const dialog = page.getByRole('dialog', { name: 'Novo Carnê' })
	// Everything missing is marked at once.
	await dialog.getByRole('button', { name: 'Criar Carnê' }).click()
	await expect(dialog.getByRole('alert').filter({ hasText: 'Selecione uma empresa' })).toBeVisible()
	await expect(dialog.getByRole('alert').filter({ hasText: 'Valor é obrigatório' })).toBeVisible()
	// The company picker is a searchable select: typed, then chosen with Enter.
	const picker = dialog.getByRole('combobox', { name: 'Empresa' })
	await picker.fill(company.razao)
	await expect(dialog.getByRole('option').first()).toContainText(company.razao)
	await picker.press('Enter')
	await expect(picker).toHaveValue(company.razao)
	await dialog.getByLabel('Valor Total (R$)').fill('300,00')
	await dialog.getByLabel('Parcelas').fill('3')
	await dialog.getByPlaceholder('dd/mm/aaaa').fill(brDateIn(10))
	await dialog.getByRole('button', { name: 'Criar Carnê' }).click()
	await expect(toastTitled(page, 'Carnê criado com sucesso!')).toBeVisible()

	const card = page.getByRole('article').filter({ hasText: company.razao })
	await expect(card.getByText('R$ 300,00')).toBeVisible()
	await card.getByRole('button', { name: 'Ver parcelas' }).click()
	await expect(card.getByText('Parcela 1/3')).toBeVisible()
	await expect(card.getByText('Parcela 3/3')).toBeVisible()

	// The full carnê opens in a new tab, as a PDF, the tab named as the card (issue 34, point 8).
	const name = await card.getByRole('heading', { name: /^Carnê nº \d+$/ }).innerText()
	const popup = page.waitForEvent('popup')
	await card.getByRole('button', { name: 'Baixar carnê completo' }).click()
	await expect(toastTitled(page, 'Carnê completo aberto com sucesso!')).toBeVisible()
	const tab = await popup
	await expect(tab).toHaveTitle(name)
	await expect(tab.locator('iframe')).toHaveAttribute('src', /^blob:/)
	await tab.close()

	// By WhatsApp: the company's registered phone is offered, typed without 55; the stand-in receives the PDF as a
	// document at 55 + DDD + number.
	await card.getByRole('button', { name: 'Enviar WhatsApp' }).click()
	const send = page.getByRole('dialog', { name: 'Enviar carnê via WhatsApp' })
	await expect(send.getByLabel('Telefone (WhatsApp)')).toHaveValue(companyPhone)
	await expect(send.getByText('DDD e número, com ou sem o 55')).toBeVisible()
	await send.getByLabel('Telefone (WhatsApp)').fill('')
	await expect(send.getByRole('button', { name: 'Enviar' })).toBeDisabled()
	await send.getByLabel('Telefone (WhatsApp)').fill(companyPhone)
	await send.getByRole('button', { name: 'Enviar' }).click()
	await expect(toastTitled(page, 'Carnê enviado via WhatsApp com sucesso!')).toBeVisible()
	const sent = await sentByGateway(request, `55${companyPhone}`)
	expect(sent).toHaveLength(1)
	expect(sent[0]).toMatchObject({ type: 'document', mimetype: 'application/pdf' })

	// The instalment monitor is open when the client pays parcel 1 on the stand-in's page ("pagar").
	await page.goto('/pagamentos-parcelas')
	const row = page.getByRole('row').filter({ hasText: 'Parcela 1/3' })
	await expect(row.getByText('Pendente', { exact: true })).toBeVisible()
	const [carne] = (await (await page.request.get('/api/carnes')).json()).carnes
	const plan = await request.get(`${asaasUrl}/payments?installment=${carne.asaas_installment_id}&limit=100`, {
		headers: { access_token: key, 'User-Agent': 'jornada-e2e' }
	})
	const first = (await plan.json()).data.find((p: { installmentNumber: number }) => p.installmentNumber === 1)
	const paid = await clientPays(request, first.id)
	expect(paid.status()).toBe(200)

	// Without a reload: the webhook arrives within moments, the open list shows it within 10 s, and the top bar tells.
	await expect(row.getByText('Pago', { exact: true })).toBeVisible({ timeout: 15_000 })
	const bell = page.getByRole('button', { name: /^Notificações \(\d+ não lidas\)$/ })
	await expect(bell).toBeVisible({ timeout: 15_000 })
	await bell.click()
	const told = page.getByRole('dialog', { name: 'Notificações', exact: true })
	await expect(told.getByText(`Parcela 1/3 de ${company.razao} paga — R$ 100,00`)).toBeVisible()
	await told.getByRole('button', { name: 'Fechar' }).first().click()
	await expect(page.getByRole('row').filter({ hasText: 'Parcela 2/3' }).getByText('Pendente', { exact: true })).toBeVisible()
	// An open parcel goes by WhatsApp from the monitor: a bad number is refused beside the field, a good one is sent.
	await page.getByRole('row').filter({ hasText: 'Parcela 2/3' }).getByRole('button', { name: 'Enviar WhatsApp' }).click()
	const parcelSend = page.getByRole('dialog', { name: 'Enviar parcela via WhatsApp' })
	await parcelSend.getByLabel('Telefone (WhatsApp)').fill('123')
	await parcelSend.getByRole('button', { name: 'Enviar' }).click()
	await expect(parcelSend.getByRole('alert').filter({ hasText: 'Telefone inválido' })).toBeVisible()
	// Typed as people write it: (85) 9NNNN-NNNN goes to 55859NNNNNNNN.
	const parcelDigits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0')
	const parcelPhone = `55859${parcelDigits}`
	await parcelSend.getByLabel('Telefone (WhatsApp)').fill(`(85) 9${parcelDigits.slice(0, 4)}-${parcelDigits.slice(4)}`)
	await parcelSend.getByRole('button', { name: 'Enviar' }).click()
	await expect(toastTitled(page, 'Carnê enviado via WhatsApp com sucesso')).toBeVisible()
	await expect(parcelSend).toBeHidden()
	expect((await sentByGateway(request, parcelPhone)).length).toBeGreaterThan(0)

	await page.goto('/historico-pagamentos')
	await expect(page.getByRole('row').filter({ hasText: first.id })).toHaveCount(1)
	await expect(page.getByRole('row').filter({ hasText: first.id }).getByText('Pagamento', { exact: true })).toBeVisible()

	// Cancelling asks first and says what happens: the open parcels are removed at Asaas, the paid one stays.
	await page.goto('/carnes')
	await card.getByRole('button', { name: 'Cancelar', exact: true }).click()
	const confirm = page.getByRole('dialog', { name: 'Cancelar carnê' })
	await expect(confirm).toContainText('As parcelas pendentes e vencidas serão removidas no Asaas')
	await expect(confirm).toContainText('A parcela já paga continua registrada')
	await confirm.getByRole('button', { name: 'Voltar' }).click()
	await expect(confirm).toBeHidden()
	await expect(card.getByText('Ativo', { exact: true })).toBeVisible()
	await card.getByRole('button', { name: 'Cancelar', exact: true }).click()
	await confirm.getByRole('button', { name: 'Cancelar carnê' }).click()
	await expect(toastTitled(page, 'Carnê cancelado com sucesso!')).toBeVisible()
	await expect(card.getByText('Cancelado', { exact: true })).toBeVisible()
})

test('the carnês and the instalment monitor load the next page as one scrolls; the company filter is searchable', async ({
	page,
	baseURL
}) => {
	test.setTimeout(120_000)
	const rep = await journeyRepresentative(baseURL!, { companies: [{}, {}] })
	const [many, one] = rep.companies
	await signIn(page, rep.masked, rep.senha)
	await withOwnAsaas(page, baseURL!)
	// 21 carnês of 2 parcels: one carnê more than a page of /carnes, 42 parcels (two pages and a bit of the monitor).
	for (let i = 0; i < 21; i++) {
		const created = await page.request.post('/api/carnes', {
			headers: { origin: baseURL! },
			data: {
				empresa_codigo: i === 20 ? one.codigo : many.codigo,
				valor_total: 20,
				numero_parcelas: 2,
				data_primeiro_vencimento: isoDateIn(10 + i),
				tipo_cobranca: 'PIX'
			}
		})
		expect(created.status(), await created.text()).toBe(201)
	}

	await page.goto('/carnes')
	const cards = page.getByRole('article')
	await expect(cards).toHaveCount(20)
	await expect(page.getByText('Mostrando 20 de 21 carnês')).toBeVisible()
	// Scrolling to the end brings the next page (the sentinel comes into view; nothing is clicked).
	await page.getByText('Mostrando 20 de 21 carnês').scrollIntoViewIfNeeded()
	await expect(cards).toHaveCount(21)
	await expect(page.getByText('Fim da lista.')).toBeVisible()
	await expect(page.getByText('Mostrando 21 de 21 carnês')).toBeVisible()

	await page.goto('/pagamentos-parcelas')
	const rows = page.getByRole('row').filter({ hasText: /Parcela [12]\/2/ })
	await expect(rows).toHaveCount(20)
	// The cards count the whole filtered set, not the rows loaded.
	const totalCard = page.locator('div.rounded-box').filter({ has: page.getByText('Total de Parcelas', { exact: true }) })
	await expect(totalCard).toContainText('42')
	await expect(totalCard).toContainText('R$ 420,00')
	const shown = page.getByText(/^Mostrando \d+ de 42 parcelas$/)
	await shown.scrollIntoViewIfNeeded()
	// The next page arrives; while the end stays in view the list may go on to the last one at once.
	await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(40)
	await shown.scrollIntoViewIfNeeded()
	await expect(rows).toHaveCount(42)
	await expect(page.getByText('Fim da lista.')).toBeVisible()

	// The company filter: typed, moved with the arrows, chosen with Enter; the list starts again with that company.
	const filter = page.getByRole('combobox', { name: 'Empresa' })
	await filter.fill(one.razao.slice(0, -6))
	await expect(page.getByRole('listbox', { name: 'Empresa' }).getByRole('option')).toHaveCount(2)
	await filter.press('ArrowDown')
	await filter.press('Enter')
	await expect(filter).toHaveValue(one.razao)
	await expect(rows).toHaveCount(2)
	await expect(page.getByText('Mostrando 2 de 2 parcelas')).toBeVisible()
	await expect(totalCard).toContainText('R$ 20,00')
	await expect(totalCard).not.toContainText('42')
	expect(new URL(page.url()).searchParams.get('empresa')).toBe(String(one.codigo))
	// Escape closes the list and keeps the choice.
	await filter.fill('Cliente')
	await filter.press('Escape')
	await expect(page.getByRole('listbox')).toHaveCount(0)
	await expect(filter).toHaveValue(one.razao)

	await page.getByRole('button', { name: 'Limpar Filtros' }).click()
	await expect(rows).toHaveCount(20)
	await expect(page.getByText('Mostrando 20 de 42 parcelas')).toBeVisible()
})

test('an inverted period on Histórico and Pagamentos de Parcelas says so, and the summary cards stop loading', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	for (const path of ['/historico-pagamentos', '/pagamentos-parcelas']) {
		await page.goto(`${path}?dataInicio=2026-12-31&dataFim=2026-12-01`)
		await expect(page.getByText('A Data Início é posterior à Data Fim: corrija o período para ver a lista.')).toBeVisible()
		await expect(page.getByText('Totais indisponíveis: a lista não pôde ser carregada.')).toBeVisible()
	}
})

test('a PIX parcel shows its QR and PIX Copia e Cola on the carnê and the monitor, as a boleto parcel its link and line', async ({
	page,
	baseURL
}) => {
	test.setTimeout(90_000)
	const rep = await journeyRepresentative(baseURL!, { companies: [{}, {}] })
	const [pixCompany, boletoCompany] = rep.companies
	await signIn(page, rep.masked, rep.senha)
	await withOwnAsaas(page, baseURL!)
	const issue = async (empresa_codigo: number, tipo_cobranca: 'PIX' | 'BOLETO') => {
		const created = await page.request.post('/api/carnes', {
			headers: { origin: baseURL! },
			data: { empresa_codigo, valor_total: 40, numero_parcelas: 2, data_primeiro_vencimento: isoDateIn(10), tipo_cobranca }
		})
		expect(created.status(), await created.text()).toBe(201)
		const { carne } = await created.json()
		const parcels = await (await page.request.get(`/api/carnes/${carne.id}/parcelas`)).json()
		return parcels as { numero: number; pixCopiaCola: string | null; linhaDigitavel: string | null }[]
	}
	const [pix1] = await issue(pixCompany.codigo, 'PIX')
	const [boleto1] = await issue(boletoCompany.codigo, 'BOLETO')
	expect(pix1.pixCopiaCola).toBeTruthy()
	expect(boleto1.linhaDigitavel).toBeTruthy()

	await page.goto('/carnes')
	const pixCard = page.getByRole('article').filter({ hasText: pixCompany.razao })
	await pixCard.getByRole('button', { name: 'Ver parcelas' }).click()
	const pixRow = pixCard.getByRole('listitem').filter({ hasText: 'Parcela 1/2' })
	await pixRow.getByRole('button', { name: 'Ver PIX' }).click()
	let dialog = page.getByRole('dialog', { name: 'PIX da parcela' })
	await expect(dialog.getByRole('img', { name: 'QR Code PIX para pagamento' })).toBeVisible()
	await expect(dialog.getByLabel('PIX Copia e Cola')).toHaveValue(pix1.pixCopiaCola!)
	await expect(dialog).toContainText(pixCompany.razao)
	await dialog.getByRole('button', { name: 'Fechar' }).first().click()
	await expect(dialog).toBeHidden()

	const boletoCard = page.getByRole('article').filter({ hasText: boletoCompany.razao })
	await boletoCard.getByRole('button', { name: 'Ver parcelas' }).click()
	const boletoRow = boletoCard.getByRole('listitem').filter({ hasText: 'Parcela 1/2' })
	await expect(boletoRow.getByRole('link', { name: 'Ver Boleto' })).toBeVisible()
	await expect(boletoRow.getByText(`Linha digitável: ${boleto1.linhaDigitavel}`)).toBeVisible()

	await page.goto('/pagamentos-parcelas')
	const monitorRow = page.getByRole('row').filter({ hasText: pixCompany.razao }).filter({ hasText: 'Parcela 1/2' })
	await monitorRow.getByRole('button', { name: 'Ver PIX' }).click()
	dialog = page.getByRole('dialog', { name: 'PIX da parcela' })
	await expect(dialog.getByRole('img', { name: 'QR Code PIX para pagamento' })).toBeVisible()
	await expect(dialog.getByLabel('PIX Copia e Cola')).toHaveValue(pix1.pixCopiaCola!)
})

test('the Carnês list is searched and filtered by status and company, and an administrador sees whose each carnê is', async ({
	page,
	browser,
	baseURL
}) => {
	test.setTimeout(90_000)
	const rep = await journeyRepresentative(baseURL!, { companies: [{}, {}] })
	const [kept, cancelled] = rep.companies
	await signIn(page, rep.masked, rep.senha)
	await withOwnAsaas(page, baseURL!)
	for (const company of [kept, cancelled]) {
		const created = await page.request.post('/api/carnes', {
			headers: { origin: baseURL! },
			data: {
				empresa_codigo: company.codigo,
				valor_total: 40,
				numero_parcelas: 2,
				data_primeiro_vencimento: isoDateIn(10),
				tipo_cobranca: 'PIX'
			}
		})
		expect(created.status(), await created.text()).toBe(201)
		if (company === cancelled) {
			const { carne } = await created.json()
			expect((await page.request.delete(`/api/carnes/${carne.id}`, { headers: { origin: baseURL! } })).status()).toBe(200)
		}
	}

	await page.goto('/carnes')
	const cards = page.getByRole('article')
	await expect(cards).toHaveCount(2)
	// A representative sees only their own carnês: no representative named on the cards.
	await expect(page.getByText('Representante:')).toHaveCount(0)
	await page.getByRole('searchbox', { name: 'Buscar carnês' }).fill(kept.razao)
	await expect(cards).toHaveCount(1)
	await expect(cards.first()).toContainText(kept.razao)
	await page.getByRole('button', { name: 'Limpar Filtros' }).click()
	await expect(cards).toHaveCount(2)
	await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Cancelado' })
	await expect(cards).toHaveCount(1)
	await expect(cards.first()).toContainText(cancelled.razao)
	expect(new URL(page.url()).searchParams.get('status')).toBe('cancelado')
	await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Ativo' })
	await expect(cards).toHaveCount(1)
	await expect(cards.first()).toContainText(kept.razao)
	// The company filter: typed and chosen; nothing of that company is active, and the screen says to change the filters.
	const picker = page.getByRole('combobox', { name: 'Empresa' })
	await picker.fill(cancelled.razao)
	await expect(page.getByRole('listbox', { name: 'Empresa' }).getByRole('option').first()).toContainText(cancelled.razao)
	await picker.press('Enter')
	await expect(picker).toHaveValue(cancelled.razao)
	await expect(page.getByText('Nenhum carnê encontrado')).toBeVisible()
	await expect(page.getByText('Tente outra busca ou limpe os filtros.')).toBeVisible()

	// The administrador sees every representative's carnês: each card names its representative, and the search finds them by it.
	const admin = await (await browser.newContext()).newPage()
	await signIn(admin, ACCOUNTS.administrador)
	await admin.goto(`/carnes?search=${encodeURIComponent(rep.nome)}`)
	const adminCards = admin.getByRole('article')
	await expect(adminCards).toHaveCount(2)
	await expect(adminCards.filter({ hasText: kept.razao })).toContainText(`Representante: ${rep.nome}`)
	await admin.context().close()
})
