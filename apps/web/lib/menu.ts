import { ROLES, type Role, homePage, listsFor } from '../../../modules/core'

export interface MenuItem {
	href: string
	label: string
	icon: string
	/** The page it opens, when that is not its href: '/' is the dashboard, or the credits screen for a representante. */
	page?: string
}

/** Whether the item stands for the page being shown (the layout highlights it). */
export const isActive = (item: MenuItem, active: string) => (item.page ?? item.href) === active

/**
 * Whether a role finds the item in its menu, as the page table (core/access.ts PAGES) says: '/' is listed once, under
 * the name of the page it shows that role; every other item when the table lists its page for the role, except the
 * page the role already has at '/'.
 */
export function listedFor(role: Role, item: Pick<MenuItem, 'href' | 'page'>): boolean {
	if (item.href === '/') return homePage(role) === item.page
	return homePage(role) !== item.href && listsFor(role, item.href)
}

/** The roles that see the item, or undefined when every signed-in user does (the page marks it data-roles). */
export function seenBy(item: Pick<MenuItem, 'href' | 'page'>): Role[] | undefined {
	const roles = ROLES.filter((role) => listedFor(role, item))
	return roles.length === ROLES.length ? undefined : roles
}

/** The side menu of 1-core §2.2, in its order; who sees each item is the page table's to say. */
export const MENU: MenuItem[] = [
	{ href: '/', label: 'Dashboard', icon: 'LayoutDashboard', page: '/dashboard' },
	{ href: '/', label: 'Créditos', icon: 'Coins', page: '/credits' },
	{ href: '/companies', label: 'Empresas', icon: 'Building2' },
	{ href: '/representatives', label: 'Representantes', icon: 'Users' },
	{ href: '/credits', label: 'Créditos', icon: 'Coins' },
	{ href: '/terminals', label: 'Terminais', icon: 'Monitor' },
	{ href: '/notices', label: 'Avisos', icon: 'Megaphone' },
	{ href: '/downloads', label: 'Downloads', icon: 'Download' },
	{ href: '/carnes', label: 'Carnês Asaas', icon: 'Receipt' },
	{ href: '/pagamentos-parcelas', label: 'Pagamentos', icon: 'CreditCard' },
	{ href: '/historico-pagamentos', label: 'Histórico', icon: 'History' },
	{ href: '/financeiro-config', label: 'Config Asaas', icon: 'Wallet' },
	{ href: '/admin/financeiro-config', label: 'Admin Financeiro', icon: 'Landmark' },
	{ href: '/whatsapp-bot', label: 'Bot WhatsApp', icon: 'Bot' },
	{ href: '/whatsapp-admin', label: 'Admin Bot', icon: 'MessagesSquare' },
	{ href: '/configuracoes-bot', label: 'Config Bot', icon: 'SlidersHorizontal' },
	{ href: '/users', label: 'Usuários', icon: 'UserCog' },
	{ href: '/reports', label: 'Relatórios', icon: 'BarChart3' },
	{ href: '/notification-settings', label: 'Notificações', icon: 'BellRing' }
]

export const FOOTER_MENU: MenuItem[] = [
	{ href: '/profile', label: 'Perfil', icon: 'UserRound' },
	{ href: '/settings', label: 'Configurações', icon: 'Settings' }
]
