import { atom } from 'nanostores'

export type ThemeMode = 'light' | 'dark'
export const THEME_STORAGE_KEY = 'kportal-theme'

function current(): ThemeMode {
	if (typeof document === 'undefined') return 'light'
	return document.documentElement.classList.contains('dark') ? 'dark' : 'light'
}

/** Light by default; the inline script in the layout applies the saved choice before the first paint. */
export const $theme = atom<ThemeMode>(current())

export function applyTheme(mode: ThemeMode) {
	const root = document.documentElement
	root.classList.toggle('dark', mode === 'dark')
	root.dataset.theme = mode === 'dark' ? 'kportal-dark' : 'kportal'
	localStorage.setItem(THEME_STORAGE_KEY, mode)
	$theme.set(mode)
}

export function toggleTheme() {
	applyTheme($theme.get() === 'dark' ? 'light' : 'dark')
}
