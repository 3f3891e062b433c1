import { AlertTriangle, Building, Coins, Terminal, Users } from 'lucide-react'
import type { Activity } from '../../../../modules/reports/model'
import { formatDateTime, formatRelative } from '../../../../modules/core'

const ICONS = { Building, Coins, Users, AlertTriangle, Terminal }
const TONE: Record<Activity['type'], string> = {
	success: 'bg-success/10 text-success',
	info: 'bg-info/10 text-info',
	warning: 'bg-warning/10 text-warning',
	error: 'bg-error/10 text-error'
}
export const TYPE_LABEL: Record<Activity['type'], string> = { success: 'Sucesso', info: 'Info', warning: 'Aviso', error: 'Erro' }
export const TYPE_BADGE: Record<Activity['type'], string> = {
	success: 'badge-success',
	info: 'badge-info',
	warning: 'badge-warning',
	error: 'badge-error'
}

/** The activity's icon in its type's colour (an unknown icon falls back to Building). */
export function ActivityIconBadge({ activity }: { activity: Activity }) {
	const Icon = ICONS[activity.icon] ?? Building
	return (
		<span className={`grid size-9 shrink-0 place-items-center rounded-full ${TONE[activity.type] ?? TONE.info}`}>
			<Icon className="size-4" aria-hidden="true" />
		</span>
	)
}

/** One line of the activity feed: icon (unknown → Building), title, type badge, time and subtitle. */
export function ActivityRow({ activity, now, showBadge = false }: { activity: Activity; now: Date; showBadge?: boolean }) {
	return (
		<li className="flex items-start gap-3 py-3">
			<ActivityIconBadge activity={activity} />
			<div className="min-w-0 grow">
				<div className="flex flex-wrap items-center gap-x-2 gap-y-1">
					<p className="font-medium">{activity.title}</p>
					{showBadge && (
						<span className={`badge badge-soft badge-sm ${TYPE_BADGE[activity.type] ?? ''}`}>
							{TYPE_LABEL[activity.type] ?? activity.type}
						</span>
					)}
				</div>
				{activity.subtitle && <p className="break-words text-sm text-base-content/70">{activity.subtitle}</p>}
			</div>
			<time className="shrink-0 text-xs text-base-content/70" dateTime={activity.time} title={formatDateTime(activity.time)}>
				{formatRelative(activity.time, now)}
			</time>
		</li>
	)
}

export function ActivitySkeleton({ rows }: { rows: number }) {
	return (
		<ul aria-busy="true" aria-label="Carregando atividades">
			{Array.from({ length: rows }, (_, i) => (
				<li key={i} className="flex items-center gap-3 py-3">
					<div className="skeleton size-9 shrink-0 rounded-full" />
					<div className="grow space-y-2">
						<div className="skeleton h-4 w-2/3" />
						<div className="skeleton h-3 w-1/3" />
					</div>
				</li>
			))}
		</ul>
	)
}
