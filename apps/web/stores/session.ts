import { atom } from 'nanostores'
import type { SessionUser } from '../../../modules/auth/model'
import { ApiError, type ApiResponse, SESSION_REFUSED_EVENT, call, endSession, errorText } from '../lib/api'
import { pageData } from '../lib/page-data'
import { createFetcherStore } from '../lib/query'
import { flashToast } from './toast'

/** The signed-in user, injected by the server into the page (#session-data) so it is known before any call. */
export const $user = atom<SessionUser | null>(pageData().user)

export const AUTO_LOGOUT_STORAGE_KEY = 'kportal-auto-logout'

/** Ends the session on the server; the browser forgets it whether that call works or not. */
export async function logout(reason: 'user' | 'expired' = 'user', timeoutMinutes?: number) {
	try {
		await call('POST /api/auth/logout')
		if (reason === 'user') flashToast({ title: 'Logout realizado com sucesso', description: 'Até logo!', variant: 'success' })
	} catch (error) {
		if (reason === 'user') {
			flashToast({
				title: 'Erro no logout',
				description: errorText(error, 'Erro ao fazer logout. Tente novamente.'),
				variant: 'destructive'
			})
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
	endSession()
	$user.set(null)
	setTimeout(() => window.location.assign('/'), 100)
}

/**
 * The session check of 1-core §7: GET /api/auth/me, cached for 1 minute (kept 3), refetched on window
 * focus and on mount, never retried; a 401 means "not signed in" (null), not an error.
 */
export const $sessionCheck = createFetcherStore<ApiResponse<'GET /api/auth/me'> | null>(['/api/auth/me'], {
	fetcher: async () => {
		try {
			return await call('GET /api/auth/me')
		} catch (error) {
			if (error instanceof ApiError && error.status === 401) return null
			throw error
		}
	},
	dedupeTime: 60_000,
	cacheLifetime: 180_000,
	revalidateOnFocus: true,
	onErrorRetry: null
})

/**
 * When the server says the session is gone (expired, or signed out in another tab), go to the login:
 * found by the session check, or at once when any call is refused with 401.
 */
export function watchSession(): () => void {
	const unsubscribe = $sessionCheck.subscribe(({ data, loading }) => {
		if (!loading && data === null && $user.get()) {
			flashToast({ title: 'Sessão expirada', description: 'Faça login novamente para continuar.', variant: 'warning', duration: 3_000 })
			endSession()
			$user.set(null)
			window.location.assign('/')
		}
	})
	const recheck = () => $sessionCheck.revalidate()
	window.addEventListener(SESSION_REFUSED_EVENT, recheck)
	return () => {
		unsubscribe()
		window.removeEventListener(SESSION_REFUSED_EVENT, recheck)
	}
}
