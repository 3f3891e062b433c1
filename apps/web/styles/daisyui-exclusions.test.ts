import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * app.css leaves out the daisyUI components the portal does not use (issue 15: Tailwind emitted them because their
 * names are words of the code). A class of an excluded component would render unstyled, silently: this test finds
 * any such class in the web app's class lists, so the component is taken out of the exclusion first.
 */
const WEB = resolve(import.meta.dir, '..')
const DAISY = resolve(import.meta.dir, '../../../node_modules/daisyui/components')

function excluded(): string[] {
	const css = readFileSync(join(import.meta.dir, 'app.css'), 'utf8')
	const list = /@plugin "daisyui" \{[^}]*?exclude:\s*([^;]+);/.exec(css)?.[1] ?? ''
	return list
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean)
}

/** The component's own classes (`.steps`, `.step-primary`, `.radial-progress`…), not the ones its CSS only mentions. */
function ownClasses(component: string): string[] {
	const css = readFileSync(join(DAISY, `${component}.css`), 'utf8')
	const stem = component.replace(/s$/, '')
	const classes = [...new Set([...css.matchAll(/\.([a-z][a-z0-9-]*)/g)].map((m) => m[1]))]
	const own = classes.filter((c) => c.replace(/-/g, '').startsWith(stem))
	// A component named apart from its class (calendar styles `.cally`): its first class.
	return own.length > 0 ? own : classes.slice(0, 1)
}

/**
 * The class tokens of the web app: class and className attributes (plain or template), classList calls, and string
 * constants shaped like class lists (a token with a '-' or a variant ':', e.g. 'badge-success'). Prose and attribute
 * words like role="status" are not class lists.
 */
function classTokens(): Map<string, string> {
	const found = new Map<string, string>()
	const files = [...new Bun.Glob('**/*.{ts,tsx,astro}').scanSync({ cwd: WEB })].filter((f) => !f.endsWith('.test.ts'))
	for (const file of files) {
		// Comments are prose: their apostrophes would pair up into false strings.
		const text = readFileSync(join(WEB, file), 'utf8')
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/<!--[\s\S]*?-->/g, '')
			.replace(/(^|\s)\/\/.*$/gm, '$1')
		const attributes = [...text.matchAll(/\b(?:class|className)(?::list)?=\{?\s*(["'`])([\s\S]*?)\1/g)].map((m) => m[2])
		const calls = [...text.matchAll(/classList\.(?:add|remove|toggle)\(([^)]*)\)/g)].map((m) => m[1])
		const strings = [...text.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)]
			.map((m) => m[2])
			.filter((s) => s.split(/\s+/).some((t) => /^[a-z0-9:[\]/.!-]+$/.test(t) && /[-:]/.test(t)))
		for (const list of [...attributes, ...calls, ...strings])
			for (const token of list.split(/[\s'",${}()]+/)) {
				const name = token.replace(/^([a-z0-9-[\]]+:)+/, '').replace(/^!/, '')
				if (name && !found.has(name)) found.set(name, file)
			}
	}
	return found
}

describe('daisyUI components left out of the CSS', () => {
	it('are not used by any class list of the web app', () => {
		const tokens = classTokens()
		const used = excluded().flatMap((component) =>
			ownClasses(component)
				.filter((c) => tokens.has(c))
				.map((c) => `${component}: .${c} in ${tokens.get(c)}`)
		)
		expect(used).toEqual([])
	})

	it('reads the exclusions and the components they name', () => {
		const names = excluded()
		expect(names.length).toBeGreaterThan(30)
		for (const name of names) expect(ownClasses(name).length).toBeGreaterThan(0)
	})
})
