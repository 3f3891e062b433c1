import { type Page, expect, test } from '@playwright/test'
import { formatCnpj } from '../../modules/core/cnpj'
import { ACCOUNTS, freshCnpj, openDialog, sendRefusedThenFixed, shellReady, sidebar, signIn } from './fixtures'

async function signOut(page: Page) {
	// 'Sair' is server-rendered; the layout's script makes it answer.
	await shellReady(page)
	await sidebar(page).getByRole('button', { name: 'Sair' }).click()
	await expect(page.getByRole('button', { name: 'Entrar no Sistema' })).toBeVisible()
}

test('an administrador creates a representative and a login for it; the representative signs in and saves their API settings', async ({
	page
}) => {
	const cnpj = freshCnpj('71')
	const nome = `Representações Teste ${cnpj.slice(-4)}`
	await signIn(page, ACCOUNTS.administrador)

	const repDialog = await openDialog(page, '/representatives', 'Novo Representante', 'Novo Representante')
	await repDialog.getByLabel('Nome *').fill(nome)
	await repDialog.getByLabel('CNPJ *').fill(cnpj)
	await expect(repDialog.getByLabel('CNPJ *')).toHaveValue(formatCnpj(cnpj))
	await repDialog.getByLabel('Cidade').fill('Natal')
	await repDialog.getByLabel('UF').selectOption('RN')
	await repDialog.getByLabel('Gerente').selectOption({ label: 'Gabriel Gerente' })
	await repDialog.getByLabel('Link de pagamento').fill('nao-e-link')
	await sendRefusedThenFixed(repDialog, 'Criar representante', 'Link inválido: use um endereço http(s) completo.', {
		'Link de pagamento': 'https://pagar.exemplo.com/teste'
	})
	await expect(page.getByText('Representante criado')).toBeVisible()
	await expect(repDialog).toBeHidden()
	const row = page.getByRole('row').filter({ hasText: nome })
	await expect(row).toContainText('Gabriel Gerente')
	await expect(row).toContainText('Natal/RN')

	await page.getByLabel('Buscar representantes').fill(cnpj.slice(0, 8))
	await expect(page.getByRole('row')).toHaveCount(2)

	const userDialog = await openDialog(page, '/users', 'Novo Usuário', 'Novo Usuário')
	await userDialog.getByLabel('Nome *').fill(nome)
	await userDialog.getByLabel('CNPJ *').fill(cnpj)
	await userDialog.getByLabel('Tipo *').selectOption('representante')
	await userDialog.getByLabel('E-mail').fill('teste@representacoes.com.br')
	await sendRefusedThenFixed(userDialog, 'Criar usuário', 'Senha é obrigatória.', { 'Senha *': 'primeira-senha' })
	await expect(page.getByText('Usuário criado')).toBeVisible()
	const userRow = page.getByRole('row').filter({ hasText: formatCnpj(cnpj) })
	await expect(userRow).toContainText('Representante')
	await expect(userRow.getByRole('button', { name: `Excluir ${nome}` })).toBeVisible()
	// no delete button on one's own row
	await expect(
		page
			.getByRole('row')
			.filter({ hasText: 'Ana Administradora' })
			.getByRole('button', { name: /^Excluir/ })
	).toHaveCount(0)

	await signOut(page)
	await signIn(page, formatCnpj(cnpj), 'primeira-senha')
	await expect(page.getByRole('heading', { name: 'Créditos', level: 2 })).toBeVisible()
	await page.goto('/representatives')
	await expect(page.getByRole('heading', { name: 'Minhas Configurações de API' })).toBeVisible()
	await expect(page.getByLabel('Link de pagamento')).toHaveValue('https://pagar.exemplo.com/teste')
	// A bad link is refused beside its field (the form's schema loads when it is sent) and nothing is saved.
	await page.getByLabel('Link de pagamento').fill('pagar.exemplo')
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	await expect(page.getByText('Link inválido: use um endereço http(s) completo.')).toBeVisible()
	await expect(page.getByLabel('Link de pagamento')).toHaveAttribute('aria-invalid', 'true')
	await page.reload()
	await expect(page.getByLabel('Link de pagamento')).toHaveValue('https://pagar.exemplo.com/teste')
	await page.getByLabel('Ativar API Asaas').check()
	// The WhatsApp instance is bound by an administrador: shown, not editable (issue 33, point 5).
	await expect(page.getByLabel('Instância Evolution')).toBeDisabled()
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	await expect(page.getByText('Configurações atualizadas')).toBeVisible()
	await page.reload()
	await expect(page.getByLabel('Ativar API Asaas')).toBeChecked()
})

