import { Activity as ActivityIcon } from 'lucide-react'
import type { Activity } from '../../../../modules/reports/model'
import { ACTIVITY_TYPES, activitiesRead } from '../../../../modules/reports/reads'
import { formatDateTime, formatRelative } from '../../../../modules/core'
import { ListScreen, titleColumn } from '../../components/ListScreen'
import { PageRoot } from '../../components/PageRoot'
import { serverList } from '../../lib/list'
import { ActivityIconBadge, TYPE_BADGE, TYPE_LABEL } from './ActivityRow'

/** The history: the API's pages, with search, type and a period of days in the address. */
const activitiesList = serverList<'GET /api/activities', Activity>(activitiesRead, {
	rows: (data) => data.activities,
	exportRoute: 'GET /api/activities/export'
})

/** When: the date and time, and how long ago. */
function When({ activity, now }: { activity: Activity; now: Date }) {
	return (
		<time dateTime={activity.time} className="block whitespace-nowrap">
			<span className="block tabular-nums">{formatDateTime(activity.time)}</span>
			<span className="block text-xs text-base-content/70">{formatRelative(activity.time, now)}</span>
		</time>
	)
}

/** Histórico de Atividades (2-administration §2.10), with the date and time, a period and pages (issue 14). */
export default function ActivitiesPage() {
	const now = new Date()
	return (
		<PageRoot>
			<ListScreen
				source={activitiesList}
				noun={{ one: 'atividade', many: 'atividades', feminine: true }}
				search={{ placeholder: 'Buscar atividades...' }}
				filters={[
					{ key: 'type', label: 'Tipo', options: [['', 'Todos os tipos'], ...ACTIVITY_TYPES.map((t) => [t, TYPE_LABEL[t]] as const)] },
					{ key: 'inicio', label: 'De', date: true },
					{ key: 'fim', label: 'Até', date: true }
				]}
				rowKey={(a) => a.id}
				skeletonRows={10}
				cardTitle={(a) => (
					<span className="flex items-center gap-3">
						<ActivityIconBadge activity={a} />
						{a.title}
					</span>
				)}
				columns={[
					{ key: 'quando', header: 'Data e hora', cell: (a) => <When activity={a} now={now} /> },
					titleColumn<Activity>({ header: 'Atividade' }, (a) => (
						<span className="flex items-center gap-3 font-medium">
							<ActivityIconBadge activity={a} />
							{a.title}
						</span>
					)),
					{
						key: 'tipo',
						header: 'Tipo',
						cell: (a) => <span className={`badge badge-soft badge-sm ${TYPE_BADGE[a.type] ?? ''}`}>{TYPE_LABEL[a.type] ?? a.type}</span>
					},
					{ key: 'detalhe', header: 'Detalhe', cell: (a) => <span className="break-words text-base-content/80">{a.subtitle || '—'}</span> }
				]}
				empty={{ icon: <ActivityIcon className="size-8" /> }}
			/>
		</PageRoot>
	)
}
