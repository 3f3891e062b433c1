import { type DisplayFormats, setDisplayFormats } from '../../../modules/core'
import type { SessionUser } from '../../../modules/auth/model'

interface PageData {
	user: SessionUser | null
	formats: Partial<DisplayFormats> | null
}

let read: PageData | null = null

/** What the server wrote into the page (#session-data): the signed-in user and the display formats of the settings. */
export function pageData(): PageData {
	if (read) return read
	if (typeof document === 'undefined') return { user: null, formats: null }
	try {
		const data = JSON.parse(document.getElementById('session-data')?.textContent ?? 'null') as Partial<PageData> | null
		read = { user: data?.user ?? null, formats: data?.formats ?? null }
	} catch {
		read = { user: null, formats: null }
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
