/**
 * The portal's theme settings (tema.* keys) turned into CSS, shared by the server (injected into every
 * page before the first paint) and the settings screen (live preview). Pure functions, no imports.
 */
export interface ThemeSettings {
	modo: 'light' | 'dark' | 'system'
	cor_primaria: string
	cor_secundaria: string
	cor_destaque: string
	tamanho_fonte: 'small' | 'medium' | 'large'
	modo_compacto: boolean
}

export const THEME_DEFAULTS: ThemeSettings = {
	modo: 'light',
	cor_primaria: '#11053b',
	cor_secundaria: '#F1F3F6',
	cor_destaque: '#42A5F5',
	tamanho_fonte: 'medium',
	modo_compacto: false
}

export const FONT_SIZES: Record<ThemeSettings['tamanho_fonte'], string> = { small: '14px', medium: '16px', large: '18px' }

const HEX = /^#([0-9a-fA-F]{6})$/

/** "#RRGGBB" → hue 0–360, saturation and lightness 0–100 (2 decimals, so the colour survives the trip); null when not a colour. */
export function hexToHsl(hex: string): { h: number; s: number; l: number } | null {
	const m = HEX.exec(hex)
	if (!m) return null
	const n = Number.parseInt(m[1], 16)
	const r = ((n >> 16) & 255) / 255
	const g = ((n >> 8) & 255) / 255
	const b = (n & 255) / 255
	const max = Math.max(r, g, b)
	const min = Math.min(r, g, b)
	const l = (max + min) / 2
	let h = 0
	let s = 0
	if (max !== min) {
		const d = max - min
		s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
		if (max === r) h = (g - b) / d + (g < b ? 6 : 0)
		else if (max === g) h = (b - r) / d + 2
		else h = (r - g) / d + 4
		h *= 60
	}
	const r2 = (v: number) => Math.round(v * 100) / 100
	return { h: r2(h), s: r2(s * 100), l: r2(l * 100) }
}

/** Text on a colour: black when its lightness is over 50, otherwise white (2-administration §4). */
export function contentColor(hex: string): '#000000' | '#ffffff' {
	const hsl = hexToHsl(hex)
	return hsl && hsl.l > 50 ? '#000000' : '#ffffff'
}

function hsl(hex: string, fallback: string): string {
	const c = hexToHsl(hex) ?? hexToHsl(fallback)!
	return `hsl(${c.h} ${c.s}% ${c.l}%)`
}

/** A colour made readable on the dark background: same hue and saturation, lightness at least 65%. */
function darkVariant(hex: string): { css: string; content: '#000000' | '#ffffff' } {
	const c = hexToHsl(hex)!
	const l = Math.max(c.l, 65)
	return { css: `hsl(${c.h} ${c.s}% ${l}%)`, content: l > 50 ? '#000000' : '#ffffff' }
}

/**
 * The CSS for the saved theme. The three colours set the light palette. In the dark palette, a primary or
 * accent colour that was changed from its default appears lightened (same hue, lightness ≥ 65%) so it stays
 * visible on the dark background; untouched colours and the secondary keep the dark palette's tuned values.
 * Font size and compact mode apply in both.
 */
export function themeCss(theme: ThemeSettings): string {
	const colours = [
		['primary', theme.cor_primaria, THEME_DEFAULTS.cor_primaria],
		['secondary', theme.cor_secundaria, THEME_DEFAULTS.cor_secundaria],
		['accent', theme.cor_destaque, THEME_DEFAULTS.cor_destaque]
	] as const
	const light: string[] = []
	const dark: string[] = []
	for (const [name, value, fallback] of colours) {
		const safe = HEX.test(value) ? value : fallback
		light.push(`--color-${name}:${hsl(safe, fallback)};--color-${name}-content:${contentColor(safe)};`)
		if (name !== 'secondary' && safe.toLowerCase() !== fallback.toLowerCase()) {
			const d = darkVariant(safe)
			dark.push(`--color-${name}:${d.css};--color-${name}-content:${d.content};`)
		}
	}
	let css = `html[data-theme="kportal"]{${light.join('')}}`
	if (dark.length) css += `html[data-theme="kportal-dark"]{${dark.join('')}}`
	css += `html{font-size:${FONT_SIZES[theme.tamanho_fonte] ?? FONT_SIZES.medium};}`
	if (theme.modo_compacto) {
		css += `:root{--size-field:0.21rem;--size-selector:0.21rem;}#main{padding:0.75rem;}.table :where(th,td){padding-block:0.3rem;}`
	}
	return css
}

/** Reads the tema.* values (strings, as stored) into a ThemeSettings, falling back to defaults. */
export function themeFromValues(values: Partial<Record<string, string>>): ThemeSettings {
	const pick = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T =>
		allowed.includes(value as T) ? (value as T) : fallback
	const colour = (value: string | undefined, fallback: string) => (value && HEX.test(value) ? value : fallback)
	return {
		modo: pick(values['tema.modo'], ['light', 'dark', 'system'], THEME_DEFAULTS.modo),
		cor_primaria: colour(values['tema.cor_primaria'], THEME_DEFAULTS.cor_primaria),
		cor_secundaria: colour(values['tema.cor_secundaria'], THEME_DEFAULTS.cor_secundaria),
		cor_destaque: colour(values['tema.cor_destaque'], THEME_DEFAULTS.cor_destaque),
		tamanho_fonte: pick(values['tema.tamanho_fonte'], ['small', 'medium', 'large'], THEME_DEFAULTS.tamanho_fonte),
		modo_compacto: values['tema.modo_compacto'] === 'true'
	}
}

export const THEME_KEYS = [
	'tema.modo',
	'tema.cor_primaria',
	'tema.cor_secundaria',
	'tema.cor_destaque',
	'tema.tamanho_fonte',
	'tema.modo_compacto'
] as const
