import { type DisplayFormats, setDisplayFormats } from '../../../modules/core'
import type { SessionUser } from '../../../modules/auth/model'

interface PageData {
	user: SessionUser | null
	formats: Partial<DisplayFormats> | null
	/** The answers of the page's first reads, by address (apps/server/page-reads.ts): the stores start from them. */
	reads: Record<string, unknown>
}

let read: PageData | null = null

/**
 * What the server wrote into the page (#session-data): the signed-in user, the display formats of the settings and
 * the answers of the page's first reads.
 */
export function pageData(): PageData {
	if (read) return read
	if (typeof document === 'undefined') return { user: null, formats: null, reads: {} }
	try {
		const data = JSON.parse(document.getElementById('session-data')?.textContent ?? 'null') as Partial<PageData> | null
		read = { user: data?.user ?? null, formats: data?.formats ?? null, reads: data?.reads ?? {} }
	} catch {
		read = { user: null, formats: null, reads: {} }
	}
	return read
}

let applied = false

/** Every date and amount of the page follows the settings' formats: called once, before the first render (PageRoot). */
export function applyPageFormats() {
	if (applied) return
	applied = true
	setDisplayFormats(pageData().formats)
}
