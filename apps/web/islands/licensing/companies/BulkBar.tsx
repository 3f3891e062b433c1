import { useStore } from '@nanostores/react'
import { X } from 'lucide-react'
import type { BulkAction } from '../../../../../modules/companies/model'
import { BULK_WORDS, runBulk } from './actions'
import { $allMatching, $selectionCount, clearSelection, companiesList } from './list'

const COMMON: BulkAction[] = ['bloquear', 'desbloquear', 'avisos-on', 'avisos-off']
const MAINTENANCE: BulkAction[] = ['manutencao-on', 'manutencao-off']

/** The bulk actions of the companies chosen (or of every company the filter matches): shown while any is chosen. */
export function BulkBar({ canMaintain }: { canMaintain: boolean }) {
	const count = useStore($selectionCount)
	const all = useStore($allMatching)
	const view = useStore(companiesList.$view)
	if (count === 0) return null
	const total = view.page?.total ?? 0
	const actions = canMaintain ? [...COMMON, ...MAINTENANCE] : COMMON
	return (
		<section
			aria-label="Ações em lote"
			className="flex flex-col gap-2 rounded-box border border-primary/30 bg-primary/5 p-3 sm:flex-row sm:flex-wrap sm:items-center"
		>
			<p className="text-sm font-medium" aria-live="polite">
				{all ? `Todas as ${total} empresas do filtro` : `${count} ${count === 1 ? 'selecionada' : 'selecionadas'}`}
			</p>
			{!all && total > count && (
				<button type="button" className="btn btn-link btn-sm px-0" onClick={() => $allMatching.set(true)}>
					Selecionar todas as {total} que correspondem ao filtro
				</button>
			)}
			<div className="flex flex-wrap gap-1 sm:ml-auto">
				{actions.map((action) => (
					<button key={action} type="button" className="btn btn-sm" onClick={() => runBulk(action, count)}>
						{BULK_WORDS[action].label}
					</button>
				))}
				<button type="button" className="btn btn-ghost btn-sm" onClick={clearSelection}>
					<X className="size-4" aria-hidden="true" /> Limpar seleção
				</button>
			</div>
		</section>
	)
}
