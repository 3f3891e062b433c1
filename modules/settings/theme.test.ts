import { describe, expect, it } from 'bun:test'
import { THEME_DEFAULTS, contentColor, hexToHsl, themeCss, themeFromValues } from './theme'

describe('theme', () => {
	it('converts #RRGGBB to HSL', () => {
		expect(hexToHsl('#ff0000')).toEqual({ h: 0, s: 100, l: 50 })
		expect(hexToHsl('#FFFFFF')).toEqual({ h: 0, s: 0, l: 100 })
		expect(hexToHsl('#00ff00')).toEqual({ h: 120, s: 100, l: 50 })
		expect(hexToHsl('red')).toBeNull()
		expect(hexToHsl('#fff')).toBeNull()
	})

	it('puts black text on colours lighter than 50% and white otherwise', () => {
		expect(contentColor('#808080')).toBe('#000000') // 50.2 %
		expect(contentColor('#7f7f7f')).toBe('#ffffff') // 49.8 %
		expect(contentColor('#ff0000')).toBe('#ffffff') // exactly 50 %: not over
		expect(contentColor('#F1F3F6')).toBe('#000000')
		expect(contentColor('#11053b')).toBe('#ffffff')
	})

	it('reads stored values with defaults for anything missing or malformed', () => {
		expect(themeFromValues({})).toEqual(THEME_DEFAULTS)
		expect(themeFromValues({ 'tema.modo': 'neon', 'tema.cor_primaria': 'red;}body{display:none', 'tema.modo_compacto': 'true' })).toEqual({
			...THEME_DEFAULTS,
			modo_compacto: true
		})
	})

	it('carries a changed primary into the dark palette, lightened; untouched colours keep the tuned dark palette', () => {
		expect(themeCss(THEME_DEFAULTS)).not.toContain('kportal-dark')
		const css = themeCss({ ...THEME_DEFAULTS, cor_primaria: '#0F766E' })
		expect(css).toContain('html[data-theme="kportal-dark"]{--color-primary:hsl(175.34 77.44% 65%);--color-primary-content:#000000;}')
		expect(css).not.toMatch(/kportal-dark[^}]*secondary/)
	})

	it('never lets a value break out of the CSS', () => {
		const css = themeCss({ ...THEME_DEFAULTS, cor_primaria: '#000000}</style><script>' as string, tamanho_fonte: 'x' as never })
		expect(css).not.toContain('<')
		expect(css).toContain('font-size:16px')
	})
})
