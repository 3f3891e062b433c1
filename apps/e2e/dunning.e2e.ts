import { expect, test } from '@playwright/test'
import { ACCOUNTS, administradorApi, journeyRepresentative, signIn, toastTitled, uniqueTag } from './fixtures'
import { connectWhatsAppGateway } from './gateways'
import { asaasUrl, evolutionUrl } from './ports'

/** YYYY-MM-DD of a day some days from now in Brazil, as the API takes it. */
const isoDateIn = (days: number) =>
	new Date(Date.now() + days * 86_400_000).toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' }).split('/').reverse().join('-')

test("a representative's reminder schedule reaches the client's phone, seen in the WhatsApp stand-in's page", async ({
	page,
	browser,
	baseURL
}) => {
	test.setTimeout(90_000)
	const tag = uniqueTag()
	const phone = `859${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
	const rep = await journeyRepresentative(baseURL!, { companies: [{ fone: phone }] })
	const [company] = rep.companies
	// The WhatsApp gateway and the representative's Asaas account, as the administrador saves them.
	const admin = await administradorApi(baseURL!)
	await connectWhatsAppGateway(admin)
	const key = `$aact_hmlg_regua_${tag}_00000000000000000000`
	const account = await admin.put(`/api/admin/asaas-configs/${rep.cnpj}`, {
		data: { representante_cnpj: rep.cnpj, ativar_api_asaas: true, asaas_api_key: key, asaas_ambiente: 'sandbox' }
	})
	expect(account.status(), await account.text()).toBe(200)
	await admin.dispose()
	expect((await page.request.post(`${new URL(asaasUrl).origin}/__standin/pix-keys`, { data: { apiKey: key } })).status()).toBe(200)

	// The representative writes the "3 days before" message on Configurações Financeiras › Régua de Cobrança.
	await signIn(page, rep.masked, rep.senha)
	await page.goto('/financeiro-config')
	await page.getByRole('tab', { name: 'Régua de Cobrança' }).click()
	const step = page.getByRole('listitem', { name: '3 dias antes do vencimento' })
	await step.getByRole('button', { name: 'Editar o passo 3 dias antes do vencimento' }).click()
	// An unknown variable is refused beside the message, before anything is sent.
	await step.getByLabel('Mensagem').fill(`Olá {{cliente}}, lembrete ${tag}`)
	await page.getByText('Enviar nos fins de semana').click()
	await page.getByRole('button', { name: 'Salvar régua' }).click()
	await expect(step.getByText(/Variável desconhecida no modelo: \{\{cliente\}\}/)).toBeVisible()
	await step
		.getByLabel('Mensagem')
		.fill(`Olá *{{empresa_nome}}*, lembrete ${tag}: a parcela {{parcela}}/{{total_parcelas}} de {{valor}} vence em {{vencimento}}.`)
	await step.getByRole('button', { name: 'Pré-visualizar' }).click()
	await expect(step.getByTestId('dunning-preview')).toContainText(`Olá Empresa Exemplo Ltda, lembrete ${tag}: a parcela 2/12 de R$ 150,00`)
	await page.getByRole('button', { name: 'Salvar régua' }).click()
	await expect(toastTitled(page, 'Régua de cobrança salva')).toBeVisible()

	// A carnê whose first parcel is due in 3 days.
	const carne = await page.request.post('/api/carnes', {
		headers: { origin: baseURL! },
		data: {
			empresa_codigo: company.codigo,
			valor_total: 300,
			numero_parcelas: 3,
			data_primeiro_vencimento: isoDateIn(3),
			tipo_cobranca: 'BOLETO'
		}
	})
	expect(carne.status(), await carne.text()).toBe(201)

	// The administrador runs the schedules now, from Admin Financeiro (the job would at the send time).
	const adminPage = await (await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', baseURL })).newPage()
	await signIn(adminPage, ACCOUNTS.administrador)
	await adminPage.goto('/admin/financeiro-config')
	await adminPage.getByRole('button', { name: 'Executar régua agora' }).click()
	await adminPage
		.getByRole('dialog', { name: 'Executar a régua de cobrança agora?' })
		.getByRole('button', { name: 'Executar agora' })
		.click()
	await expect(toastTitled(adminPage, 'Régua executada')).toBeVisible()
	await adminPage.context().close()

	// The client's phone, in the WhatsApp stand-in's own page: the reminder arrived, filled in.
	const whatsapp = await page.context().newPage()
	await whatsapp.goto(`${evolutionUrl}/?phone=55${phone}`)
	await expect(whatsapp.locator('#log .out')).toContainText(
		`Olá *${company.razao}*, lembrete ${tag}: a parcela 1/3 de R$ 100,00 vence em`,
		{
			timeout: 15_000
		}
	)
	await whatsapp.close()

	// The parcel's row on Pagamentos de Parcelas says it was sent.
	await page.goto('/pagamentos-parcelas')
	const row = page.getByRole('row').filter({ hasText: 'Parcela 1/3' })
	await row.getByText('Régua: 1 enviada').click()
	await expect(row.getByRole('list', { name: 'Mensagens da régua de cobrança' })).toContainText('3 dias antes do vencimento · Enviada')
})
