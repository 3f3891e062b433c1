import type { Role } from './roles'

const ALL: readonly Role[] = ['administrador', 'gerente', 'representante']
const ADMIN: readonly Role[] = ['administrador']
const STAFF_MANAGERS: readonly Role[] = ['administrador', 'gerente']
const REPRESENTATIVE: readonly Role[] = ['representante']

/**
 * Who may do what: every rule of the specification's role tables, by name. API routes declare the capability
 * they need (`can`), the menu and page serving read the same names, and islands ask `can(role, name)` before
 * offering an action. Whose data (which representatives) is the scope's business, not this table's.
 */
export const CAPABILITIES = {
	/** Any signed-in user: own session, profile, password, notifications, the settings the screens read. */
	session: ALL,
	'api.docs': ADMIN,

	'dashboard.view': STAFF_MANAGERS,
	'activities.read': ALL,
	'reports.view': ADMIN,

	'companies.read': ALL,
	'companies.write': ALL,
	/** Choose (or change) the representative a company belongs to; a representante's companies are always theirs. */
	'companies.assign': STAFF_MANAGERS,
	'companies.dates': ADMIN,
	'companies.maintenance': ADMIN,
	'companies.keys': ADMIN,
	'companies.sendNotices': REPRESENTATIVE,
	'terminals.read': ALL,
	'terminals.write': ALL,
	'downloads.read': ALL,
	'downloads.manage': ADMIN,

	'representatives.read': ALL,
	'representatives.manage': STAFF_MANAGERS,
	'representatives.delete': ADMIN,
	'representatives.chooseManager': ADMIN,
	/** Bind a WhatsApp (Evolution) instance to a representative: whoever holds it sends as that number. */
	'representatives.bindInstance': ADMIN,
	'representatives.ownSettings': REPRESENTATIVE,
	'representatives.promo': REPRESENTATIVE,
	/** Sees the records of more than one representative (which ones is the scope's business): lists name each row's. */
	'representatives.seeOthers': STAFF_MANAGERS,
	'users.manage': ADMIN,

	'credits.read': ALL,
	/** Own a pool of credits: the credits screen at '/', renewals from the own pool. */
	'credits.own': REPRESENTATIVE,
	'credits.summary': STAFF_MANAGERS,
	'credits.add': ADMIN,
	'credits.transfer': ALL,
	'credits.renew': REPRESENTATIVE,
	'credits.purchase': REPRESENTATIVE,

	'notices.general.read': ALL,
	/** Read inactive general notices too (a representante reads the active ones only). */
	'notices.general.readInactive': STAFF_MANAGERS,
	'notices.general.manage': ADMIN,
	'notices.individual': ALL,
	'notices.chooseRepresentative': STAFF_MANAGERS,

	'settings.view': STAFF_MANAGERS,
	'settings.manage': ADMIN,
	'system.info': STAFF_MANAGERS,
	'system.manage': ADMIN,

	'billing.carnes': ALL,
	'billing.ownProviderConfig': REPRESENTATIVE,
	'billing.providerConfigs': ADMIN,
	/** The reminder schedule (régua de cobrança): a representante sees and changes their own, an administrador anyone's. */
	'billing.dunning': ['administrador', 'representante'],
	/** Name whose reminder schedule (any representative's) and run every schedule at once ('Executar agora'). */
	'billing.dunningAll': ADMIN,
	'messaging.gateway': ADMIN,
	'messaging.notifications': ADMIN,
	'whatsapp.bot': ADMIN
} as const satisfies Record<string, readonly Role[]>

export type Capability = keyof typeof CAPABILITIES

export function can(role: Role | null | undefined, capability: Capability): boolean {
	return !!role && (CAPABILITIES[capability] as readonly Role[]).includes(role)
}

/** What a page shows to a role it does not serve (the specification's own words for each screen). */
export interface Denial {
	title: string
	message: string
}

export interface PageAccess {
	capability: Capability
	denied?: Denial
	/** Who finds the page in the side menu, when that is not who may open it (the others get its denial). */
	listedFor?: Capability
}

const DEFAULT_DENIAL: Denial = { title: 'Acesso Negado', message: 'Você não tem permissão para acessar esta página.' }

/** A page whose access-denied screen says who may use it instead of the default words. */
const deniedBut = (capability: Capability, message: string, title = DEFAULT_DENIAL.title): PageAccess => ({
	capability,
	denied: { title, message }
})

/** Every page of the portal and what it takes to be served it; a role without it gets the access-denied screen. */
export const PAGES: Record<string, PageAccess> = {
	'/dashboard': { capability: 'dashboard.view' },
	'/companies': { capability: 'companies.read' },
	'/representatives': { capability: 'representatives.read' },
	'/credits': { capability: 'credits.read' },
	'/autocompra-creditos': deniedBut('credits.purchase', 'Apenas representantes podem acessar a autocompra de créditos.'),
	'/terminals': { capability: 'terminals.read' },
	'/notices': { capability: 'notices.individual' },
	'/downloads': { capability: 'downloads.read' },
	'/users': deniedBut('users.manage', 'Apenas administradores podem acessar o gerenciamento de usuários.', 'Acesso Restrito'),
	'/reports': deniedBut('reports.view', 'Apenas administradores podem acessar os relatórios.'),
	'/activities': { capability: 'activities.read' },
	'/profile': { capability: 'session' },
	'/settings': deniedBut('settings.view', 'Você não tem permissão para acessar as configurações do sistema.'),
	'/notification-settings': { capability: 'messaging.notifications' },
	// 1-core §2.2 lists Config Asaas for every role; only a representante's is served, the others read its denial.
	'/financeiro-config': {
		...deniedBut('billing.ownProviderConfig', 'Apenas representantes podem acessar as configurações financeiras.'),
		listedFor: 'session'
	},
	'/admin/financeiro-config': { capability: 'billing.providerConfigs' },
	'/carnes': { capability: 'billing.carnes' },
	'/pagamentos-parcelas': { capability: 'billing.carnes' },
	'/historico-pagamentos': { capability: 'billing.carnes' },
	'/whatsapp-bot': { capability: 'whatsapp.bot' },
	'/whatsapp-admin': { capability: 'whatsapp.bot' },
	'/configuracoes-bot': { capability: 'whatsapp.bot' }
}

export function denialOf(path: string): Denial {
	return PAGES[path]?.denied ?? DEFAULT_DENIAL
}

/** Whether a role is served a page of the table (a path outside it is served to no one). */
export function mayOpen(role: Role | null | undefined, path: string): boolean {
	const page = PAGES[path]
	return !!page && can(role, page.capability)
}

/** Whether the side menu offers a page to a role. */
export function listsFor(role: Role | null | undefined, path: string): boolean {
	const page = PAGES[path]
	return !!page && can(role, page.listedFor ?? page.capability)
}

/** The page a role's '/' shows: the dashboard to whoever may see it, the credits screen to the others. */
export function homePage(role: Role | null | undefined): '/dashboard' | '/credits' {
	return can(role, 'dashboard.view') ? '/dashboard' : '/credits'
}
