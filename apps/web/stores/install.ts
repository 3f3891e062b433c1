import { atom } from 'nanostores'

interface BeforeInstallPromptEvent extends Event {
	prompt(): Promise<void>
	userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

const DISMISSED_KEY = 'kportal-install-dismissed'

/** The browser's offer to install the portal as an app, when it makes one. */
export const $installEvent = atom<BeforeInstallPromptEvent | null>(null)
export const $installCardVisible = atom(false)

export function listenForInstallPrompt(): () => void {
	let timer: ReturnType<typeof setTimeout> | undefined
	const onPrompt = (event: Event) => {
		event.preventDefault()
		$installEvent.set(event as BeforeInstallPromptEvent)
		if (sessionStorage.getItem(DISMISSED_KEY)) return
		// On phones the card waits 2 s so it does not cover the page as it opens.
		const delay = window.matchMedia('(max-width: 768px)').matches ? 2_000 : 0
		timer = setTimeout(() => $installCardVisible.set(true), delay)
	}
	const onInstalled = () => {
		$installEvent.set(null)
		$installCardVisible.set(false)
	}
	window.addEventListener('beforeinstallprompt', onPrompt)
	window.addEventListener('appinstalled', onInstalled)
	return () => {
		clearTimeout(timer)
		window.removeEventListener('beforeinstallprompt', onPrompt)
		window.removeEventListener('appinstalled', onInstalled)
	}
}

export async function installApp() {
	const event = $installEvent.get()
	if (!event) return
	$installCardVisible.set(false)
	await event.prompt()
	const choice = await event.userChoice
	if (choice.outcome === 'accepted') $installEvent.set(null)
}

/** Dismissal lasts for the browser session. */
export function dismissInstallCard() {
	sessionStorage.setItem(DISMISSED_KEY, '1')
	$installCardVisible.set(false)
}
