import { useStore } from '@nanostores/react'
import { Activity as ActivityIcon, Building2, CircleCheck, Coins, Users } from 'lucide-react'
import { SYSTEM_CATALOGUE } from '../../../../modules/companies/model'
import { PageRoot } from '../../components/PageRoot'
import { EmptyState, ErrorPanel, StatCard, StatGrid } from '../../components/ui'
import { WaitingRenewals } from '../../components/WaitingRenewals'
import { routeStore } from '../../lib/query'
import { ActivityRow, ActivitySkeleton } from './ActivityRow'
import { activePercent, daysRemaining, systemBar } from './figures'
import { formatNumber, formatPercent } from '../../../../modules/core'

const $stats = routeStore('GET /api/dashboard/stats')
const $recent = routeStore('GET /api/activities/recent', { limit: 10 })

function Stats() {
	const { data, loading, error } = useStore($stats)
	if (error)
		return (
			<ErrorPanel
				title="Erro ao carregar dados do dashboard"
				message="Não foi possível obter os números do painel."
				onRetry={() => $stats.revalidate()}
			/>
		)
	if (loading || !data) return <StatGrid count={4} />
	return (
		<>
			<StatGrid count={4}>
				<StatCard title="Total Empresas" value={formatNumber(data.totalCompanies)} icon={<Building2 className="size-5" />} />
				<StatCard
					title="Empresas Ativas"
					value={formatNumber(data.activeCompanies)}
					hint={`${formatPercent(activePercent(data.activeCompanies, data.totalCompanies))} do total`}
					icon={<CircleCheck className="size-5" />}
					tone="success"
				/>
				<StatCard
					title="Créditos Disponíveis"
					value={<span data-testid="dashboard-credits">{formatNumber(data.availableCredits)}</span>}
					hint={`${formatNumber(daysRemaining(data.availableCredits))} dias restantes`}
					icon={<Coins className="size-5" />}
					tone="warning"
				/>
				<StatCard
					title="Representantes"
					value={formatNumber(data.totalRepresentatives)}
					hint={`${formatNumber(data.activeRepresentatives)} com empresas ativas`}
					icon={<Users className="size-5" />}
					tone="info"
				/>
			</StatGrid>
			<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby="status-sistemas">
				<div className="mb-4 flex flex-wrap items-center justify-between gap-2">
					<h3 id="status-sistemas" className="text-lg font-semibold">
						Status dos Sistemas
					</h3>
					<div className="flex gap-1" aria-hidden="true">
						<span className="badge badge-ghost badge-sm">7 dias</span>
						<span className="badge badge-ghost badge-sm">30 dias</span>
					</div>
				</div>
				<ul className="space-y-4">
					{SYSTEM_CATALOGUE.map(({ key, name: label }) => {
						const s = data.systemsStatus[key]
						const pct = systemBar(s)
						return (
							<li key={key}>
								<div className="mb-1 flex items-center justify-between gap-2 text-sm">
									<span className="font-medium">{label}</span>
									<span className="text-base-content/70">
										<span className="text-success">{formatNumber(s.active)} ativas</span> ·{' '}
										<span className="text-error">{formatNumber(s.blocked)} bloqueadas</span>
									</span>
								</div>
								<progress
									className="progress progress-success w-full"
									value={pct}
									max={100}
									aria-label={`${label}: ${pct.toFixed(0)}% ativas`}
								/>
							</li>
						)
					})}
				</ul>
			</section>
		</>
	)
}

function Recent() {
	const { data, loading, error } = useStore($recent)
	const now = new Date()
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby="atividade-recente">
			<div className="mb-2 flex items-center justify-between gap-2">
				<h3 id="atividade-recente" className="text-lg font-semibold">
					Atividade Recente
				</h3>
				<a href="/activities" className="link link-primary text-sm">
					Ver todas as atividades
				</a>
			</div>
			{error ? (
				<ErrorPanel
					title="Erro ao carregar dados do dashboard"
					message="Não foi possível obter as atividades recentes."
					onRetry={() => $recent.revalidate()}
				/>
			) : loading || !data ? (
				<ActivitySkeleton rows={5} />
			) : data.length === 0 ? (
				<EmptyState title="Nenhuma atividade recente encontrada" icon={<ActivityIcon className="size-8" />} />
			) : (
				<ul className="divide-y divide-base-300">
					{data.map((a) => (
						<ActivityRow key={a.id} activity={a} now={now} />
					))}
				</ul>
			)}
		</section>
	)
}

/** The dashboard of 1-core §2.5. */
export default function DashboardPage() {
	return (
		<PageRoot>
			<div className="space-y-6">
				<WaitingRenewals limit={3} moreHref="/credits" />
				<Stats />
				<Recent />
			</div>
		</PageRoot>
	)
}
