import type { Role } from '../../../modules/core'

export interface MenuItem {
	href: string
	label: string
	icon: string
	/** Who sees the item; absent = every signed-in user. */
	roles?: Role[]
	/** The page it opens, when that is not its href: '/' is the dashboard, or the credits screen for a representante. */
	page?: string
}

/** Whether the item stands for the page being shown (the layout highlights it). */
export const isActive = (item: MenuItem, active: string) => (item.page ?? item.href) === active

const STAFF: Role[] = ['administrador', 'gerente', 'representante']
const ADMIN: Role[] = ['administrador']

/** The side menu of 1-core §2.2, in its order. */
export const MENU: MenuItem[] = [
	{ href: '/', label: 'Dashboard', icon: 'LayoutDashboard', roles: ['administrador', 'gerente'], page: '/dashboard' },
	{ href: '/', label: 'Créditos', icon: 'Coins', roles: ['representante'], page: '/credits' },
	{ href: '/companies', label: 'Empresas', icon: 'Building2' },
	{ href: '/representatives', label: 'Representantes', icon: 'Users', roles: STAFF },
	{ href: '/credits', label: 'Créditos', icon: 'Coins', roles: ['administrador', 'gerente'] },
	{ href: '/terminals', label: 'Terminais', icon: 'Monitor' },
	{ href: '/notices', label: 'Avisos', icon: 'Megaphone' },
	{ href: '/downloads', label: 'Downloads', icon: 'Download' },
	{ href: '/carnes', label: 'Carnês Asaas', icon: 'Receipt', roles: STAFF },
	{ href: '/pagamentos-parcelas', label: 'Pagamentos', icon: 'CreditCard', roles: STAFF },
	{ href: '/historico-pagamentos', label: 'Histórico', icon: 'History', roles: STAFF },
	{ href: '/financeiro-config', label: 'Config Asaas', icon: 'Wallet', roles: STAFF },
	{ href: '/admin/financeiro-config', label: 'Admin Financeiro', icon: 'Landmark', roles: ADMIN },
	{ href: '/whatsapp-bot', label: 'Bot WhatsApp', icon: 'Bot', roles: ADMIN },
	{ href: '/whatsapp-admin', label: 'Admin Bot', icon: 'MessagesSquare', roles: ADMIN },
	{ href: '/configuracoes-bot', label: 'Config Bot', icon: 'SlidersHorizontal', roles: ADMIN },
	{ href: '/users', label: 'Usuários', icon: 'UserCog', roles: ADMIN },
	{ href: '/reports', label: 'Relatórios', icon: 'BarChart3', roles: ADMIN },
	{ href: '/notification-settings', label: 'Notificações', icon: 'BellRing', roles: ADMIN }
]

export const FOOTER_MENU: MenuItem[] = [
	{ href: '/profile', label: 'Perfil', icon: 'UserRound' },
	{ href: '/settings', label: 'Configurações', icon: 'Settings', roles: ['administrador', 'gerente'] }
]
