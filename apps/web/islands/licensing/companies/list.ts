import { atom, computed } from 'nanostores'
import type { CompanyFilter } from '../../../../../modules/companies/model'
import { companiesRead } from '../../../../../modules/companies/reads'
import { serverList } from '../../../lib/list'
import type { Company } from '../../../stores/companies'

export { NOTICE_OPTIONS, STATUS_OPTIONS } from './view'

/** The companies list: its view in the address, the API's pages, sorting and streamed CSV export. */
export const companiesList = serverList<'GET /api/companies', Company>(companiesRead, {
	rows: (data) => data.companies,
	exportRoute: 'GET /api/companies/export'
})

/** The filter of the current view, as a bulk action on "every company that matches" sends it. */
export function currentFilter(): CompanyFilter {
	const { search, status, avisos } = companiesRead.query(companiesList.$params.get())
	return { search, status, avisos }
}

/**
 * The companies chosen for a bulk action: codes picked row by row (kept across pages), or every company of the
 * current filter. A new search or filter clears it.
 */
export const $selected = atom<ReadonlySet<number>>(new Set())
export const $allMatching = atom(false)
export const $selectionCount = computed([$selected, $allMatching, companiesList.$view], (selected, all, view) =>
	all ? (view.page?.total ?? selected.size) : selected.size
)

export function clearSelection() {
	$selected.set(new Set())
	$allMatching.set(false)
}

let lastFilter = JSON.stringify(currentFilter())
companiesList.$params.listen(() => {
	const filter = JSON.stringify(currentFilter())
	if (filter !== lastFilter) clearSelection()
	lastFilter = filter
})

export function toggleSelected(codigo: number) {
	const next = new Set($selected.get())
	if (next.has(codigo)) next.delete(codigo)
	else next.add(codigo)
	$selected.set(next)
	$allMatching.set(false)
}

export function setPageSelected(codigos: number[], selected: boolean) {
	const next = new Set($selected.get())
	for (const c of codigos) {
		if (selected) next.add(c)
		else next.delete(c)
	}
	$selected.set(next)
	$allMatching.set(false)
}