test('a representante opening Usuários sees "Acesso Restrito"', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/users')
	await expect(page.getByRole('heading', { name: 'Acesso Restrito', level: 2 })).toBeVisible()
	await expect(page.getByText('Apenas administradores podem acessar o gerenciamento de usuários.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Novo Usuário' })).toHaveCount(0)
})

test('a gerente sees only their representatives and cannot choose a manager', async ({ page }) => {
	await signIn(page, ACCOUNTS.gerente)
	await page.goto('/representatives')
	await expect(page.getByRole('row').filter({ hasText: 'Rafael Representações' })).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: 'Norte Sistemas' })).toHaveCount(0)
	await page.getByRole('button', { name: 'Editar Rafael Representações' }).click()
	const dialog = page.getByRole('dialog', { name: 'Editar Representante' })
	await expect(dialog.getByLabel('Nome *')).toHaveValue('Rafael Representações')
	await expect(dialog.getByLabel('Gerente')).toHaveCount(0)
	await expect(page.getByRole('button', { name: /^Excluir/ })).toHaveCount(0)
})

test('a user edits their profile, changes the password, signs out and signs in with the new one', async ({ page }) => {
	const cnpj = freshCnpj('72')
	await signIn(page, ACCOUNTS.administrador)
	const created = await page.request.post('/api/users', {
		data: { cnpj, nome: 'Gerente Temporário', tipo: 'gerente', senha: 'senha-antiga' },
		headers: { origin: new URL(page.url()).origin }
	})
	expect(created.status()).toBe(201)
	await signOut(page)

	await signIn(page, cnpj, 'senha-antiga')
	await page.goto('/profile')
	const main = page.getByRole('main')
	await expect(main.getByText('O CNPJ não pode ser alterado')).toBeVisible()
	await expect(main.getByLabel('CNPJ')).toHaveValue(formatCnpj(cnpj))
	await expect(main.getByLabel('CNPJ')).toBeDisabled()
	await expect(main.getByText('Ativa', { exact: true })).toBeVisible()
	await expect(main.getByText('Gerente', { exact: true })).toBeVisible()
	await main.getByRole('button', { name: 'Editar' }).click()
	// The form's rule loads when editing starts; it marks the field and nothing is sent.
	let sent = 0
	page.on('request', (request) => {
		if (request.method() === 'PUT' && request.url().endsWith('/api/users/me')) sent++
	})
	await main.getByLabel('Nome').fill(' ')
	await main.getByRole('button', { name: 'Salvar' }).click()
	await expect(main.getByText('Nome é obrigatório.')).toBeVisible()
	expect(sent).toBe(0)
	await main.getByLabel('Nome').fill('Gerente Renomeado')
	await main.getByLabel('E-mail').fill('renomeado@ksistemas.com.br')
	await main.getByRole('button', { name: 'Salvar' }).click()
	await expect(page.getByText('Perfil atualizado')).toBeVisible()
	expect(sent).toBe(1)

	await page.getByRole('button', { name: 'Alterar Senha' }).click()
	const dialog = page.getByRole('dialog', { name: 'Alterar Senha' })
	const submit = dialog.getByRole('button', { name: 'Alterar Senha' })
	await submit.click()
	await expect(dialog.getByText('Todos os campos são obrigatórios')).toHaveCount(2)
	await expect(dialog.getByText('Senha é obrigatória.')).toBeVisible()
	await dialog.getByLabel('Senha atual', { exact: true }).fill('senha-antiga')
	await dialog.getByLabel('Nova senha', { exact: true }).fill('nova-senha-1')
	await dialog.getByLabel('Confirmar nova senha', { exact: true }).fill('outra-coisa')
	await submit.click()
	await expect(dialog.getByRole('alert')).toHaveText('A nova senha e confirmação não coincidem')
	await dialog.getByLabel('Nova senha', { exact: true }).fill('12345')
	await dialog.getByLabel('Confirmar nova senha', { exact: true }).fill('12345')
	await submit.click()
	await expect(dialog.getByRole('alert')).toHaveText('A nova senha deve ter pelo menos 6 caracteres')
	await dialog.getByRole('button', { name: 'Mostrar nova senha' }).click()
	await expect(dialog.getByLabel('Nova senha', { exact: true })).toHaveAttribute('type', 'text')
	await dialog.getByLabel('Nova senha', { exact: true }).fill('nova-senha-1')
	await dialog.getByLabel('Confirmar nova senha', { exact: true }).fill('nova-senha-1')
	await submit.click()
	await expect(page.getByText('Senha alterada com sucesso!')).toBeVisible()
	await expect(dialog).toBeHidden()

	await signOut(page)
	await page.getByLabel('CNPJ').fill(cnpj)
	await page.getByLabel('Senha', { exact: true }).fill('senha-antiga')
	await page.getByRole('button', { name: 'Entrar no Sistema' }).click()
	await expect(page.getByText('Senha incorreta')).toBeVisible()
	await signIn(page, cnpj, 'nova-senha-1')
	await expect(sidebar(page).getByText('Gerente Renomeado')).toBeVisible()
})

