import { useStore } from '@nanostores/react'
import { Activity as ActivityIcon } from 'lucide-react'
import { atom, computed } from 'nanostores'
import type { Activity } from '../../../../modules/reports/model'
import { PageRoot } from '../../components/PageRoot'
import { EmptyState, ErrorPanel, SearchInput } from '../../components/ui'
import { errorText } from '../../lib/api'
import { useSearch } from '../../lib/hooks'
import { routeStore } from '../../lib/query'
import { ActivityRow, ActivitySkeleton, TYPE_LABEL } from './ActivityRow'

const $search = atom('')
const $type = atom<'' | Activity['type']>('')
const $activities = routeStore(
	'GET /api/activities/recent',
	computed([$search, $type], (search, type) => ({ limit: 200, search, type }))
)

/** Histórico de Atividades (2-administration §2.10). */
export default function ActivitiesPage() {
	const [text, setText] = useSearch((s) => $search.set(s.trim()))
	const type = useStore($type)
	const { data, loading, error } = useStore($activities)
	const now = new Date()
	return (
		<PageRoot>
			<div className="space-y-4">
				<div className="flex flex-col gap-3 sm:flex-row sm:items-center">
					<SearchInput value={text} onChange={setText} placeholder="Buscar atividades..." />
					<select
						className="select w-full sm:w-48"
						value={type}
						onChange={(e) => $type.set(e.target.value as '' | Activity['type'])}
						aria-label="Filtrar por tipo"
					>
						<option value="">Todos os tipos</option>
						{(Object.keys(TYPE_LABEL) as Activity['type'][]).map((t) => (
							<option key={t} value={t}>
								{TYPE_LABEL[t]}
							</option>
						))}
					</select>
				</div>
				<section className="rounded-box border border-base-300 bg-base-100 px-4 sm:px-5" aria-label="Atividades">
					{error ? (
						<div className="py-4">
							<ErrorPanel title="Erro ao carregar atividades" message={errorText(error)} onRetry={() => $activities.revalidate()} />
						</div>
					) : loading || !data ? (
						<ActivitySkeleton rows={10} />
					) : data.length === 0 ? (
						<div className="py-4">
							<EmptyState title="Nenhuma atividade encontrada" icon={<ActivityIcon className="size-8" />} />
						</div>
					) : (
						<ul className="divide-y divide-base-300">
							{data.map((a) => (
								<ActivityRow key={a.id} activity={a} now={now} showBadge />
							))}
						</ul>
					)}
				</section>
				{data && data.length >= 200 && (
					<p className="text-sm text-base-content/60">
						Mostrando as 200 atividades mais recentes. Use a busca para encontrar as mais antigas.
					</p>
				)}
			</div>
		</PageRoot>
	)
}
