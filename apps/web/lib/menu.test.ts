import { describe, expect, it } from 'bun:test'
import { ROLES, type Role, mayOpen } from '../../../modules/core'
import { FOOTER_MENU, MENU, listedFor, seenBy } from './menu'

const menuOf = (role: Role, items = MENU) => items.filter((item) => listedFor(role, item)).map((item) => `${item.href} ${item.label}`)

const BILLING = [
	'/carnes Carnês Asaas',
	'/pagamentos-parcelas Pagamentos',
	'/historico-pagamentos Histórico',
	'/financeiro-config Config Asaas'
]

describe('the side menu, drawn from the page table (1-core §2.2)', () => {
	it('lists for each role the items of the specification, in its order', () => {
		const shared = ['/companies Empresas', '/representatives Representantes']
		const lists = ['/terminals Terminais', '/notices Avisos', '/downloads Downloads', ...BILLING]
		expect(menuOf('administrador')).toEqual([
			'/ Dashboard',
			...shared,
			'/credits Créditos',
			...lists,
			'/admin/financeiro-config Admin Financeiro',
			'/whatsapp-bot Bot WhatsApp',
			'/whatsapp-admin Admin Bot',
			'/configuracoes-bot Config Bot',
			'/users Usuários',
			'/reports Relatórios',
			'/notification-settings Notificações'
		])
		expect(menuOf('gerente')).toEqual(['/ Dashboard', ...shared, '/credits Créditos', ...lists])
		// The representante's credits are their '/': listed once, there.
		expect(menuOf('representante')).toEqual(['/ Créditos', ...shared, ...lists])
		expect(menuOf('administrador', FOOTER_MENU)).toEqual(['/profile Perfil', '/settings Configurações'])
		expect(menuOf('gerente', FOOTER_MENU)).toEqual(['/profile Perfil', '/settings Configurações'])
		expect(menuOf('representante', FOOTER_MENU)).toEqual(['/profile Perfil'])
	})

	it('marks the page with the roles that see an item, and nothing on the items every role sees', () => {
		const marks = Object.fromEntries([...MENU, ...FOOTER_MENU].map((item) => [`${item.href} ${item.label}`, seenBy(item)]))
		expect(marks['/ Dashboard']).toEqual(['administrador', 'gerente'])
		expect(marks['/ Créditos']).toEqual(['representante'])
		expect(marks['/credits Créditos']).toEqual(['administrador', 'gerente'])
		expect(marks['/users Usuários']).toEqual(['administrador'])
		expect(marks['/settings Configurações']).toEqual(['administrador', 'gerente'])
		for (const every of ['/companies Empresas', '/profile Perfil', ...BILLING]) expect(marks[every]).toBeUndefined()
	})

	it('offers Config Asaas to every role though only a representante is served it (3-billing-messaging §2)', () => {
		for (const role of ROLES) expect(listedFor(role, { href: '/financeiro-config' })).toBe(true)
		expect(ROLES.filter((role) => mayOpen(role, '/financeiro-config'))).toEqual(['representante'])
	})
})