test('an administrador deletes a representative after confirming, and is told why one with companies cannot go', async ({ page }) => {
	const cnpj = freshCnpj('73')
	const nome = `Representante Temporário ${cnpj.slice(-4)}`
	await signIn(page, ACCOUNTS.administrador)
	await page.goto('/representatives')

	await page.getByRole('button', { name: 'Excluir Norte Sistemas e Automação' }).click()
	const confirm = page.getByRole('dialog', { name: 'Excluir representante' })
	await expect(confirm).toContainText('Esta ação não pode ser desfeita.')
	await confirm.getByRole('button', { name: 'Excluir' }).click()
	await expect(page.getByText('Erro ao excluir representante')).toBeVisible()
	await expect(page.getByText(/possui 14 empresa\(s\)/)).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: 'Norte Sistemas e Automação' })).toBeVisible()

	await page.getByRole('button', { name: 'Novo Representante' }).click()
	const dialog = page.getByRole('dialog', { name: 'Novo Representante' })
	await dialog.getByLabel('Nome *').fill(nome)
	await dialog.getByLabel('CNPJ *').fill(cnpj)
	await dialog.getByRole('button', { name: 'Criar representante' }).click()
	await expect(page.getByText('Representante criado')).toBeVisible()

	await page.getByRole('button', { name: `Excluir ${nome}` }).click()
	await confirm.getByRole('button', { name: 'Cancelar' }).click()
	await expect(page.getByRole('row').filter({ hasText: nome })).toBeVisible()
	await page.getByRole('button', { name: `Excluir ${nome}` }).click()
	await confirm.getByRole('button', { name: 'Excluir' }).click()
	await expect(page.getByText('Representante excluído')).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: nome })).toHaveCount(0)
})

test('a representante whose settings form cannot load its rules (connection lost) is told so, and nothing is sent', async ({ page }) => {
	await signIn(page, ACCOUNTS.representante)
	await page.goto('/representatives')
	await expect(page.getByRole('heading', { name: 'Minhas Configurações de API' })).toBeVisible()
	let sent = false
	page.on('request', (r) => {
		if (r.method() === 'PUT' && r.url().includes('/api/representatives/')) sent = true
	})
	await page.route('**/_astro/**', (route) => route.abort('internetdisconnected'))
	await page.getByRole('button', { name: 'Salvar configurações' }).click()
	await expect(page.getByText('Não foi possível carregar o formulário. Verifique a conexão e tente novamente.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Salvar configurações' })).toBeEnabled()
	expect(sent).toBe(false)
})
