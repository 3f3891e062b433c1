import { formatRelative } from '../../../modules/core'
import { $deadline, renewSession, startInactivityTimer } from '../stores/inactivity'
import { $installCardVisible, $installEvent, dismissInstallCard, installApp, listenForInstallPrompt } from '../stores/install'
import { $notifications, type Notification, markAllRead } from '../stores/notifications'
import { watchSession } from '../stores/session'
import { toggleTheme } from '../stores/theme'
import { toast } from '../stores/toast'

/*
 * What makes the top bar's controls (components/ShellControls.astro) answer: the session countdown and the
 * inactivity timer behind it, the install button and card, the theme toggle, the notifications' bell and dialog.
 */

const part = <E extends HTMLElement>(root: ParentNode, name: string) => root.querySelector<E>(`[data-part="${name}"]`)
const onClick = (root: ParentNode, action: string, handler: () => void) => {
	for (const button of root.querySelectorAll<HTMLButtonElement>(`[data-action="${action}"]`)) {
		button.addEventListener('click', handler)
		button.disabled = false
	}
}

/** Time left before the automatic logout: green, yellow at 10 minutes or less, red at 5 or less. */
function countdown(root: ParentNode) {
	const box = part(root, 'countdown')
	const time = part(root, 'countdown-time')
	if (!box || !time) return
	const draw = () => {
		const deadline = $deadline.get()
		box.classList.toggle('hidden', deadline === null)
		box.classList.remove('invisible')
		if (deadline === null) return
		const left = Math.max(0, deadline - Date.now())
		const minutes = Math.floor(left / 60_000)
		const seconds = Math.floor((left % 60_000) / 1000)
		time.textContent = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`
		time.setAttribute('aria-label', `Sessão expira em ${minutes} minutos`)
		time.classList.remove('text-error', 'text-warning', 'text-success')
		time.classList.add(left <= 5 * 60_000 ? 'text-error' : left <= 10 * 60_000 ? 'text-warning' : 'text-success')
	}
	$deadline.subscribe(draw)
	setInterval(draw, 1_000)
	onClick(root, 'renew-session', () => {
		renewSession()
		toast({ title: 'Sessão renovada', variant: 'success', duration: 2_000 })
	})
}

function install(root: ParentNode) {
	const button = root.querySelector<HTMLButtonElement>('[data-action="install"]')
	$installEvent.subscribe((event) => {
		if (button) button.hidden = !event
	})
	onClick(root, 'install', installApp)
	const template = document.querySelector<HTMLTemplateElement>('#install-card')
	let card: HTMLElement | null = null
	$installCardVisible.subscribe((visible) => {
		if (visible && !card && template) {
			card = (template.content.cloneNode(true) as DocumentFragment).firstElementChild as HTMLElement
			onClick(card, 'install', installApp)
			onClick(card, 'dismiss-install', dismissInstallCard)
			document.body.append(card)
		} else if (!visible && card) {
			card.remove()
			card = null
		}
	})
}

/** What a notification's link says, by the page it opens. */
const NOTIFICATION_LINK_WORDS: Record<string, string> = { '/autocompra-creditos': 'Comprar créditos' }

function notificationItem(n: Notification, now: Date): HTMLLIElement {
	const item = document.createElement('li')
	item.className = `rounded-field border p-3 ${n.read ? 'border-base-300 opacity-70' : 'border-primary/30 bg-base-200'}`
	const head = document.createElement('div')
	head.className = 'flex items-start justify-between gap-2'
	const title = document.createElement('p')
	title.className = `font-medium ${n.type === 'success' ? 'text-success' : n.type === 'warning' ? 'text-warning' : ''}`
	title.textContent = n.title
	const when = document.createElement('span')
	when.className = 'shrink-0 text-xs text-base-content/70'
	when.textContent = formatRelative(n.created_at, now)
	head.append(title, when)
	const message = document.createElement('p')
	message.className = 'mt-1 text-sm'
	message.textContent = n.message
	item.append(head, message)
	// Only the portal's own pages: a link is a path of this site, never another address.
	if (n.link?.startsWith('/') && !n.link.startsWith('//')) {
		const link = document.createElement('a')
		link.className = 'link link-primary mt-1 inline-block text-sm'
		link.href = n.link
		link.textContent = NOTIFICATION_LINK_WORDS[n.link] ?? 'Abrir'
		item.append(link)
	}
	return item
}

function notifications(root: ParentNode) {
	const bell = root.querySelector<HTMLButtonElement>('[data-action="open-notifications"]')
	const dialog = root.querySelector<HTMLDialogElement>('#notifications-dialog')
	const badge = part(root, 'unread')
	const name = part(root, 'bell-name')
	const loading = part(root, 'notifications-loading')
	const empty = part(root, 'notifications-empty')
	const list = part(root, 'notifications-list')
	if (!bell || !dialog || !badge || !name || !loading || !empty || !list) return
	let shownError: unknown = null
	const draw = () => {
		const { data, loading: busy, error } = $notifications.get()
		const unread = (data ?? []).filter((n) => !n.read).length
		name.textContent = unread ? `Notificações (${unread} não lidas)` : 'Notificações'
		badge.hidden = unread === 0
		badge.textContent = String(unread)
		loading.hidden = !(busy && !data)
		empty.hidden = !(data && data.length === 0)
		const now = new Date()
		list.replaceChildren(...(data ?? []).map((n) => notificationItem(n, now)))
		// Said when the list cannot be shown; a refresh failing behind a shown list is tried again at the next tick.
		if (error && error !== shownError && !data) toast({ title: 'Erro ao acessar notificações', variant: 'destructive' })
		shownError = error
	}
	$notifications.subscribe(draw)
	// The "há 5 min" of each item stays current.
	setInterval(draw, 60_000)
	onClick(root, 'open-notifications', () => dialog.showModal())
	onClick(root, 'mark-all-read', markAllRead)
}

/** Starts the controls and the session's inactivity timer; marks <html> once they answer (the browser tests wait for it). */
export function startShellControls() {
	const root = document.getElementById('shell-controls')
	if (!root) return
	startInactivityTimer()
	listenForInstallPrompt()
	watchSession()
	countdown(root)
	install(root)
	onClick(root, 'toggle-theme', toggleTheme)
	notifications(root)
	document.documentElement.dataset.controlsReady = ''
}
