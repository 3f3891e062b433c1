import { atom } from 'nanostores'
import type { SessionUser } from '../../../modules/auth/model'
import { api, errorText } from '../lib/api'
import { flashToast } from './toast'

/** The signed-in user, injected by the server into the page (#session-data) so it is known before any call. */
export const $user = atom<SessionUser | null>(readInjectedUser())

function readInjectedUser(): SessionUser | null {
	if (typeof document === 'undefined') return null
	try {
		const data = JSON.parse(document.getElementById('session-data')?.textContent ?? 'null') as { user?: SessionUser } | null
		return data?.user ?? null
	} catch {
		return null
	}
}

export const AUTO_LOGOUT_STORAGE_KEY = 'kportal-auto-logout'

/** Ends the session on the server; the browser forgets it whether that call works or not. */
export async function logout(reason: 'user' | 'expired' = 'user', timeoutMinutes?: number) {
	try {
		await api('/api/auth/logout', { method: 'POST' })
		if (reason === 'user') flashToast({ title: 'Logout realizado com sucesso', description: 'Até logo!', variant: 'success' })
	} catch (error) {
		if (reason === 'user') {
			flashToast({ title: 'Erro no logout', description: errorText(error, 'Erro ao fazer logout. Tente novamente.'), variant: 'destructive' })
		}
	}
	if (reason === 'expired') {
		flashToast({
			title: 'Sessão expirada',
			description: `Você foi deslogado automaticamente após ${timeoutMinutes} minutos de inatividade`,
			variant: 'warning',
			duration: 3_000
		})
	}
	localStorage.removeItem(AUTO_LOGOUT_STORAGE_KEY)
	$user.set(null)
	setTimeout(() => window.location.assign('/'), 100)
}
