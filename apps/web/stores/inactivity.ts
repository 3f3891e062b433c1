import { atom } from 'nanostores'
import type { AutoLogoutConfig } from '../../../modules/settings/model'
import { ApiError, call } from '../lib/api'
import { AUTO_LOGOUT_STORAGE_KEY, logout } from './session'
import { toast } from './toast'

const RESET_THROTTLE_MS = 60_000
const WARNING_BEFORE_MS = 5 * 60_000
const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart', 'click'] as const

export const DEFAULT_AUTO_LOGOUT: AutoLogoutConfig = { enabled: true, timeoutMinutes: 30 }

/** When the session ends without activity (ms since epoch), or null while the timer is off. */
export const $deadline = atom<number | null>(null)
export const $autoLogout = atom<AutoLogoutConfig>(readStoredConfig())

function readStoredConfig(): AutoLogoutConfig {
	if (typeof localStorage === 'undefined') return DEFAULT_AUTO_LOGOUT
	try {
		const saved = JSON.parse(localStorage.getItem(AUTO_LOGOUT_STORAGE_KEY) ?? 'null') as AutoLogoutConfig | null
		if (saved && typeof saved.enabled === 'boolean' && typeof saved.timeoutMinutes === 'number') return saved
	} catch {}
	return DEFAULT_AUTO_LOGOUT
}

export function setAutoLogoutConfig(config: AutoLogoutConfig) {
	localStorage.setItem(AUTO_LOGOUT_STORAGE_KEY, JSON.stringify(config))
	$autoLogout.set(config)
}

let lastReset = 0
let warned = false

/** Starts the inactivity timer from now and tells the server the user is still here. */
export function renewSession(options: { notifyServer?: boolean } = {}) {
	const config = $autoLogout.get()
	lastReset = Date.now()
	warned = false
	$deadline.set(config.enabled ? lastReset + config.timeoutMinutes * 60_000 : null)
	if (options.notifyServer !== false) {
		call('POST /api/auth/renew').catch((error) => {
			if (error instanceof ApiError && error.status === 401) logout('expired', config.timeoutMinutes)
		})
	}
}

/**
 * Runs while a user is signed in (1-core §4): activity resets the timer at most once a minute,
 * a warning shows 5 minutes before the end, and the user is signed out at the end.
 */
export function startInactivityTimer(): () => void {
	const onActivity = () => {
		if (Date.now() - lastReset > RESET_THROTTLE_MS) renewSession()
	}
	for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true })

	const tick = setInterval(() => {
		const deadline = $deadline.get()
		if (deadline === null) return
		const left = deadline - Date.now()
		if (left <= 0) {
			clearInterval(tick)
			logout('expired', $autoLogout.get().timeoutMinutes)
		} else if (left <= WARNING_BEFORE_MS && !warned) {
			warned = true
			toast({
				title: 'Sessão expirando',
				description: 'Sua sessão expirará em 5 minutos por inatividade. Mova o mouse ou clique para continuar.',
				variant: 'warning',
				duration: 10_000
			})
		}
	}, 1_000)

	const unsubscribe = $autoLogout.listen(() => renewSession({ notifyServer: false }))
	renewSession({ notifyServer: false })
	call('GET /api/public/auto-logout-config')
		.then((config) => setAutoLogoutConfig(config))
		.catch(() => {})

	return () => {
		clearInterval(tick)
		unsubscribe()
		for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity)
	}
}
