import { describe, expect, it } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The README and docs/ link to each other and to the code (issue 38, point 6): every relative link must name a file
 * or folder of the repository, and every `#anchor` a heading of the file it points at, by GitHub's rule for a heading's
 * id. A section renamed or moved without its links fails here.
 */
const ROOT = resolve(import.meta.dir, '../..')
const DOCUMENTS = ['README.md', ...new Bun.Glob('docs/**/*.md').scanSync({ cwd: ROOT })].sort()

const FENCED_CODE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm

/** The text outside fenced code blocks and inline code, where links mean something. */
function prose(markdown: string): string {
	return markdown.replace(FENCED_CODE, '').replace(/`[^`\n]*`/g, '')
}

/** GitHub's id for a heading: lowercase, punctuation and symbols removed (accents, digits, '-' and '_' kept), spaces to '-'. */
function headingSlug(heading: string): string {
	return heading
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-')
}

/** The anchors of a markdown file's headings; a repeated heading gets -1, -2… as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>()
	for (const m of markdown.replace(FENCED_CODE, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
		const slug = headingSlug(m[1])
		let unique = slug
		for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`
		anchors.add(unique)
	}
	return anchors
}

/** Every link target of the file: inline links [text](target) and definitions [label]: target. */
function linksOf(markdown: string): string[] {
	const text = prose(markdown)
	const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1])
	const defined = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1])
	return [...inline, ...defined]
}

/** What is wrong with the links of `file` (a path from the repository's root) whose text is `markdown`. */
function brokenLinks(file: string, markdown: string): string[] {
	const problems: string[] = []
	for (const link of linksOf(markdown)) {
		if (/^[a-z][a-z\d+.-]*:/i.test(link)) continue // https:, mailto: … are not the repository's
		const [path, anchor] = link.split('#', 2) as [string, string | undefined]
		const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path))
		const shown = relative(ROOT, target) || '.'
		if (!existsSync(target)) {
			problems.push(`${file}: ${link} → ${shown} does not exist`)
			continue
		}
		if (anchor === undefined) continue
		if (!target.endsWith('.md')) problems.push(`${file}: ${link} → an anchor into ${shown}, which has no headings`)
		else if (!anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor)))
			problems.push(`${file}: ${link} → ${shown} has no heading #${anchor}`)
	}
	return problems
}

describe('the links of the README and docs/', () => {
	it("writes a heading's anchor as GitHub does", () => {
		expect(headingSlug('Evolution versions, and rehearsing your own server')).toBe('evolution-versions-and-rehearsing-your-own-server')
		expect(headingSlug('Carnês (instalment booklets) and their payments')).toBe('carnês-instalment-booklets-and-their-payments')
		expect(headingSlug('K-Licenças — portal de licenças')).toBe('k-licenças--portal-de-licenças')
		expect(headingSlug("User's guide")).toBe('users-guide')
		expect(headingSlug('Rehearsing your Asaas sandbox account (check:asaas)')).toBe('rehearsing-your-asaas-sandbox-account-checkasaas')
		expect(headingSlug('The `bot_sessions` table, [see here](x.md)')).toBe('the-bot_sessions-table-see-here')
		expect([...anchorsOf('# Notes\n\n## Notes\n\n```\n# not a heading\n```\n\n### Notes ###\n')]).toEqual(['notes', 'notes-1', 'notes-2'])
	})

	it('finds a missing file, a missing heading and an anchor into a file without headings', () => {
		const markdown = [
			'[ok](docs/operators.md#backups-and-restore), [code](modules/core/format.ts), [site](https://example.com/x#y)',
			'[gone](docs/no-such-guide.md) and [moved](docs/operators.md#no-such-section) and [code](modules/core/format.ts#l1)',
			'`[inside code](nowhere.md)`',
			'[defined]: docs/neither.md'
		].join('\n')
		expect(brokenLinks('README.md', markdown)).toEqual([
			'README.md: docs/no-such-guide.md → docs/no-such-guide.md does not exist',
			'README.md: docs/operators.md#no-such-section → docs/operators.md has no heading #no-such-section',
			'README.md: modules/core/format.ts#l1 → an anchor into modules/core/format.ts, which has no headings',
			'README.md: docs/neither.md → docs/neither.md does not exist'
		])
	})

	it('every relative link names a file of the repository and every anchor a heading of its file', () => {
		expect(DOCUMENTS).toContain('docs/operators.md')
		const links = DOCUMENTS.flatMap((file) => linksOf(readFileSync(join(ROOT, file), 'utf8')))
		expect(links.length).toBeGreaterThan(10)
		expect(DOCUMENTS.flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([])
	})

	it('the README leads to every guide in docs/', () => {
		const readme = linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8'))
		const guides = DOCUMENTS.filter((file) => /^docs\/[^/]+\.md$/.test(file))
		expect(guides.length).toBeGreaterThan(3)
		expect(guides.filter((guide) => !readme.some((link) => link.split('#')[0] === guide))).toEqual([])
	})
})
