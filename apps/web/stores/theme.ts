import { atom } from 'nanostores'
import { type ThemeSettings, themeCss } from '../../../modules/settings/model'

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

/*
 * The portal's theme (tema.* settings, saved for everyone) arrives in every page as <style id="kportal-tema">
 * and <html data-tema-modo>. Rule for light/dark: this browser's own toggle (kportal-theme) wins over
 * tema.modo; without it, tema.modo applies ('system' follows the device). Saving a mode in
 * Configurações › Aparência clears the toggle's choice in the browser that saved it.
 */

/**
 * Shows a theme at once (the settings screen's live preview); the next page load shows the saved one.
 * The browser's own light/dark choice still wins unless `modeChanged` (the mode itself is being edited).
 */
export function previewPortalTheme(theme: ThemeSettings, modeChanged = false) {
	let style = document.getElementById('kportal-tema') as HTMLStyleElement | null
	if (!style) {
		style = document.createElement('style')
		style.id = 'kportal-tema'
		document.head.append(style)
	}
	style.textContent = themeCss(theme)
	const root = document.documentElement
	root.dataset.temaModo = theme.modo
	const own = localStorage.getItem(THEME_STORAGE_KEY)
	const mode = own && !modeChanged ? own : theme.modo
	const dark = mode === 'dark' || (mode === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches)
	root.classList.toggle('dark', dark)
	root.dataset.theme = dark ? 'kportal-dark' : 'kportal'
	$theme.set(dark ? 'dark' : 'light')
}

/** After tema.modo is saved, this browser follows it instead of its own earlier toggle. */
export function clearThemeOverride() {
	localStorage.removeItem(THEME_STORAGE_KEY)
}
